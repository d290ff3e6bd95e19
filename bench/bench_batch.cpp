// Batch throughput: system-steps per second and systems per second versus batch size for
// each evaluator (cpu; when built with CUDA and a device is present: cuda with its automatic
// kernel mapping, cuda-thread and cuda-warp with the thread- or warp-per-system kernel
// forced, cuda-interp and cuda-interp-thread with the interpreter's kernels instead of the
// generated ones (compiled before the timed batches), and the cuBLAS baseline cuda-cublas;
// cuda-warp and cuda-cublas run
// generalized-alpha models only), for the 1-DOF oscillator (generalized-alpha, and RK44 as
// oscillator-rk44), the 2D slider-crank (index 2, 21 unknowns) and the 3D Euler-parameter
// pendulum chain (generalized-alpha, 33 unknowns), plus Newton iterations and Jacobian updates
// per step, device memory per system and the kernel mapping each cuda evaluator ran. Prints a
// table and, with --json FILE, JSON lines.
//
//   bench_batch [--sizes 1,10,100,...] [--models oscillator,oscillator-rk44,slidercrank,chain3d]
//               [--evaluators cpu,cpu-jit,cuda,cuda-thread,cuda-warp,cuda-interp,cuda-interp-thread,cuda-cublas]
//               [--budget SECONDS] [--threads N]
//               [--json FILE]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench/models.h"
#include "common/batch.h"
#include "common/explicit_rk.h"
#include "cpu/jit.h"
#ifdef MBSWEEP_HAVE_CUDA
#include "cuda/evaluator_cuda.h"
#endif

using namespace mbsweep;

namespace {

struct Case {
  std::string model;
  Model built;
  Layout layout;
  std::vector<Real> theta0;
  SimulationSettings settings;
  DynamicSolverType solver = DynamicSolverType::GeneralizedAlpha;
  std::vector<std::string> parameterNames;
  std::vector<std::pair<std::string, std::string>> definitions;  // path = expression
  std::vector<std::pair<Real, Real>> ranges;                      // per parameter
  int sensor = 0;
  int component = 0;
};

Case MakeCase(const std::string& name) {
  Case c;
  c.model = name;
  if (name == "oscillator" || name == "oscillator-rk44") {
    c.built = bench::BuildOscillator();
    if (name == "oscillator-rk44") c.solver = DynamicSolverType::RK44;
    SensorNode s;
    s.nodeNumber = NodeIndex(0);
    s.outputVariableType = OutputVariableType::Displacement;
    s.writeToFile = false;
    c.sensor = c.built.AddSensor(s).value;
    c.settings.timeIntegration.numberOfSteps = 1000;
    c.settings.timeIntegration.endTime = 1;
    c.parameterNames = {"k"};
    c.definitions = {{"spring.stiffness", "k"}};
    c.ranges = {{2000, 8000}};
  } else if (name == "slidercrank") {
    c.built = bench::BuildSliderCrank();
    c.settings.timeIntegration.numberOfSteps = 1500;
    c.settings.timeIntegration.endTime = 3;
    c.settings.timeIntegration.newton.useModifiedNewton = true;
    c.settings.timeIntegration.newton.absoluteTolerance = 1e-8;
    c.solver = DynamicSolverType::TrapezoidalIndex2;
    c.parameterNames = {"s1", "s2"};
    c.definitions = {{"crankNode.referenceCoordinates[0]", "s1"}, {"crankLeft.localPosition[0]", "-s1"},
                     {"crankRight.localPosition[0]", "0.1-s1"},  {"rodNode.referenceCoordinates[0]", "0.1+s2"},
                     {"rodLeft.localPosition[0]", "-s2"},        {"rodRight.localPosition[0]", "0.3-s2"}};
    c.ranges = {{-0.1, 0.1}, {-0.3, 0.3}};
  } else if (name == "chain3d") {
    c.built = bench::BuildPendulumChain3D();
    SensorBody s;
    s.bodyNumber = ObjectIndex(1);
    s.outputVariableType = OutputVariableType::Position;
    s.writeToFile = false;
    c.sensor = c.built.AddSensor(s).value;
    c.component = 1;
    c.settings.timeIntegration.numberOfSteps = 1000;
    c.settings.timeIntegration.endTime = 1;
    c.parameterNames = {"m"};
    c.definitions = {{"link0.mass", "m"}};
    c.ranges = {{0.5, 2.0}};
  } else {
    throw std::invalid_argument("unknown model '" + name + "' (oscillator, oscillator-rk44, slidercrank, chain3d)");
  }
  c.settings.solutionSettings.sensorsWritePeriod = 0.01;
  c.layout = c.built.Compile();
  c.theta0 = c.built.Theta0();
  return c;
}

BatchProblem MakeProblem(const Case& c, int n) {
  ParameterMap map(c.layout, c.theta0);
  map.SetParameters(c.parameterNames);
  for (const auto& [path, expr] : c.definitions) map.Define(path, expr);
  std::vector<Real> params;
  const size_t np = c.parameterNames.size();
  for (int i = 0; i < n; ++i)
    for (size_t k = 0; k < np; ++k) {  // deterministic low-discrepancy fill of the box
      const double u = std::fmod(0.5 + (i + 1) * (k == 0 ? 0.6180339887498949 : 0.7548776662466927), 1.0);
      params.push_back(c.ranges[k].first + u * (c.ranges[k].second - c.ranges[k].first));
    }
  ObjectiveSetDescription d;
  ObjectiveDescription o1, o2;
  o1.kind = "MaxAbs";
  o1.sensor = c.sensor;
  o1.component = c.component;
  o2.kind = "MaxAbs";
  o2.sensor = c.sensor;
  o2.component = c.model == "slidercrank" ? 1 : c.component;
  d.objectives = {o1, o2};
  d.samplePeriod = c.settings.solutionSettings.sensorsWritePeriod;
  d.weightedSum = true;
  return MakeBatch(c.layout, map, params, c.solver, c.settings, BuildObjectives(d, c.layout, c.theta0));
}

/// Command-line options.
struct Options {
  std::vector<int> sizes{1, 10, 100, 1000, 10000, 100000, 1000000};
  std::vector<std::string> models{"oscillator", "oscillator-rk44", "slidercrank", "chain3d"},
      evaluators{"cpu", "cpu-jit", "cuda", "cuda-thread", "cuda-warp", "cuda-cublas"};
  double budget = 20;
  int threads = 0;
  std::string json;
};

/// Parses the command line into o; false (after printing the usage) for an unknown option.
bool ParseOptions(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument("missing value after " + a);
      return argv[++i];
    };
    if (a == "--sizes") {
      o.sizes.clear();
      for (const auto& s : bench::SplitList(next())) o.sizes.push_back(std::stoi(s));
    } else if (a == "--models") o.models = bench::SplitList(next());
    else if (a == "--evaluators") o.evaluators = bench::SplitList(next());
    else if (a == "--budget") o.budget = std::stod(next());
    else if (a == "--threads") o.threads = std::stoi(next());
    else if (a == "--json") o.json = next();
    else {
      std::fprintf(stderr, "usage: bench_batch [--sizes 1,10,...] [--models oscillator,oscillator-rk44,slidercrank,chain3d] "
                           "[--evaluators cpu,cpu-jit,cuda,cuda-thread,cuda-warp,cuda-interp,cuda-interp-thread,cuda-cublas] [--budget SECONDS] [--threads N] "
                           "[--json FILE]\n");
      return false;
    }
  }
  return true;
}

