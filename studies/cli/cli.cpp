// The mbsweep command line: option parsing and dispatch (one file per command under studies/cli/, commands.h).
#include "studies/cli/cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <exception>
#include <new>

#include "common/rules.h"
#include "cpu/simulation.h"
#include "studies/cli/commands.h"
#include "studies/ranks.h"
#include "studies/results_file.h"
#include "studies/study_file.h"

namespace mbsweep::cli {

namespace {

/// Reads a whole number strictly into `v`: decimal digits, or scientific notation that is an
/// exact integer (1e12). Returns "" or what is wrong (never clamps an out-of-range value).
std::string ParseWholeNumber(const std::string& text, std::uint64_t min, std::uint64_t& v) {
  const char* b = text.data();
  const char* e = b + text.size();
  const auto [p, ec] = std::from_chars(b, e, v);
  if (ec == std::errc::result_out_of_range) return "'" + text + "' is beyond 18446744073709551615 (2^64-1)";
  if (ec != std::errc() || p != e) {
    char* end = nullptr;
    const long double x = std::strtold(text.c_str(), &end);
    if (text.empty() || end != e || !std::isfinite(x) || x != std::floor(x))
      return "'" + text + "' is not a whole number";
    if (x < 0) return "'" + text + "' must be >= " + std::to_string(min);
    if (x >= 18446744073709551616.0L) return "'" + text + "' is beyond 18446744073709551615 (2^64-1)";
    v = static_cast<std::uint64_t>(x);
  }
  if (v < min) return "'" + text + "' must be >= " + std::to_string(min);
  return "";
}

/// A whole-number option read strictly (ParseWholeNumber), handed to `set` once parsed.
CLI::Option* AddWholeNumber(CLI::App* c, const std::string& name, std::function<void(std::uint64_t)> set,
                            const std::string& help, std::uint64_t min) {
  return c
      ->add_option_function<std::string>(
          name,
          [set, min](const std::string& text) {
            std::uint64_t v = 0;
            ParseWholeNumber(text, min, v);
            set(v);
          },
          help)
      ->check(CLI::Validator(
          [min](std::string& text) {
            std::uint64_t v = 0;
            return ParseWholeNumber(text, min, v);
          },
          "UINT"));
}

void AddStudyOptions(CLI::App* c, Options& o, bool batch) {
  c->add_option("study", o.study, "model and study file (YAML)")->required()->check(CLI::ExistingFile);
  c->add_option("--out,-o", o.out, "output folder (default: <study name>_out)");
  c->add_option("--set", o.sets, "override a parameter's nominal value: --set name=value (repeatable)")
      ->allow_extra_args(false);
  c->add_flag("--quiet,-q", o.quiet, "no progress bar and no summary on stdout");
  if (!batch) return;
  c->add_option("--backend,-b", o.backend,
                "evaluator: cpu, cpu-jit (code compiled for the model), cuda (kernels compiled for the model), "
                "cuda-thread / cuda-warp (cuda with the thread- or warp-per-system kernel "
                "forced), cuda-interp / cuda-interp-thread (the interpreter's kernels), cuda-cublas (the cuBLAS "
                "batched-factorization baseline, generalized-alpha only) or auto (cuda if a GPU is usable, else cpu, "
                "then cpu-jit once the batches have run, or are predicted to run, 120 s; cpu-jit at once if the "
                "model is compiled already)")
      ->check(CLI::IsMember({"cpu", "cpu-jit", "cuda", "cuda-thread", "cuda-warp", "cuda-interp", "cuda-interp-thread",
                             "cuda-cublas", "auto"}));
  c->add_option("--threads,-j", o.threads, "cpu evaluator threads (0: all hardware threads)")->check(CLI::NonNegativeNumber);
}

}  // namespace

int RunCli(const std::vector<std::string>& args) {
  CLI::App app{"mbsweep: multibody dynamics for massive parameter sweeps (Exudyn's items, solvers and studies)", "mbsweep"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("mbsweep ") + kMbsweepVersion);
  Options o;

  CLI::App* simulate = app.add_subcommand("simulate", "one simulation at the nominal parameters: sensor files and objective values");
  AddStudyOptions(simulate, o, false);

  CLI::App* sweep = app.add_subcommand("sweep", "ParameterVariation grid or sampling design (study.type ParameterVariation | Sampling)");
  AddStudyOptions(sweep, o, true);
  auto set = [](std::uint64_t& target) { return [&target](std::uint64_t v) { target = v; }; };
  auto setSeed = [&o](std::uint64_t v) { o.seed = v; };
  AddWholeNumber(sweep, "--chunk", set(o.chunk), "systems per batch (default: study.chunkSize)", 1);
  AddWholeNumber(sweep, "--count,-n", set(o.count), "sampling: number of points (overrides study.count)", 1);
  AddWholeNumber(sweep, "--seed", setSeed, "sampling seed, 0 .. 2^64-1 (overrides study.seed)", 0);
  sweep->add_flag("--resume", o.resume, "continue a killed run in the same --out folder without recomputing finished chunks");

  CLI::App* optimize = app.add_subcommand("optimize", "GeneticOptimization (study.type GeneticOptimization), one batch per generation");
  AddStudyOptions(optimize, o, true);
  AddWholeNumber(optimize, "--seed", setSeed, "randomizerInitialization, 0 .. 2^32-1 (overrides the study's)", 0);
  optimize->add_flag("--resume", o.resume, "continue a killed run; gives the same result as an uninterrupted one");

  CLI::App* sensitivity = app.add_subcommand("sensitivity", "ComputeSensitivities (study.type Sensitivity), all evaluations in one batch");
  AddStudyOptions(sensitivity, o, true);

  CLI::App* identify = app.add_subcommand("identify", "fit parameters to measured signals (study.type Identification): GA, then Nelder-Mead");
  AddStudyOptions(identify, o, true);
  AddWholeNumber(identify, "--seed", setSeed, "GA seed, 0 .. 2^32-1 (overrides the study's randomizerInitialization)", 0);
  identify->add_flag("--resume", o.resume, "continue a killed run: finished GA generations are not recomputed");

  CLI::App* compare = app.add_subcommand(
      "compare", "the study's first batch on cpu and on cuda (or --against): deviations and speedup");
  AddStudyOptions(compare, o, false);
  compare->add_option("--threads,-j", o.threads, "cpu and cpu-jit evaluator threads (0: all hardware threads)")
      ->check(CLI::NonNegativeNumber);
  AddWholeNumber(compare, "--systems,-n", set(o.systems), "systems in the compared batch (default: 4096 or the study's size)", 1);
  compare
      ->add_option("--against", o.against,
                   "the evaluator compared with cpu: cuda (default), cpu-jit, cuda-thread, cuda-warp, cuda-interp, "
                   "cuda-interp-thread or cuda-cublas")
      ->check(CLI::IsMember({"cpu-jit", "cuda", "cuda-thread", "cuda-warp", "cuda-interp", "cuda-interp-thread",
                             "cuda-cublas"}));
  compare->add_option("--signals", o.signals, "also compare decimated signals: rows per system (0: none)")
      ->check(CLI::NonNegativeNumber);

  CLI::App* plot = app.add_subcommand(
      "plot", "figures (matplotlib) of an output folder (summary.json), an Exudyn-format results file or a sensor file");
  plot->add_option("results", o.plotInput, "output folder of a study run, results file or sensor file")
      ->required()
      ->check(CLI::ExistingPath);
  plot->add_option("--out,-o", o.out, "folder for the figures (default: the output folder, or next to the file)");
  plot->add_option("--format", o.plotFormat, "file format: png (default), svg or pdf")
      ->check(CLI::IsMember({"png", "svg", "pdf"}));
  plot->add_flag("--logx", o.plotLogX, "log10 parameter, time and generation axes");
  plot->add_flag("--logy", o.plotLogY,
                 "log10 value axes and heat-map colours (without it: where positive values span more than 3 decades)");
  AddWholeNumber(plot, "--scatter-limit", set(o.plotScatterLimit),
                 "above this many points a density plot (hexagonal cells) replaces the scatter plot (default 20000)", 0);
  plot->add_flag("--quiet,-q", o.quiet, "do not list the written files");

  CLI::App* describe = app.add_subcommand(
      "describe", "the item types, or one item's fields (kind, rule, default, earlier name) and sensor outputs");
  describe->add_option("item", o.item, "item type, full or short name (MassPoint)");

  CLI::App* compile = app.add_subcommand(
      "compile", "compile the code generated for the study's model into the cache (cpu-jit, and cuda for each --arch) before runs");
  compile->add_option("study", o.study, "model and study file (YAML)")->required()->check(CLI::ExistingFile);
  compile->add_option("--set", o.sets, "override a parameter's nominal value: --set name=value (repeatable)")
      ->allow_extra_args(false);
  compile->add_option("--arch", o.archs,
                      "GPU architecture of the cuda kernel, sm_90 (repeatable; default: this machine's GPU, if any)")
      ->allow_extra_args(false);

  // under an MPI launcher every rank parses the same command line; rank 0 speaks for all
  Ranks* world = nullptr;
  try {
    world = &Ranks::World();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 3;
  }
  Ranks& ranks = *world;
  std::vector<std::string> argvTail(args.begin() + (args.empty() ? 0 : 1), args.end());
  std::reverse(argvTail.begin(), argvTail.end());  // CLI11 parses a reversed vector
  try {
    app.parse(argvTail);
  } catch (const CLI::ParseError& e) {
    if (!ranks.IsRoot()) return e.get_exit_code() == 0 ? 0 : 1;
    return app.exit(e) == 0 ? 0 : 1;  // --help/--version: 0; any usage error: 1
  }
  // sweep, optimize, sensitivity and identify spread their batches over the ranks (the other
  // ranks serve rank 0 inside the command); simulate, compare, plot, describe and compile run on rank 0 alone
  const bool distributed = sweep->parsed() || optimize->parsed() || sensitivity->parsed() || identify->parsed();
  if (!ranks.IsRoot() && !distributed) return 0;

  int code = 1;
  std::string kind = "error", what;
  try {
    if (simulate->parsed()) code = RunSimulate(o);
    if (sweep->parsed()) code = RunSweep(o);
    if (optimize->parsed()) code = RunOptimize(o);
    if (sensitivity->parsed()) code = RunSensitivity(o);
    if (identify->parsed()) code = RunIdentify(o);
    if (compare->parsed()) code = RunCompare(o);
    if (plot->parsed()) code = RunPlot(o);
    if (describe->parsed()) code = RunDescribe(o);
    if (compile->parsed()) code = RunCompile(o);
  } catch (const StudyFileError& e) {
    code = 2, what = e.what();
  } catch (const ValidationError& e) {
    code = 2, what = e.what();
  } catch (const SolverError& e) {
    code = 3, kind = "solver error", what = e.what();
  } catch (const std::bad_alloc&) {
    // sizes that cannot fit are refused up front (memory_limit.h); this is memory that other
    // programs hold, or a batch just below the limit
    code = 3, what = "out of memory (a sweep holds one chunk of --chunk systems at a time)";
  } catch (const std::exception& e) {
    code = 3, what = e.what();
  }
  if (!ranks.IsRoot()) {  // rank 0 reports it (Ranks::Map) and ends the job
    if (!what.empty()) ranks.ServeFailure(what);
    return code;
  }
  if (!what.empty()) {
    std::fprintf(stderr, "%s: %s\n", kind.c_str(), what.c_str());
    if (ranks.Size() > 1) {
      std::fflush(nullptr);
      ranks.Abort(code);  // other ranks may be busy with pieces or waiting for them
    }
    return code;
  }
  if (distributed)
    for (const std::string& w : ranks.Release()) std::fprintf(stderr, "warning: %s\n", w.c_str());
  return code;
}

}  // namespace mbsweep::cli
