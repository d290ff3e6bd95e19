/// @file commands.h
/// The subcommands of the mbsweep command line (cli.h). Each reads a study file, runs, writes
/// its outputs into the output folder (results files, CSV, summary.json) and returns the exit
/// code; input errors throw (StudyFileError, ValidationError), run-time failures throw
/// std::runtime_error / SolverError (compile fills the cache of compiled models instead of an
/// output folder). One file per subcommand in studies/cli/ (simulate.cpp, sweep.cpp,
/// optimize.cpp, sensitivity.cpp, identify.cpp, compare.cpp, plot.cpp, describe.cpp,
/// compile.cpp); what they share is in session.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mbsweep::cli {

/// Parsed command-line options (shared by all subcommands; each uses what applies).
struct Options {
  std::string study;                 ///< study file
  std::string out;                   ///< output folder ("" = <study stem>_out)
  std::vector<std::string> sets;     ///< name=value overrides of nominal parameter values
  std::string backend = "auto";      ///< cpu | cpu-jit | cuda ... | auto (cli.cpp)
  int threads = 0;                   ///< cpu evaluator threads (0 = all)
  std::optional<std::uint64_t> seed;  ///< overrides the study's seed
  bool resume = false;
  bool quiet = false;
  std::uint64_t chunk = 0;           ///< sweep: systems per batch (0 = study.chunkSize)
  std::uint64_t count = 0;           ///< sweep (Sampling): number of points (0 = study.count)
  std::uint64_t systems = 0;         ///< compare: systems in the batch (0 = default)
  int signals = 0;                   ///< compare: decimated signal rows per system (0 = none)
  std::string against = "cuda";      ///< compare: the evaluator compared with cpu
  std::string plotInput;             ///< plot: output folder, results file or sensor file
  std::string plotFormat = "png";    ///< plot: png | svg | pdf
  bool plotLogX = false;             ///< plot: log parameter, time and generation axes
  bool plotLogY = false;             ///< plot: log value axes (else automatic: plot.py)
  std::uint64_t plotScatterLimit = 20000;  ///< plot: more points give a density plot
  std::string item;                  ///< describe: item type ("" = all)
  std::vector<std::string> archs;    ///< compile: GPU architectures ("" = this machine's GPU, if any)
};

int RunSimulate(const Options& o);
int RunSweep(const Options& o);
int RunOptimize(const Options& o);
int RunSensitivity(const Options& o);
int RunIdentify(const Options& o);
int RunCompare(const Options& o);
int RunPlot(const Options& o);
int RunDescribe(const Options& o);
int RunCompile(const Options& o);

}  // namespace mbsweep::cli
