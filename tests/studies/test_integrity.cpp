// Output integrity and robustness of long studies: each way a study could exit 0 with empty,
// corrupted or silently wrong results, as a command a user would run.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "common/simulation_settings.h"
#include "studies/output_folder.h"
#include "tests/studies/cli_run.h"

namespace mbsweep {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using test::Cli;
using test::CliRun;
using test::Example;
using test::OutDir;
using test::ReadJson;
using test::ReadText;

/// A copy of an example study in `dir` (with the reference signal it reads), each `from`
/// replaced by its `to`; returns the copy's path.
std::string StudyVariant(const std::string& dir, const std::string& example,
                         const std::vector<std::pair<std::string, std::string>>& edits) {
  fs::create_directories(dir);
  std::string text = ReadText(Example(example));
  for (const auto& [from, to] : edits) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  const std::string path = dir + "/" + example;
  std::ofstream(path) << text;
  fs::copy_file(Example("oscillator_reference.txt"), dir + "/oscillator_reference.txt",
                fs::copy_options::overwrite_existing);
  return path;
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// 1. A full disk: the run fails (exit 3), naming the file and the operating system's reason;
// it never reports success over a cut-short file.
TEST(Integrity, FullDiskFailsTheRunNamingFileAndReason) {
  const std::string out = OutDir("full_disk");
  fs::create_directories(out);
  fs::create_symlink("/dev/full", out + "/springForce.txt");  // writes fail with ENOSPC
  const CliRun r = Cli({"simulate", Example("oscillator_variation.yaml"), "--out", out, "--quiet"});
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_TRUE(Has(r.err, "springForce.txt")) << r.err;
  EXPECT_TRUE(Has(r.err, "No space left on device")) << r.err;
  EXPECT_FALSE(fs::exists(out + "/summary.json"));
}

TEST(Integrity, FileSizeLimitFailsASweepNamingFileAndReason) {
  // results.csv and results.txt of the 256-point grid are about 18 KB each: a 4 KB limit on
  // file sizes (what a full disk does to a growing file) must fail the run
  const std::string out = OutDir("size_limit");
  const CliRun r = test::CliWithFileSizeLimit({"sweep", Example("oscillator_variation.yaml"), "--out", out, "--chunk", "64"},
                                              4096);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_TRUE(Has(r.err, "results.")) << r.err;
  EXPECT_TRUE(Has(r.err, "File too large")) << r.err;
  EXPECT_FALSE(fs::exists(out + "/summary.json"));
}

// 2. Two runs on one output folder at once: the second is refused before it writes anything,
// naming the run that holds the folder.
TEST(Integrity, ASecondRunOnABusyOutputFolderIsRefused) {
  const std::string out = OutDir("busy");
  const std::string study = Example("oscillator_variation.yaml");
  {
    const OutputFolder holder = OutputFolder::Open(out, "mbsweep sweep held-by-the-test.yaml", {}, false);
    for (const char* resume : {"", "--resume"}) {
      std::vector<std::string> args{"sweep", study, "--out", out, "--quiet"};
      if (*resume) args.push_back(resume);
      const CliRun r = Cli(args);
      EXPECT_EQ(r.code, 2) << r.err;
      EXPECT_TRUE(Has(r.err, "is in use by another mbsweep run")) << r.err;
      EXPECT_TRUE(Has(r.err, "held-by-the-test.yaml")) << r.err;
      EXPECT_FALSE(fs::exists(out + "/results.csv"));
    }
  }
  const CliRun r = Cli({"sweep", study, "--out", out, "--quiet"});  // released
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(ReadJson(out + "/summary.json")["counts"]["ok"].get<int>(), 256);
}

// 3. A chunk size beyond the number of points runs the study as one chunk.
TEST(Integrity, HugeChunkSizeEvaluatesEverySystem) {
  const std::string out = OutDir("huge_chunk");
  const CliRun r = Cli({"sweep", Example("oscillator_variation.yaml"), "--out", out, "--chunk", "18446744073709551615",
                        "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const Json s = ReadJson(out + "/summary.json");
  EXPECT_EQ(s["counts"]["ok"].get<int>(), 256);
  EXPECT_EQ(s["chunks"]["count"].get<int>(), 1);
}

// 4. An int-type grid range whose values leave the int64 range: refused (the results files
// would print another number than the one simulated).
TEST(Integrity, IntGridBeyondInt64IsRefused) {
  const std::string dir = OutDir("int_grid");
  const std::string study = StudyVariant(dir, "oscillator_variation.yaml",
                                         {{"{mass: [1, 2, 16], spring: [2000, 8000, 16]}",
                                           "{mass: [-1, 9223372036854775807, 4]}"}});
  const CliRun r = Cli({"sweep", study, "--out", dir + "/out", "--quiet"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(Has(r.err, "end = 9223372036854775807 violates the int64 range")) << r.err;
  // the largest int-type range inside int64 runs, and prints the values it simulated
  const std::string ok = StudyVariant(dir + "/ok", "oscillator_variation.yaml",
                                      {{"{mass: [1, 2, 16], spring: [2000, 8000, 16]}",
                                        "{mass: [1, 4611686018427387904, 2]}"}});
  const CliRun r2 = Cli({"sweep", ok, "--out", dir + "/ok/out", "--quiet"});
  ASSERT_EQ(r2.code, 0) << r2.err;
  EXPECT_TRUE(Has(ReadText(dir + "/ok/out/results.csv"), "\n1,4611686018427387904,")) << ReadText(dir + "/ok/out/results.csv");
}

// 5. Numbers out of range are refused with the range, never clamped; sizes that cannot be
// built are refused before anything runs, with the sizes and a way out.
TEST(Integrity, OutOfRangeOptionsAndImpossibleSizesAreRefused) {
  const std::string out = OutDir("ranges");
  const std::string scan = Example("oscillator_sobol_scan.yaml");
  const CliRun seed = Cli({"sweep", scan, "--out", out, "--seed", "99999999999999999999"});
  EXPECT_EQ(seed.code, 1);
  EXPECT_TRUE(Has(seed.err, "--seed: '99999999999999999999' is beyond 18446744073709551615")) << seed.err;
  const CliRun count = Cli({"sweep", scan, "--out", out, "--count", "-5"});
  EXPECT_EQ(count.code, 1);
  EXPECT_TRUE(Has(count.err, "--count: '-5' must be >= 1")) << count.err;
  const CliRun sobol = Cli({"sweep", scan, "--out", out, "--count", "1e17"});
  EXPECT_EQ(sobol.code, 2);
  EXPECT_TRUE(Has(sobol.err, "count = 100000000000000000 violates count <= 2^53")) << sobol.err;
  const std::string lhs = StudyVariant(OutDir("ranges_lhs"), "oscillator_sobol_scan.yaml", {{"design: sobol", "design: lhs"}});
  const CliRun big = Cli({"sweep", lhs, "--out", out, "--count", "1e12"});
  EXPECT_EQ(big.code, 2);
  EXPECT_TRUE(Has(big.err, "a lhs design of 1000000000000 points x 4 parameters (built whole) needs 58.2 TiB")) << big.err;
  EXPECT_TRUE(Has(big.err, "design: sobol is generated chunk by chunk")) << big.err;
  const CliRun ga = Cli({"optimize", Example("slidercrank_balancing.yaml"), "--out", out, "--seed", "4294967296"});
  EXPECT_EQ(ga.code, 2);
  EXPECT_TRUE(Has(ga.err, "--seed = 4294967296 violates 0 <= seed <= 2^32-1")) << ga.err;
}

// 6. A resume through another path to the same study and output folder continues; a changed
// study is refused with what changed.
TEST(Integrity, ResumeThroughAnotherPathAndRefusalNamesTheChange) {
  const std::string base = OutDir("other_path");
  const std::string a = base + "/a", b = base + "/b";
  const std::string study = StudyVariant(a, "oscillator_variation.yaml", {});
  fs::create_directory_symlink(a, b);  // b/ is a/ by another name
  const std::string whole = base + "/whole";
  ASSERT_EQ(Cli({"sweep", study, "--out", whole, "--chunk", "64", "--quiet"}).code, 0);
  ASSERT_EQ(Cli({"sweep", study, "--out", a + "/out", "--chunk", "64", "--quiet"}).code, 0);
  {  // killed during chunk 2
    std::ifstream in(a + "/out/manifest.txt");
    std::string line, kept;
    while (std::getline(in, line))
      if (line.rfind("chunk 2 ", 0) != 0 && line.rfind("chunk 3 ", 0) != 0) kept += line + "\n";
    in.close();
    std::ofstream(a + "/out/manifest.txt", std::ios::trunc) << kept;
  }
  const CliRun r = Cli({"sweep", b + "/oscillator_variation.yaml", "--out", b + "/out", "--chunk", "64", "--resume"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "256 systems (128 evaluated now)")) << r.out;
  EXPECT_EQ(ReadText(a + "/out/results.csv"), ReadText(whole + "/results.csv"));
  const CliRun w = Cli({"sweep", study, "--out", a + "/out", "--chunk", "32", "--resume"});
  EXPECT_EQ(w.code, 2);
  EXPECT_TRUE(Has(w.err, "the study changed since the checkpoint: chunk size '64' -> '32'")) << w.err;
  std::ofstream(a + "/oscillator_reference.txt", std::ios::app) << "# edited\n";
  const CliRun f = Cli({"sweep", study, "--out", a + "/out", "--chunk", "64", "--resume"});
  EXPECT_EQ(f.code, 2);
  EXPECT_TRUE(Has(f.err, "signal file contents of objective error '")) << f.err;
}

// 7. One system that cannot reach endTime (the slider-crank over 2.1e9 s in 150 steps keeps
// halving and regrowing its step) ends with budget_exceeded instead of stalling the batch.
TEST(Integrity, StepBudgetEndsAStalledSystemWithItsStatus) {
  const std::string dir = OutDir("budget");
  const std::string study = StudyVariant(dir, "slidercrank_balancing.yaml",
                                         {{"numberOfSteps: 1500", "numberOfSteps: 150\n    maxStepAttempts: 4000"},
                                          {"endTime: 3", "endTime: 2.1e9"}});
  {  // a two-point grid instead of the genetic optimization
    std::string text = ReadText(study);
    text = text.substr(0, text.find("\nstudy:")) +
           "\nstudy: {type: ParameterVariation, objective: weightedSum, parameters: {s1: [-0.075, -0.07, 2]}}\n";
    std::ofstream(study, std::ios::trunc) << text;
  }
  const CliRun r = Cli({"sweep", study, "--out", dir + "/out", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const Json s = ReadJson(dir + "/out/summary.json");
  EXPECT_EQ(s["counts"]["budget_exceeded"].get<int>(), 2);
  ASSERT_EQ(s["failures"].size(), 2u);
  const std::string reason = s["failures"][0]["reason"].get<std::string>();
  EXPECT_TRUE(Has(reason, "the budget of 4000 step attempts (timeIntegration.maxStepAttempts) ran out at t = ")) << reason;
  EXPECT_TRUE(Has(reason, "before endTime = 2.1e+09")) << reason;
  EXPECT_TRUE(Has(ReadText(dir + "/out/results.csv"), ",budget_exceeded,\"the budget of 4000 step attempts"))
      << ReadText(dir + "/out/results.csv");
  // the reference solver stops at the same budget
  const CliRun sim = Cli({"simulate", study, "--out", dir + "/sim", "--quiet"});
  EXPECT_EQ(sim.code, 3);
  EXPECT_TRUE(Has(sim.err, "the budget of 4000 step attempts")) << sim.err;
  // the automatic budget: three orders of magnitude of step reductions beyond the plan
  TimeIntegrationSettings ti;
  ti.numberOfSteps = 150;
  EXPECT_EQ(StepAttemptBudget(ti), 250000);
  ti.numberOfSteps = 100000000;
  EXPECT_EQ(StepAttemptBudget(ti), 2147483647);
}

// 8. A failed system says why, in results.csv and summary.json; a mass of 1e-300 kg (an
// acceleration of 1e302 m/s^2) is not "ok".
TEST(Integrity, FailedSystemsCarryTheirReason) {
  const std::string dir = OutDir("reasons");
  const std::string study =
      StudyVariant(dir, "oscillator_variation.yaml",
                   {{"{mass: [1, 2, 16], spring: [2000, 8000, 16]}", "{mass: {values: [-1, 1e-300, 1.6]}}"}});
  const CliRun r = Cli({"sweep", study, "--out", dir + "/out", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string csv = ReadText(dir + "/out/results.csv");
  EXPECT_TRUE(Has(csv, "\n0,-1.0,nan,nan,invalid_parameter,massPoint.mass = -1 violates UReal (must be >= 0)\n"))
      << csv;
  EXPECT_TRUE(Has(csv, "\n1,1e-300,nan,nan,diverged,\"the solution diverged (not finite, or a squared norm of the "
                       "coordinates, velocities or accelerations beyond newton.maximumSolutionNorm = 1e+38) at t = 0 "
                       "(step size 0.001)\"\n"))
      << csv;
  EXPECT_TRUE(Has(csv, ",ok,\n")) << csv;
  const Json s = ReadJson(dir + "/out/summary.json");
  ASSERT_EQ(s["failures"].size(), 2u);
  EXPECT_EQ(s["failures"][0]["status"], "invalid_parameter");
  EXPECT_EQ(s["failures"][1]["status"], "diverged");
  EXPECT_EQ(s["failures"][1]["parameters"][0].get<double>(), 1e-300);
}

TEST(Integrity, SignalCoveringPartOfTheRunWarns) {
  const std::string dir = OutDir("partial_signal");
  const std::string study = StudyVariant(dir, "oscillator_variation.yaml", {});
  {  // the reference file cut after t = 0.495 (its header and first 100 samples)
    std::ifstream in(dir + "/oscillator_reference.txt");
    std::string line, kept;
    for (int samples = 0; samples < 100 && std::getline(in, line);) {
      kept += line + "\n";
      samples += !line.empty() && line[0] != '#';
    }
    in.close();
    std::ofstream(dir + "/oscillator_reference.txt", std::ios::trunc) << kept;
  }
  const CliRun r = Cli({"sweep", study, "--out", dir + "/out", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string expected = "objective 'error': its measured signal covers t = 0 .. 0.495, the simulation runs t = 0 .. 1";
  EXPECT_TRUE(Has(r.err, "warning: " + expected)) << r.err;
  const Json warnings = ReadJson(dir + "/out/summary.json")["warnings"];
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(Has(warnings[0].get<std::string>(), expected));
  const CliRun sim = Cli({"simulate", study, "--out", dir + "/sim", "--quiet"});
  EXPECT_TRUE(Has(sim.err, "warning: " + expected)) << sim.err;
}

TEST(Integrity, OutputFolderThatIsAFileOrHoldsAnEarlierRun) {
  const std::string dir = OutDir("out_checks");
  fs::create_directories(dir);
  std::ofstream(dir + "/a-file") << "not a folder";
  const std::string study = Example("oscillator_variation.yaml");
  const CliRun file = Cli({"sweep", study, "--out", dir + "/a-file", "--quiet"});
  EXPECT_EQ(file.code, 2);
  EXPECT_TRUE(Has(file.err, "output folder '" + dir + "/a-file' is a file, not a folder")) << file.err;
  ASSERT_EQ(Cli({"sweep", study, "--out", dir + "/out", "--quiet"}).code, 0);
  const CliRun again = Cli({"sweep", study, "--out", dir + "/out", "--quiet"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_TRUE(Has(again.err, "holds outputs of an earlier run (results.csv, results.txt, summary.json, manifest.txt); "
                             "this run replaces them"))
      << again.err;
  EXPECT_EQ(ReadJson(dir + "/out/summary.json")["warnings"].size(), 1u);
}

}  // namespace
}  // namespace mbsweep