/// True for the fused CUDA evaluators (the ones with a kernel mapping).
bool IsFused(const std::string& ev) {
  return ev == "cuda" || ev == "cuda-thread" || ev == "cuda-warp" || ev == "cuda-interp" || ev == "cuda-interp-thread";
}

/// Why evaluator `ev` cannot run case c ("" if it can). For a fused CUDA evaluator also sets
/// `mapping`, the kernel mapping it runs, and `automatic`, the one "cuda" would choose.
std::string SkipReason(const Case& c, const std::string& ev, std::string& mapping, std::string& automatic) {
  std::string why;
  const bool fused = IsFused(ev);
  if ((fused || ev == "cuda-cublas") && !CudaAvailable(&why)) return why;
  if (ev == "cuda-cublas" && IsExplicitSolverType(c.solver)) return "the cuBLAS baseline runs generalized-alpha only";
  mapping = automatic = "-";
#ifdef MBSWEEP_HAVE_CUDA
  if (fused) {
    const KernelMapping requested = ev == "cuda-thread" || ev == "cuda-interp-thread" ? KernelMapping::threadPerSystem
                                    : ev == "cuda-warp" ? KernelMapping::warpPerSystem
                                                        : KernelMapping::automatic;
    const int capacity = PlanDeviceMemory(MakeProblem(c, 1)).capacity;
    const bool explicitSolver = IsExplicitSolverType(c.solver);
    try {
      automatic = KernelMappingName(ChooseKernelMapping(capacity, explicitSolver));
      mapping = KernelMappingName(ChooseKernelMapping(capacity, explicitSolver, requested));
    } catch (const ValidationError& e) {
      return e.what();
    }
  }
#endif
  return "";
}

