// The mbsweep command line on the ready-to-run examples (studies/examples), run in-process.
// Reference figures: Exudyn's parameterVariationExample (values[-1] = 3.8418270115351496)
// and geneticOptimizationSliderCrank (pOpt, vOpt), Exudyn's main/pythonDev/Examples/.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/batch.h"
#include "cpu/jit.h"
#include "studies/cli/cli.h"
#include "studies/cli/progress.h"
#include "studies/results_file.h"
#include "tests/studies/cli_run.h"

namespace mbsweep {
namespace {

using test::Cli;
using test::CliInChild;
using test::CliRun;
using test::Example;
using test::OutDir;
using test::ReadJson;
using test::ReadText;
namespace fs = std::filesystem;
using Json = nlohmann::json;

/// Sets an environment variable for one scope (the previous value restored at its end).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    const char* old = std::getenv(name);
    if (old != nullptr) old_ = old;
    had_ = old != nullptr;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { had_ ? ::setenv(name_, old_.c_str(), 1) : ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

/// mbsweep plot's interpreter for these tests: the build's virtual environment with numpy and
/// matplotlib (scripts/setup.sh), through MBSWEEP_PYTHON; nullopt if it does not exist.
std::optional<ScopedEnv> PlotPython() {
  if (!fs::exists(MBSWEEP_TEST_PLOT_PYTHON)) return std::nullopt;
  return std::make_optional<ScopedEnv>("MBSWEEP_PYTHON", MBSWEEP_TEST_PLOT_PYTHON);
}
#define MBSWEEP_SKIP_WITHOUT_PLOT_PYTHON(guard) \
  if (!(guard)) GTEST_SKIP() << "no " MBSWEEP_TEST_PLOT_PYTHON " (scripts/setup.sh makes it)"

/// The file's first bytes: PNG, SVG (XML) and PDF files start with their own.
bool HasMagic(const std::string& path, const std::string& format) {
  const std::string head = ReadText(path).substr(0, 64);
  if (format == "png") return head.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8);
  if (format == "pdf") return head.substr(0, 5) == "%PDF-";
  return head.find("<?xml") == 0 || head.find("<svg") != std::string::npos;
}

/// Numeric rows of an Exudyn sensor file (comment lines skipped).
std::vector<std::vector<double>> SensorRows(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::vector<double>> rows;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<double> r;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, ',')) r.push_back(std::stod(field));
    rows.push_back(r);
  }
  return rows;
}

TEST(Cli, SimulateMatchesExudynsReferenceRun) {
  // The example's reference signal is Exudyn 1.13.6's own reference run of
  // parameterVariationExample (spring force every 5 ms, written with 10 digits): simulate on
  // the same model agrees to the file's rounding.
  const std::string out = OutDir("simulate");
  const CliRun r = Cli({"simulate", Example("oscillator_variation.yaml"), "--out", out});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto mine = SensorRows(out + "/springForce.txt");
  const auto exudyn = SensorRows(Example("oscillator_reference.txt"));
  ASSERT_EQ(mine.size(), 201u);
  ASSERT_EQ(mine.size(), exudyn.size());
  for (size_t i = 0; i < mine.size(); ++i)
    for (size_t k = 0; k < mine[i].size(); ++k)
      EXPECT_NEAR(mine[i][k], exudyn[i][k], 1e-9 * std::max(1.0, std::abs(exudyn[i][k]))) << "row " << i;
  const Json s = ReadJson(out + "/summary.json");
  EXPECT_LT(s["objectives"]["error"].get<double>(), 1e-9);  // the nominal run against it
  EXPECT_EQ(s["statistics"]["steps"].get<int>(), 1000);
}