/// Runs evaluator `ev` on case c for each batch size whose predicted time stays within the
/// budget: one table line, and one JSON line if `out` is open, per size.
void RunSizes(const Case& c, const std::string& name, const std::string& ev, const std::string& mapping,
              const std::string& automatic, const Options& o, std::ofstream& out) {
  EvaluatorOptions eo;
  eo.threads = o.threads;
  auto evaluator = CreateEvaluator(ev, eo);
  if (ev == "cpu-jit") {  // compiled (or found in the cache) before the timed batches
    static std::set<std::string> reported;  // a model shared by two cases is compiled once
    std::string why;
    const auto model = CompileModel(c.layout, MakeProblem(c, 1).objectives.set.count, &why);
    if (!model) std::printf("%-15s %-11s runs the interpreter: %s\n", name.c_str(), ev.c_str(), why.c_str());
    else if (reported.insert(model->key).second)
      std::printf("%-15s %-11s model %s: %s %.3g s\n", name.c_str(), ev.c_str(), model->key.c_str(),
                  model->cacheHit ? "found in the disk cache, generated and loaded in" : "generated, compiled and loaded in",
                  model->cacheHit ? model->loadSeconds : model->compileSeconds);
  }
  if (IsFused(ev)) {  // the device's context and the generated kernel's compilation before the timed batches
    const BatchResult warm = evaluator->Evaluate(MakeProblem(c, 1));
    std::printf("%-15s %-11s first batch (context, kernel compiled or found in the cache): %.3g s\n", name.c_str(),
                ev.c_str(), warm.seconds);
  }
  double lastPerSystem = 0;
  for (int n : o.sizes) {
    if (lastPerSystem > 0 && lastPerSystem * n > o.budget) {
      std::printf("%-15s %-11s %9d skipped (predicted %.0f s > budget %.0f s)\n", name.c_str(), ev.c_str(), n,
                  lastPerSystem * n, o.budget);
      continue;
    }
    const BatchProblem p = MakeProblem(c, n);
    const BatchResult r = evaluator->Evaluate(p);
    double steps = 0, newton = 0, jacobians = 0;
    for (const SolveInfo& info : r.info) {
      steps += info.steps;
      newton += info.newtonIterations;
      jacobians += info.jacobianUpdates;
    }
    const int ok = r.CountStatus(SolveStatus::ok);
    size_t devBytes = 0;
#ifdef MBSWEEP_HAVE_CUDA
    if (IsFused(ev)) devBytes = PlanDeviceMemory(p).globalBytesPerSystem;
    if (ev == "cuda-cublas") devBytes = CublasBytesPerSystem(p);
#endif
    lastPerSystem = r.seconds / n;
    std::printf("%-15s %-11s %9d %8d %12.4f %14.4e %12.4e %8d %6.2f %6.3f %10zu %s\n", name.c_str(), ev.c_str(), n,
                p.settings.timeIntegration.numberOfSteps, r.seconds, steps / r.seconds, n / r.seconds, ok,
                newton / steps, jacobians / steps, devBytes, mapping.c_str());
    std::fflush(stdout);
    if (out)
      out << "{\"model\":\"" << name << "\",\"evaluator\":\"" << ev << "\",\"systems\":" << n
          << ",\"stepsPerSystem\":" << p.settings.timeIntegration.numberOfSteps << ",\"seconds\":" << r.seconds
          << ",\"systemStepsPerSecond\":" << steps / r.seconds << ",\"systemsPerSecond\":" << n / r.seconds
          << ",\"ok\":" << ok << ",\"newtonPerStep\":" << newton / steps
          << ",\"jacobiansPerStep\":" << jacobians / steps << ",\"deviceBytesPerSystem\":" << devBytes
          << ",\"mapping\":\"" << mapping << "\",\"automaticMapping\":\"" << automatic << "\"}\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!ParseOptions(argc, argv, o)) return 2;
  std::ofstream out;
  if (!o.json.empty()) out.open(o.json);
  std::printf("%-15s %-11s %9s %8s %12s %14s %12s %8s %6s %6s %10s %s\n", "model", "eval", "systems", "steps",
              "seconds", "sys-steps/s", "systems/s", "ok", "newton", "jac", "dev B/sys", "mapping");
  for (const auto& name : o.models) {
    const Case c = MakeCase(name);
    for (const auto& ev : o.evaluators) {
      std::string mapping, automatic;  // the kernel mapping run, and the one "cuda" would choose
      const std::string skip = SkipReason(c, ev, mapping, automatic);
      if (!skip.empty()) {
        std::printf("%-15s %-11s skipped: %s\n", name.c_str(), ev.c_str(), skip.c_str());
        continue;
      }
      RunSizes(c, name, ev, mapping, automatic, o, out);
    }
  }
  return 0;
}