TEST(Cli, SweepReproducesExudynsParameterVariationExample) {
  const std::string out = OutDir("sweep");
  const CliRun r = Cli({"sweep", Example("oscillator_variation.yaml"), "--out", out, "--backend", "cpu", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const ResultsFileContents c = ReadResultsFile(out + "/results.txt");
  ASSERT_EQ(c.rows.size(), 256u);
  EXPECT_EQ(c.header.parameterNames, (std::vector<std::string>{"mass", "spring"}));
  // Exudyn's example reports values[-1] = 3.8418270115351496 (mass 2, spring 8000), against its
  // reference file (10 digits, the one shipped here); Exudyn compares two 10-digit files,
  // mbsweep the double-precision signal with the file, hence 1e-7.
  EXPECT_NEAR(c.rows.back().value.items[0].value, 3.8418270115351496, 3.8418270115351496 * 1e-7);
  // grid order: first parameter slowest; computationIndex written (addComputationIndex)
  EXPECT_DOUBLE_EQ(c.rows[1].parameters[0].value, 1.0);
  EXPECT_DOUBLE_EQ(c.rows[1].parameters[1].value, 2400.0);
  EXPECT_EQ(c.rows[17].computationIndex, 17);
  // the grid holds the nominal point (mass 1.6, spring 4000): the minimum, error ~ 0
  const Json s = ReadJson(out + "/summary.json");
  EXPECT_NEAR(s["optimum"]["parameters"]["mass"].get<double>(), 1.6, 1e-12);
  EXPECT_DOUBLE_EQ(s["optimum"]["parameters"]["spring"].get<double>(), 4000.0);
  EXPECT_LT(s["optimum"]["value"].get<double>(), 1e-9);
  EXPECT_EQ(s["counts"]["ok"].get<int>(), 256);
  // the CSV has every objective, the status and the reason of a failure
  const std::string csv = ReadText(out + "/results.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "computationIndex,mass,spring,error,maxForce,status,reason");
}

TEST(Cli, ReferenceRunThenSweep) {
  // A user's own reference run: simulate writes the signal an objective compares with (the
  // objective is skipped with a warning while the file does not exist); the sweep against it
  // gives the example's values (the file equals Exudyn's to its 10 digits).
  const std::string dir = OutDir("reference_run");
  fs::create_directories(dir);
  fs::copy_file(Example("oscillator_variation.yaml"), dir + "/study.yaml");
  const CliRun sim = Cli({"simulate", dir + "/study.yaml", "--out", dir + "/ref"});
  ASSERT_EQ(sim.code, 0) << sim.err;
  EXPECT_NE(sim.err.find("objective 'error' not evaluated"), std::string::npos) << sim.err;
  fs::copy_file(dir + "/ref/springForce.txt", dir + "/oscillator_reference.txt");
  ASSERT_EQ(Cli({"sweep", dir + "/study.yaml", "--out", dir + "/pv", "--quiet"}).code, 0);
  const ResultsFileContents c = ReadResultsFile(dir + "/pv/results.txt");
  ASSERT_EQ(c.rows.size(), 256u);
  EXPECT_NEAR(c.rows.back().value.items[0].value, 3.8418270115351496, 3.8418270115351496 * 1e-7);
}

TEST(Cli, PlotWritesTheFiguresOfEveryObjective) {
  // The figures are drawn by plot.py (built into the program) in the Python of MBSWEEP_PYTHON:
  // the study objective's under the names of the README's quick start, the other objective's
  // under its name; stdout lists the files in the folder.
  const auto python = PlotPython();
  MBSWEEP_SKIP_WITHOUT_PLOT_PYTHON(python);
  const std::string out = OutDir("plot");
  ASSERT_EQ(Cli({"sweep", Example("oscillator_variation.yaml"), "--out", out, "--quiet"}).code, 0);
  const CliRun r = Cli({"plot", out});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string folder = fs::canonical(out).string();
  for (const char* name : {"heatmap", "value_vs_mass", "value_vs_spring", "heatmap_maxForce", "maxForce_vs_mass",
                           "maxForce_vs_spring"}) {
    const std::string png = folder + "/" + name + ".png";
    EXPECT_GT(fs::file_size(png), 10000u) << name;
    EXPECT_TRUE(HasMagic(png, "png")) << name;
    EXPECT_NE(r.out.find(png + "\n"), std::string::npos) << r.out;
  }
  // the other formats, into another folder, quietly
  for (const char* format : {"svg", "pdf"}) {
    const std::string dir = out + "/" + format;
    const CliRun f = Cli({"plot", out, "--out", dir, "--format", format, "--logx", "--logy", "--quiet"});
    ASSERT_EQ(f.code, 0) << f.err;
    EXPECT_EQ(f.out, "");
    EXPECT_TRUE(HasMagic(dir + "/heatmap." + format, format)) << format;
    EXPECT_TRUE(HasMagic(dir + "/value_vs_spring." + format, format)) << format;
  }
  EXPECT_EQ(Cli({"plot", out, "--format", "jpg"}).code, 1);  // a usage error, as before
}

TEST(Cli, PlotReadsExudynsOwnResultsFile) {
  // A 'genetic optimization' results file written by Exudyn 1.13.6 (tests/studies/data).
  const auto python = PlotPython();
  MBSWEEP_SKIP_WITHOUT_PLOT_PYTHON(python);
  const std::string out = OutDir("plot_exudyn");
  const CliRun r = Cli({"plot", MBSWEEP_TEST_DATA_DIR "/exudyn_genetic_results.txt", "--out", out});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* name : {"value_vs_mass.png", "value_vs_spring.png"})
    EXPECT_TRUE(HasMagic(out + "/" + name, "png")) << name;
}

TEST(Cli, PlotDrawsSensorFilesAndRefusesOtherFiles) {
  // A sensor file of Exudyn (the example's reference run) and a simulate run's sensors.
  const auto python = PlotPython();
  MBSWEEP_SKIP_WITHOUT_PLOT_PYTHON(python);
  const std::string out = OutDir("plot_sensor");
  ASSERT_EQ(Cli({"plot", Example("oscillator_reference.txt"), "--out", out, "-q"}).code, 0);
  EXPECT_TRUE(HasMagic(out + "/sensor_oscillator_reference.png", "png"));
  ASSERT_EQ(Cli({"simulate", Example("oscillator_variation.yaml"), "--out", out + "/sim", "-q"}).code, 0);
  ASSERT_EQ(Cli({"plot", out + "/sim", "-q"}).code, 0);
  EXPECT_TRUE(HasMagic(out + "/sim/sensor_springForce.png", "png"));
  // invalid input: exit code 2, the file and line named
  std::ofstream(out + "/bad.txt") << "# a comment\n0, 1\n0.1, x\n";
  const CliRun bad = Cli({"plot", out + "/bad.txt", "-q"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("bad.txt:3: value 1 = 'x' is not a number"), std::string::npos) << bad.err;
}

TEST(Cli, PlotWithoutItsInterpreterSaysHowToGetOne) {
  const std::string out = OutDir("plot_no_python");
  fs::create_directories(out);
  {
    const ScopedEnv missing("MBSWEEP_PYTHON", out + "/no-such-python");
    const CliRun r = Cli({"plot", MBSWEEP_TEST_DATA_DIR "/exudyn_genetic_results.txt", "--out", out});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("the interpreter '" + out + "/no-such-python' (MBSWEEP_PYTHON"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("cannot be started: No such file or directory"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("pip install matplotlib"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // one line
  }
  // a Python without site-packages: no numpy, no matplotlib
  const std::string bare = out + "/bare-python";
  std::ofstream(bare) << "#!/bin/sh\nexec python3 -S \"$@\"\n";
  fs::permissions(bare, fs::perms::owner_all);
  if (std::system("python3 -S -c pass 2>/dev/null") != 0) GTEST_SKIP() << "no python3 on PATH";
  const ScopedEnv env("MBSWEEP_PYTHON", bare);
  const CliRun r = Cli({"plot", MBSWEEP_TEST_DATA_DIR "/exudyn_genetic_results.txt", "--out", out});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("lacks numpy and matplotlib"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("-m pip install numpy matplotlib) or set MBSWEEP_PYTHON"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out + "/value_vs_mass.png"));
}

TEST(Cli, InvalidInputGivesExitCode2WithThePosition) {
  const std::string dir = OutDir("invalid");
  fs::create_directories(dir);
  const std::string file = dir + "/bad.yaml";
  std::ofstream(file) << "model:\n  - NodePoint: {name: n}\n  - ObjectMassPoint: {name: m, physicsMas: 1, nodeNumber: n}\n";
  const CliRun r = Cli({"simulate", file, "--out", dir});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.yaml:3:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unknown field 'physicsMas' of ObjectMassPoint; did you mean 'mass'?"), std::string::npos)
      << r.err;
  // a command that needs another study type
  const CliRun w = Cli({"optimize", Example("oscillator_variation.yaml"), "--out", dir});
  EXPECT_EQ(w.code, 2);
  EXPECT_NE(w.err.find("GeneticOptimization"), std::string::npos) << w.err;
  // usage errors
  EXPECT_EQ(Cli({"sweep"}).code, 1);
  EXPECT_EQ(Cli({"frobnicate"}).code, 1);
}

TEST(Cli, KilledSweepResumesToTheSameFiles) {
  // Uninterrupted, in chunks of 64 (4 chunks).
  const std::string a = OutDir("resume_a"), b = OutDir("resume_b");
  const std::string study = Example("oscillator_variation.yaml");
  ASSERT_EQ(Cli({"sweep", study, "--out", a, "--chunk", "64", "--quiet"}).code, 0);
  ASSERT_EQ(Cli({"sweep", study, "--out", b, "--chunk", "64", "--quiet"}).code, 0);
  // Simulate a kill during chunk 2: the manifest records chunks 0 and 1 only, and both
  // outputs hold a partly written chunk after them.
  {
    std::ifstream in(b + "/manifest.txt");
    std::string line, kept;
    while (std::getline(in, line))
      if (line.rfind("chunk 2 ", 0) != 0 && line.rfind("chunk 3 ", 0) != 0) kept += line + "\n";
    in.close();
    std::ofstream(b + "/manifest.txt", std::ios::trunc) << kept;
    std::ofstream(b + "/results.csv", std::ios::app) << "128,1.4,2000.0,0.5";  // torn line
  }
  const CliRun r = Cli({"sweep", study, "--out", b, "--chunk", "64", "--resume"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("256 systems (128 evaluated now)"), std::string::npos) << r.out;
  EXPECT_EQ(ReadText(b + "/results.csv"), ReadText(a + "/results.csv"));
  const std::string ta = ReadText(a + "/results.txt"), tb = ReadText(b + "/results.txt");
  // identical but for the file name in the first header line
  EXPECT_EQ(ta.substr(ta.find('\n')), tb.substr(tb.find('\n')));
  EXPECT_EQ(ReadJson(b + "/summary.json")["counts"]["ok"].get<int>(), 256);
  // a different chunk size is a different study: resuming it is refused
  const CliRun w = Cli({"sweep", study, "--out", b, "--chunk", "32", "--resume"});
  EXPECT_EQ(w.code, 2);
  EXPECT_NE(w.err.find("changed"), std::string::npos) << w.err;
}

TEST(Cli, OptimizeReproducesExudynsSliderCrankOptimum) {
  // geneticOptimizationSliderCrank with numpy's stream (seed 0): Exudyn reports
  // pOpt = {s1: -0.07497827333782427, s2: -0.14943029494085874}, vOpt = 3.431258094752888e-05.
  // The same individuals are drawn and ranked, so the optimum's parameters are bit-equal; with
  // the reference's Newton rules (same iterations) the value agrees to round-off (measured
  // 2.6e-13 relative; 1.5e-9 when the iteration counts differed).
  const std::string out = OutDir("optimize");
  const CliRun r = Cli({"optimize", Example("slidercrank_balancing.yaml"), "--out", out, "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const Json s = ReadJson(out + "/summary.json");
  EXPECT_EQ(s["optimum"]["parameters"]["s1"].get<double>(), -0.07497827333782427);
  EXPECT_EQ(s["optimum"]["parameters"]["s2"].get<double>(), -0.14943029494085874);
  EXPECT_NEAR(s["optimum"]["value"].get<double>(), 3.431258094752888e-05, 3.431258094752888e-05 * 1e-11);
  // near the analytic optimum s1 = -L1 (m2+m3)/m1, s2 = -m3/m2 L2
  EXPECT_NEAR(s["optimum"]["parameters"]["s1"].get<double>(), -0.075, 1e-4);
  EXPECT_NEAR(s["optimum"]["parameters"]["s2"].get<double>(), -0.15, 1e-3);
  EXPECT_EQ(s["evaluations"].get<int>(), 1500);  // 30 generations of 50, survivors not re-evaluated
  const ResultsFileContents c = ReadResultsFile(out + "/results.txt");
  EXPECT_EQ(c.header.fileType, "genetic optimization");
  EXPECT_EQ(c.header.parameterRanges, (std::vector<std::string>{"(-0.1, 0.1)", "(-0.3, 0.3)"}));  // str((-L1, L1))
  EXPECT_EQ(c.rows.size(), 1500u);
}

TEST(Cli, IdentifyRecoversTheOscillatorParameters) {
  // Measured files: Exudyn 1.13.6's sensor files of the true model (m = 1.6, k = 4000, f = 80),
  // 10 digits.
  // Run as the README does, from the repository root with a relative study path: the measured
  // files are relative to the study's folder (they were once resolved against it twice).
  const std::string out = OutDir("identify");
  const fs::path cwd = fs::current_path();
  fs::current_path(fs::path(MBSWEEP_EXAMPLES_DIR).parent_path().parent_path());
  const CliRun r = Cli({"identify", "studies/examples/oscillator_identification.yaml", "--out", out, "--quiet"});
  fs::current_path(cwd);
  ASSERT_EQ(r.code, 0) << r.err;
  const Json s = ReadJson(out + "/summary.json");
  const Json& p = s["optimum"]["parameters"];
  // the 10-digit rounding of the measured files limits the fit (measured: 1e-11 relative)
  EXPECT_NEAR(p["mass"].get<double>(), 1.6, 1.6e-8);
  EXPECT_NEAR(p["spring"].get<double>(), 4000, 4000e-8);
  EXPECT_NEAR(p["force"].get<double>(), 80, 80e-8);
  EXPECT_LT(s["optimum"]["value"].get<double>(), 1e-9);
  EXPECT_LT(s["optimum"]["value"].get<double>(), 1e-6 * s["genetic"]["value"].get<double>());
  ASSERT_EQ(s["channels"].size(), 2u);
  const std::string signals = ReadText(out + "/signals.csv");
  EXPECT_EQ(signals.substr(0, signals.find('\n')), "channel,time,measured,simulated");
  if (const auto python = PlotPython()) {
    ASSERT_EQ(Cli({"plot", out}).code, 0);
    for (const char* name : {"convergence.png", "signals_rms_displacement_0.png", "value_vs_force.png"})
      EXPECT_TRUE(HasMagic(out + "/" + name, "png")) << name;
  }
}

TEST(Cli, SensitivityOfTheStaticDisplacement) {
  // An over-damped oscillator settles at x = f/k: d x/d k = -f/k^2, d x/d f = 1/k, d x/d m = 0;
  // scaled by reference: -f/k = -0.02, f/k = 0.02, 0. Central differences (relStep e = 1e-3) are
  // exact for f; for k they give -f/k / (1 - e^2) exactly. The settling residue is e^-75.
  const std::string dir = OutDir("sensitivity");
  fs::create_directories(dir);
  const std::string file = MBSWEEP_TEST_DATA_DIR "/static_oscillator_sensitivity.yaml";
  const CliRun r = Cli({"sensitivity", file, "--out", dir, "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const Json s = ReadJson(dir + "/summary.json");
  EXPECT_NEAR(s["reference"]["xFinal"].get<double>(), 0.02, 1e-12);
  EXPECT_NEAR(s["sensitivity"]["k"]["xFinal"].get<double>(), -0.02 / (1 - 1e-6), 0.02 * 1e-9);
  EXPECT_NEAR(s["sensitivity"]["f"]["xFinal"].get<double>(), 0.02, 0.02 * 1e-9);
  EXPECT_NEAR(s["sensitivity"]["m"]["xFinal"].get<double>(), 0.0, 1e-10);
  // every evaluation: per parameter the reference and its two central points
  std::ifstream ev(dir + "/evaluations.csv");
  std::vector<std::string> lines;
  for (std::string l; std::getline(ev, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 1u + 3u * 3u);
  EXPECT_EQ(lines[0], "varied,value,xFinal");
  ASSERT_EQ(lines[9].rfind("f,", 0), 0u);
  const double f = std::stod(lines[9].substr(2, lines[9].rfind(',') - 2));
  EXPECT_NEAR(f, 80 * (1 + 1e-3), 1e-12);                                                // f*(1+relStep)
  EXPECT_NEAR(std::stod(lines[9].substr(lines[9].rfind(',') + 1)), f / 4000, 1e-13);  // x = f/k
  if (const auto python = PlotPython()) {
    ASSERT_EQ(Cli({"plot", dir}).code, 0);
    EXPECT_TRUE(HasMagic(dir + "/sensitivity_k_xFinal.png", "png"));
    EXPECT_TRUE(HasMagic(dir + "/tornado_xFinal.png", "png"));
  }
}

TEST(Cli, CompareNeedsAGpuAndSaysWhy) {
  const std::string out = OutDir("compare");
  const CliRun r = Cli({"compare", Example("oscillator_variation.yaml"), "--out", out, "--systems", "64"});
  if (r.code == 0) {  // a GPU is present: the report lists every objective and the speedup
    EXPECT_NE(r.out.find("error"), std::string::npos);
    EXPECT_GT(ReadJson(out + "/summary.json")["speedup"].get<double>(), 0.0);
  } else {
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("compare --against cuda needs the cuda backend"), std::string::npos) << r.err;
  }
}

// The code generated and compiled for each example's model and objectives (cpu-jit; the
// interpreter where no compiler is usable) gives the interpreter's values: compare --against
// cpu-jit on the study's first 4 points, the same statuses and values to 1e-13 relative (the
// bound of issue 16). An evaluator --against does not take is a usage error.
TEST(Cli, CompareAgainstCpuJitOnEveryExample) {
  std::string why;
  const std::string evaluators = JitCompiler(&why).empty() ? "cpu vs cpu" : "cpu vs cpu-jit";  // what ran
  int examples = 0;
  for (const auto& e : fs::directory_iterator(MBSWEEP_EXAMPLES_DIR)) {
    if (e.path().extension() != ".yaml") continue;
    ++examples;
    const std::string name = e.path().stem().string(), out = OutDir("compare_jit_" + name);
    const CliRun r =
        Cli({"compare", e.path().string(), "--against", "cpu-jit", "--systems", "4", "--out", out, "--quiet"});
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    const Json s = ReadJson(out + "/summary.json");
    EXPECT_EQ(s["backend"], evaluators) << name;
    EXPECT_TRUE(s["statusDiffers"].empty()) << name << ": " << s["statusDiffers"];
    EXPECT_GT(s["comparedSystems"].get<int>(), 0) << name;
    EXPECT_FALSE(s["deviations"].empty()) << name;
    for (const auto& [value, d] : s["deviations"].items())
      EXPECT_LE(d["maxRelDeviation"].get<double>(), 1e-13) << name << ", " << value;
  }
  EXPECT_EQ(examples, 7);
  const CliRun bad =
      Cli({"compare", Example("oscillator_variation.yaml"), "--against", "cpu", "--out", OutDir("compare_bad")});
  EXPECT_EQ(bad.code, 1);  // a usage error
  EXPECT_NE(bad.err.find("--against: cpu not in {cpu-jit,cuda,"), std::string::npos) << bad.err;
}

// --backend takes the cuBLAS baseline by name: on a GPU it runs the sweep (same optimum as the
// cpu run above), without one the error says why.
TEST(Cli, SweepOnCublasBackendRunsOrSaysWhy) {
  const std::string out = OutDir("sweep_cublas");
  const CliRun r = Cli({"sweep", Example("oscillator_variation.yaml"), "--out", out, "--backend", "cuda-cublas", "--quiet"});
  if (r.code == 0) {
    const Json s = ReadJson(out + "/summary.json");
    EXPECT_EQ(s["counts"]["ok"].get<int>(), 256);
    EXPECT_NEAR(s["optimum"]["parameters"]["mass"].get<double>(), 1.6, 1e-12);
  } else {
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("evaluator 'cuda-cublas' is not available"), std::string::npos) << r.err;
  }
}

TEST(Cli, ProgressLineShowsFractionRateAndEta) {
  EXPECT_EQ(cli::Progress::Format("sweep", 512, 1024, "systems", 2.0, 8),
            "sweep [####....]  50.0%  512/1024 systems  256 systems/s  ETA 0:02");
  EXPECT_EQ(cli::Progress::Format("optimize", 3, 0, "generations", 1.5, 8), "optimize 3 generations  2 generations/s  0:02");
  EXPECT_EQ(cli::FormatDuration(3725), "1:02:05");
  EXPECT_EQ(cli::FormatDuration(59.6), "1:00");
}

TEST(Cli, ProgressLinesWhenStderrIsNotATerminal) {
  // captured stderr is no terminal: lines (here at every update) with rate, ETA and a detail
  ::setenv("MBSWEEP_PROGRESS_SECONDS", "0", 1);
  const std::string out = OutDir("progress_lines");
  const CliRun sweep = Cli({"sweep", std::string(MBSWEEP_EXAMPLES_DIR) + "/oscillator_variation.yaml", "--out", out,
                            "--chunk", "64", "--backend", "cpu"});
  const CliRun identify = Cli({"identify", std::string(MBSWEEP_EXAMPLES_DIR) + "/oscillator_identification.yaml",
                               "--out", out + "_id", "--backend", "cpu"});
  // one chunk of 2^15 systems on one thread (about 0.7 s here): lines inside the chunk count the
  // systems finished so far
  const CliRun chunk = Cli({"sweep", Example("oscillator_sobol_scan.yaml"), "--out", out + "_chunk", "--count", "32768",
                            "--chunk", "32768", "--backend", "cpu", "--threads", "1"});
  ::unsetenv("MBSWEEP_PROGRESS_SECONDS");
  ASSERT_EQ(chunk.code, 0) << chunk.err;
  int inside = 0;
  std::istringstream lines(chunk.err);
  for (std::string line; std::getline(lines, line);) {
    const size_t slash = line.find("/32768 systems");
    if (line.rfind("sweep: ", 0) != 0 || slash == std::string::npos) continue;
    const long done = std::stol(line.substr(line.rfind(' ', slash) + 1));
    if (done > 0 && done < 32768) ++inside;
  }
  EXPECT_GE(inside, 1) << chunk.err;
  ASSERT_EQ(sweep.code, 0) << sweep.err;
  EXPECT_NE(sweep.err.find("sweep:   25.0%  64/256 systems  "), std::string::npos) << sweep.err;
  EXPECT_NE(sweep.err.find("sweep:  100.0%  256/256 systems  "), std::string::npos) << sweep.err;
  EXPECT_NE(sweep.err.find("ETA 0:00, 0 failed\n"), std::string::npos) << sweep.err;
  EXPECT_EQ(sweep.err.find('\r'), std::string::npos);  // no bar redrawn in place
  ASSERT_EQ(identify.code, 0) << identify.err;
  EXPECT_NE(identify.err.find("identify (GA):  100.0%  15/15 generations  "), std::string::npos) << identify.err;
  EXPECT_NE(identify.err.find(", best "), std::string::npos) << identify.err;
}

TEST(Cli, SobolScanMatchesSingleSimulations) {
  // The million-point example, cut to 2^10 points: every system ok, and a point of the scan
  // run alone (simulate --set: the model rebuilt at those values instead of the study's theta
  // rows) gives the same objectives.
  const std::string out = OutDir("scan");
  const CliRun r = Cli({"sweep", Example("oscillator_sobol_scan.yaml"), "--out", out, "--count", "1024", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;  // 2^10: no Sobol warning
  const Json s = ReadJson(out + "/summary.json");
  EXPECT_EQ(s["counts"]["ok"].get<int>(), 1024);
  std::ifstream csv(out + "/results.csv");
  std::string header, row;
  std::getline(csv, header);
  ASSERT_EQ(header, "computationIndex,mass,spring,damping,omega,maxDisplacement,rmsForce,status,reason");
  for (int i = 0; i <= 700; ++i) std::getline(csv, row);  // row 700
  std::vector<std::string> f;
  std::stringstream ss(row);
  for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
  ASSERT_EQ(f.size(), 8u);  // the empty reason of an ok system ends the line: getline yields no field for it
  ASSERT_EQ(f[0], "700");
  const std::string one = OutDir("scan_one");
  const CliRun sim = Cli({"simulate", Example("oscillator_sobol_scan.yaml"), "--out", one, "--set", "mass=" + f[1],
                          "--set", "spring=" + f[2], "--set", "damping=" + f[3], "--set", "omega=" + f[4]});
  ASSERT_EQ(sim.code, 0) << sim.err;
  const Json o = ReadJson(one + "/summary.json")["objectives"];
  EXPECT_NEAR(o["maxDisplacement"].get<double>(), std::stod(f[5]), 1e-12 * std::abs(std::stod(f[5])));
  EXPECT_NEAR(o["rmsForce"].get<double>(), std::stod(f[6]), 1e-12 * std::abs(std::stod(f[6])));
  // a count that is not a power of two loses Sobol's balance: warned, still run
  const CliRun w = Cli({"sweep", Example("oscillator_sobol_scan.yaml"), "--out", OutDir("scan_1000"), "--count", "1000"});
  ASSERT_EQ(w.code, 0) << w.err;
  EXPECT_NE(w.err.find("warning"), std::string::npos) << w.err;
}

// The user-function example (expressions for a spring force and a load): every system ok; the
// compiled expressions (cpu-jit, where a compiler is usable) give the interpreter's results to
// 1e-13; a grid point run alone by the reference solver (muParser) gives its objective to 1e-12.
TEST(Cli, DuffingUserFunctionsExample) {
  auto rows = [](const std::string& file) {
    std::vector<std::vector<std::string>> out;
    std::ifstream csv(file);
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line, "computationIndex,omega,k3,amplitude,status,reason");
    while (std::getline(csv, line)) {
      std::vector<std::string> f;
      std::stringstream ss(line);
      for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
      out.push_back(f);
    }
    return out;
  };
  const std::string cpu = OutDir("duffing_cpu"), jit = OutDir("duffing_jit");
  const CliRun a = Cli({"sweep", Example("duffing_user_functions.yaml"), "--out", cpu, "--backend", "cpu", "--quiet"});
  ASSERT_EQ(a.code, 0) << a.err;
  const auto interpreted = rows(cpu + "/results.csv");
  ASSERT_EQ(interpreted.size(), 200u);
  for (const auto& f : interpreted) ASSERT_EQ(f.at(4), "ok") << f.at(0);
  const CliRun b = Cli({"sweep", Example("duffing_user_functions.yaml"), "--out", jit, "--backend", "cpu-jit", "--quiet"});
  ASSERT_EQ(b.code, 0) << b.err;
  const auto compiled = rows(jit + "/results.csv");
  ASSERT_EQ(compiled.size(), interpreted.size());
  for (size_t i = 0; i < compiled.size(); ++i) {
    const double x = std::stod(interpreted[i][3]), y = std::stod(compiled[i][3]);
    EXPECT_NEAR(y, x, 1e-13 * std::abs(x)) << "system " << i;
  }
  const auto& p = interpreted[101];
  const std::string one = OutDir("duffing_one");
  const CliRun sim = Cli({"simulate", Example("duffing_user_functions.yaml"), "--out", one, "--set", "omega=" + p[1],
                          "--set", "k3=" + p[2]});
  ASSERT_EQ(sim.code, 0) << sim.err;
  const double reference = ReadJson(one + "/summary.json")["objectives"]["amplitude"].get<double>();
  EXPECT_NEAR(std::stod(p[3]), reference, 1e-12 * reference);
}

// The unbalance-response example (a rotating force as a loadVectorUserFunction): at every spin
// speed w the orbit's radius at t = 4 s is the steady amplitude U w^2 / |k - m w^2 + i d w| to
// 1e-4 relative (the integrator's error at h = 1e-4: 4.1e-5 at most; the start-up transient has
// decayed to 1e-11), and `simulate` (muParser) gives the sweep's value at w = 60.
TEST(Cli, UnbalanceResponseExample) {
  const std::string out = OutDir("unbalance");
  const CliRun a = Cli({"sweep", Example("unbalance_response.yaml"), "--out", out, "--backend", "cpu", "--quiet"});
  ASSERT_EQ(a.code, 0) << a.err;
  std::ifstream csv(out + "/results.csv");
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line, "computationIndex,w,x,y,status,reason");
  const double m = 2, k = 8000, d = 25, U = 1e-3;
  int rows = 0;
  double x60 = NAN;
  while (std::getline(csv, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    ASSERT_EQ(f.at(4), "ok") << line;
    const double w = std::stod(f[1]), x = std::stod(f[2]), y = std::stod(f[3]);
    const double amplitude = U * w * w / std::hypot(k - m * w * w, d * w);
    EXPECT_NEAR(std::hypot(x, y), amplitude, 1e-4 * amplitude) << "w = " << w;
    if (w == 60) x60 = x;
    ++rows;
  }
  EXPECT_EQ(rows, 25);
  const std::string one = OutDir("unbalance_one");
  const CliRun sim = Cli({"simulate", Example("unbalance_response.yaml"), "--out", one, "--set", "w=60"});
  ASSERT_EQ(sim.code, 0) << sim.err;
  EXPECT_NEAR(ReadJson(one + "/summary.json")["objectives"]["x"].get<double>(), x60, 1e-12 * std::abs(x60));
}

// studies/examples/progressive_strut.yaml: the payload's final sag on the progressive strut
// (a SpringDamper's springForceUserFunction) is the static deflection, the real root of
// k c dL^3 + k dL - m g = 0 (Newton's iteration here), to 1e-9 relative (measured: 1.3e-10 at
// most, the rest of the heaviest payload's transient); the largest sag is not below it (the lightest
// payload on the linear spring is overdamped and does not overshoot). The reference
// solver (muParser) gives the sweep's value at the nominal point.
TEST(Cli, ProgressiveStrutExample) {
  const std::string out = OutDir("strut");
  const CliRun a = Cli({"sweep", Example("progressive_strut.yaml"), "--out", out, "--backend", "cpu", "--quiet"});
  ASSERT_EQ(a.code, 0) << a.err;
  std::ifstream csv(out + "/results.csv");
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line, "computationIndex,m,c,sag,maxSag,status,reason");
  const double k = 20000, g = 9.81;
  int rows = 0;
  double nominal = NAN;
  while (std::getline(csv, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    ASSERT_EQ(f.at(5), "ok") << line;
    const double m = std::stod(f[1]), c = std::stod(f[2]), sag = -std::stod(f[3]), maxSag = std::stod(f[4]);
    double d = m * g / k;
    for (int i = 0; i < 60; ++i) d -= (k * c * d * d * d + k * d - m * g) / (3 * k * c * d * d + k);
    EXPECT_NEAR(sag, d, 1e-9 * d) << "m = " << m << ", c = " << c;
    EXPECT_GE(maxSag, sag) << "m = " << m << ", c = " << c;
    if (m == 250 && c == 100) nominal = -sag;
    ++rows;
  }
  EXPECT_EQ(rows, 35);
  const std::string one = OutDir("strut_one");
  const CliRun sim = Cli({"simulate", Example("progressive_strut.yaml"), "--out", one});
  ASSERT_EQ(sim.code, 0) << sim.err;
  EXPECT_NEAR(ReadJson(one + "/summary.json")["objectives"]["sag"].get<double>(), nominal, 1e-12 * std::abs(nominal));
}

TEST(Cli, KilledOptimizationResumesToTheSameResult) {
  // A small GA on the oscillator (5 generations of 12, Philox stream, seed 7), run through and
  // killed after generation 1 (the manifest and results file cut back, a torn line appended):
  // the resumed run evaluates only the remaining generations and ends with the same optimum
  // and the same results file.
  const std::string dir = OutDir("ga_resume");
  fs::create_directories(dir);
  const std::string file = dir + "/ga.yaml";
  std::ofstream(file) << R"(parameters: {m: 1.6, k: 4000}
model:
  - NodePoint: {name: node, initialVelocities: [1, 0, 0]}
  - NodePointGround: {name: ground}
  - ObjectMassPoint: {mass: m, nodeNumber: node}
  - MarkerNodeCoordinate: {name: mg, nodeNumber: ground, coordinate: 0}
  - MarkerNodeCoordinate: {name: mn, nodeNumber: node, coordinate: 0}
  - ObjectConnectorCoordinateSpringDamper: {name: spring, markerNumbers: [mg, mn], stiffness: k, damping: 8}
  - SensorObject: {name: x, objectNumber: spring, outputVariableType: Displacement}
simulationSettings: {timeIntegration: {numberOfSteps: 200, endTime: 0.5}}
objectives: {list: [{name: maxX, kind: MaxAbs, sensor: x}]}
study:
  type: GeneticOptimization
  parameters: {m: [1, 3], k: [1000, 8000]}
  populationSize: 12
  numberOfGenerations: 5
  randomizerInitialization: 7
)";
  const std::string a = dir + "/a", b = dir + "/b";
  ASSERT_EQ(Cli({"optimize", file, "--out", a, "--quiet"}).code, 0);
  ASSERT_EQ(Cli({"optimize", file, "--out", b, "--quiet"}).code, 0);
  const std::string rows = ReadText(b + "/results.txt");
  {  // keep the header and generation 0 (12 rows), then a torn line
    size_t pos = 0;
    for (int line = 0; line < 8 + 12; ++line) pos = rows.find('\n', pos) + 1;
    std::ofstream(b + "/results.txt", std::ios::trunc) << rows.substr(0, pos) << "12, 0.0";
    std::ifstream in(b + "/results.txt.manifest");
    std::string line, kept;
    while (std::getline(in, line))
      if (line.rfind("chunk ", 0) != 0 || line.rfind("chunk 0 ", 0) == 0) kept += line + "\n";
    in.close();
    std::ofstream(b + "/results.txt.manifest", std::ios::trunc) << kept;
  }
  const CliRun r = Cli({"optimize", file, "--out", b, "--resume"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("60 evaluations (48 now)"), std::string::npos) << r.out;
  const Json ja = ReadJson(a + "/summary.json"), jb = ReadJson(b + "/summary.json");
  EXPECT_EQ(ja["optimum"], jb["optimum"]);
  EXPECT_EQ(ja["bestPerGeneration"], jb["bestPerGeneration"]);
  const std::string ta = ReadText(a + "/results.txt"), tb = ReadText(b + "/results.txt");
  EXPECT_EQ(ta.substr(ta.find('\n')), tb.substr(tb.find('\n')));  // all but the file name
  EXPECT_EQ(ReadText(a + "/history.csv"), ReadText(b + "/history.csv"));
}

// mbsweep describe: the item types, and one item's fields, rules, defaults, earlier names and
// sensor outputs, from the item definitions.
TEST(Cli, DescribeItemsFromTheirDefinitions) {
  const CliRun all = Cli({"describe"});
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_EQ(all.out.rfind("nodes:\n  Node1D\n", 0), 0u) << all.out;
  EXPECT_NE(all.out.find("\n  ObjectMassPoint (MassPoint)\n"), std::string::npos);
  EXPECT_NE(all.out.find("\n  ObjectConnectorSpringDamperCubic\n"), std::string::npos);  // no short name
  const CliRun body = Cli({"describe", "RigidBody"});
  ASSERT_EQ(body.code, 0) << body.err;
  EXPECT_EQ(body.out.rfind("ObjectRigidBody (short name RigidBody)\n", 0), 0u) << body.out;
  EXPECT_NE(body.out.find("\n  mass          Real                  UReal (must be >= 0)   0\n"), std::string::npos)
      << body.out;
  EXPECT_NE(body.out.find("\n  centerOfMass  Vector3D              Real (must be finite)  [0, 0, 0]\n"),
            std::string::npos);
  EXPECT_NE(body.out.find("\n  physicsInertia: read as inertia\n"), std::string::npos);
  EXPECT_NE(body.out.find("\nSensorBody outputVariableType: Position, Displacement, Velocity"), std::string::npos);
  EXPECT_EQ(Cli({"describe", "ObjectRigidBody"}).out, body.out);
  const CliRun bad = Cli({"describe", "MasPoint"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, "error: describe: 'MasPoint' is not an item type; did you mean 'MassPoint'? (mbsweep describe "
                     "lists them)\n");
}

// mbsweep compile: the study's model compiled into the cache of compiled models before any run;
// the next process finds it there, and so does a sweep on cpu-jit (compiled for the same
// objectives: no other shared object appears). Without a GPU, `auto` runs a short sweep on the
// interpreter before and on the compiled model after (summary.json's backend). An architecture
// NVRTC does not compile for is refused before anything compiles; a known one gives the kernel
// with ptxas's figures (the oscillator's kernel does not spill: bench/kernel_resources).
TEST(Cli, CompileFillsTheCacheOfCompiledModels) {
  const std::string cache = OutDir("compile_cache"), study = Example("oscillator_variation.yaml");
  ::setenv("MBSWEEP_JIT_CACHE", cache.c_str(), 1);
  const bool gpu = CudaAvailable();
  // what `auto` runs the study's sweep on; the compiled models in the cache after it
  auto autoSweep = [&](const std::string& name) {
    const std::string out = OutDir(name);
    const CliRun r = CliInChild({"sweep", study, "--backend", "auto", "--out", out, "--quiet"});
    EXPECT_EQ(r.code, 0) << r.err;
    // results.txt is written before the first batch: without a GPU, what runs is not decided yet
    const std::string mode = gpu ? "(processing=mbsweep cuda)" : "(processing=mbsweep auto)";
    EXPECT_NE(ReadText(out + "/results.txt").find(mode), std::string::npos) << mode;
    return ReadJson(out + "/summary.json")["backend"].get<std::string>();
  };
  auto libraries = [&cache] {
    std::vector<std::string> found;
    if (!fs::is_directory(cache)) return found;
    for (const auto& e : fs::directory_iterator(cache))
      if (e.path().extension() == ".so") found.push_back(e.path().string());
    return found;
  };
  if (!gpu) {
    EXPECT_EQ(autoSweep("auto_before_compile"), "cpu");
    EXPECT_EQ(libraries(), std::vector<std::string>{});
  }
  const CliRun first = CliInChild({"compile", study}), second = CliInChild({"compile", study});
  const std::string head =
      "model of " + study + ": 3 unknowns, 2 objectives, GeneralizedAlpha; cache " + cache + "\n";
  EXPECT_EQ(first.out.rfind(head, 0), 0u) << first.out;
  EXPECT_EQ(second.out.rfind(head, 0), 0u) << second.out;
  // the line of a run's output that starts with `prefix` ("" if none), and what follows " s: "
  auto lineOf = [](const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.rfind(prefix, 0) == 0) return line;
    return std::string();
  };
  auto fileOf = [](const std::string& line) {
    const size_t at = line.find(" s: ");
    return at == std::string::npos ? std::string() : line.substr(at + 4);
  };
  std::string why;
  if (JitCompiler(&why).empty()) {
    EXPECT_EQ(first.code, 3);
    EXPECT_NE(lineOf(first.out, "cpu-jit      failed: "), "") << first.out;
  } else {
    ASSERT_EQ(first.code, 0) << first.err << first.out;
    ASSERT_EQ(second.code, 0) << second.err << second.out;
    const std::string a = lineOf(first.out, "cpu-jit "), b = lineOf(second.out, "cpu-jit ");
    EXPECT_EQ(a.rfind("cpu-jit      compiled in ", 0), 0u) << first.out;
    EXPECT_EQ(b.rfind("cpu-jit      found in the cache in ", 0), 0u) << second.out;
    const std::string file = fileOf(a);
    EXPECT_EQ(file.rfind(cache + "/model-", 0), 0u) << a;
    EXPECT_EQ(file.substr(file.size() - 3), ".so");
    EXPECT_EQ(fileOf(b), file);
    EXPECT_TRUE(std::filesystem::is_regular_file(file));
    const CliRun sweep =
        CliInChild({"sweep", study, "--backend", "cpu-jit", "--out", OutDir("compile_then_sweep"), "--quiet"});
    ASSERT_EQ(sweep.code, 0) << sweep.err;
    EXPECT_EQ(libraries(), std::vector<std::string>{file});
    EXPECT_EQ(autoSweep("auto_after_compile"), gpu ? "cuda" : "cpu-jit");
  }

  const CliRun bad = Cli({"compile", study, "--arch", "sm_1"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.out, "");
  const bool cuda = bad.err.find("error: --arch sm_1: NVRTC ") == 0;
  if (cuda) {
    EXPECT_NE(bad.err.find(" does not compile for it (valid: "), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("sm_90"), std::string::npos) << bad.err;
    const CliRun kernel = Cli({"compile", study, "--arch", "sm_90", "--arch", "sm_80"});
    EXPECT_EQ(kernel.code, 0) << kernel.err << kernel.out;
    const std::string k = lineOf(kernel.out, "cuda sm_90   "), k80 = lineOf(kernel.out, "cuda sm_80   ");
    // the targets compile at once; their lines come in the order of the command line
    const size_t cpuAt = kernel.out.find("\ncpu-jit "), at90 = kernel.out.find("\ncuda sm_90   "),
                 at80 = kernel.out.find("\ncuda sm_80   ");
    EXPECT_LT(cpuAt, at90) << kernel.out;
    EXPECT_LT(at90, at80) << kernel.out;
    EXPECT_NE(at80, std::string::npos) << kernel.out;
    EXPECT_EQ(fileOf(k).rfind(cache + "/cuda-", 0), 0u) << kernel.out;
    EXPECT_EQ(fileOf(k80).rfind(cache + "/cuda-", 0), 0u) << kernel.out;
    EXPECT_NE(fileOf(k80), fileOf(k)) << kernel.out;
    const std::string details = lineOf(kernel.out, std::string(13, ' '));
    EXPECT_GT(std::atoi(details.c_str()), 0) << kernel.out;  // its registers
    EXPECT_NE(details.find(" registers, "), std::string::npos) << kernel.out;
    EXPECT_NE(details.find(" B stack, 0 B spill stores per thread; cuda and cuda-thread run it"), std::string::npos)
        << kernel.out;
  } else {
    EXPECT_EQ(bad.err, "error: --arch sm_1: this build has no CUDA backend (configured without a CUDA compiler)\n");
  }
}

}  // namespace
}  // namespace mbsweep
