// mbsweep_bench_models <model> <solver> <steps> [endTime] [setting=value ...] [batch=N]
// settings: spectralRadius, useModifiedNewton (0/1), relativeTolerance, absoluteTolerance,
// weightTolerancePerCoordinate (0/1) (timeIntegration.generalizedAlpha / .newton), for the
// implicit cases.
// batch=N: then, in the same run and with the same rule, N copies of the same system on the
// batch evaluators `cpu` (the interpreter) and `cpu-jit` (compiled for the model; compilation
// excluded), one thread, no objectives; adds per evaluator the system-steps per second, their
// ratio to the reference's steps per second (per core), and system 0's Newton iterations and
// Jacobian updates ({"batch":N,"cpu":{...},"cpu-jit":{...}}).
// Runs one benchmark model with the CPU reference solver (no sensors, sensorsWritePeriod =
// endTime), the best of repeated timed SolveDynamic calls from the initial state (std::chrono::
// steady_clock; model compilation excluded): until they have taken 0.25 s, at least 3 and at
// most 200 calls (the rule of bench/compare_exudyn.py's Exudyn side), and prints one JSON line:
// {"model":..,"solver":..,"steps":..,"endTime":..,"seconds":..,"steps_per_second":..,
//  "cpu_seconds":..,"final_q0":..,"newton_iterations":..,"jacobian_updates":..}
// cpu_seconds is the best process CPU time of the same runs (less sensitive to a loaded
// machine than the wall-clock seconds).
// Used by bench/compare_exudyn.py.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <limits>
#include <ctime>
#include <string>

#include "bench/models.h"
#include "common/layout_records.h"
#include "common/objectives_host.h"
#include "common/parameters.h"
#include "cpu/evaluator_cpu.h"
#include "cpu/jit.h"
#include "cpu/simulation.h"

namespace {

constexpr double kMinSeconds = 0.25;  ///< the solves of one run take at least this long in all
constexpr int kMinSolves = 3, kMaxSolves = 200;

/// Parses a whole argument as a number; throws std::invalid_argument naming it otherwise.
template <class T, class F>
T ParseWhole(const char* what, const char* text, F convert) {
  std::size_t pos = 0;
  T value{};
  try {
    value = convert(std::string(text), &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  if (pos == 0 || pos != std::string(text).size())
    throw std::invalid_argument(std::string(what) + " must be a number, got '" + text + "'");
  return value;
}

int Usage(const char* argv0) {
  std::string models;
  for (const auto& m : mbsweep::bench::BenchModels()) models += std::string(models.empty() ? "" : ", ") + m.name;
  std::fprintf(stderr,
               "usage: %s <model> <solver> <steps> [endTime] [setting=value ...]\n"
               "  model:  %s\n"
               "  solver: a DynamicSolverType name (ExplicitEuler, RK44, ...)\n"
               "  steps:  number of time steps (> 0)\n"
               "  endTime: simulated time in s (default per model)\n"
               "  settings: spectralRadius, useModifiedNewton, relativeTolerance, absoluteTolerance,\n"
               "            weightTolerancePerCoordinate\n",
               argv0, models.c_str());
  return 2;
}

/// The batch=N part: N copies of the reference's system on `cpu` and `cpu-jit`, one thread; one
/// objective, the final value of q[0] (the first coordinate of the first node with coordinates; a
/// sensor added for it, sampled at the end only, as the reference writes its sensors).
void BatchSideBySide(const std::string& modelName, const mbsweep::SimulationSettings& s,
                     mbsweep::DynamicSolverType solver, int n, double referenceStepsPerSecond) {
  using namespace mbsweep;
  Model model = bench::BuildBenchModel(modelName);
  const Layout plain = model.Compile();
  int node = 0;
  while (GetNodeRecord(plain.View(), node).nODE2 == 0) ++node;
  SensorNode sensor;
  sensor.nodeNumber = NodeIndex(node);
  sensor.outputVariableType = OutputVariableType::Coordinates;
  sensor.writeToFile = false;
  const int sensorIndex = model.AddSensor(sensor).value;
  const Layout layout = model.Compile();
  const std::vector<Real> theta0 = model.Theta0();
  ParameterMap map(layout, theta0);
  map.SetParameters({"p"});  // theta slot 0 at its nominal value: every system is the reference's
  map.Bind(layout.thetaPaths[0], "p");
  ObjectiveSetDescription d;
  ObjectiveDescription o;
  o.kind = "FinalValue";
  o.sensor = sensorIndex;
  d.objectives = {o};
  d.samplePeriod = s.timeIntegration.endTime;
  const BatchProblem p = MakeBatch(layout, map, std::vector<Real>(static_cast<size_t>(n), theta0[0]), solver, s,
                                   BuildObjectives(d, layout, theta0));
  std::printf(",\"batch\":%d", n);
  for (const char* name : {"cpu", "cpu-jit"}) {
    std::unique_ptr<Evaluator> ev = std::string(name) == "cpu" ? CreateCpuEvaluator({1}) : CreateCpuJitEvaluator({1});
    BatchResult r = ev->Evaluate(p);  // compiles cpu-jit's model; not timed
    double best = std::numeric_limits<double>::infinity(), total = 0;
    for (int k = 0; k < kMaxSolves && (k < kMinSolves || total < kMinSeconds); ++k) {
      r = ev->Evaluate(p);
      best = std::min(best, r.seconds);
      total += r.seconds;
    }
    const double perSecond = static_cast<double>(r.info[0].steps) * n / best;
    std::printf(",\"%s\":{\"backend\":\"%s\",\"system_steps_per_second\":%.9g,\"over_reference\":%.4f,"
                "\"final_q0\":%.17g,\"newton_iterations\":%d,\"jacobian_updates\":%d}",
                name, r.backend.c_str(), perSecond, perSecond / referenceStepsPerSecond, r.values[0],
                r.info[0].newtonIterations, r.info[0].jacobianUpdates);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mbsweep;
  if (argc < 4) return Usage(argv[0]);
  try {
    const std::string modelName = argv[1];
    const DynamicSolverType solver = ParseDynamicSolverType(argv[2]);
    const long long stepsArg = ParseWhole<long long>(
        "steps", argv[3], [](const std::string& t, std::size_t* p) { return std::stoll(t, p); });
    if (stepsArg <= 0 || stepsArg > std::numeric_limits<int>::max())
      throw std::invalid_argument(std::string("steps must be an integer in [1, 2^31-1], got '") + argv[3] + "'");
    const int steps = static_cast<int>(stepsArg);
    double endTime = bench::DefaultEndTime(modelName);
    int firstSetting = 4;
    if (argc >= 5 && std::string(argv[4]).find('=') == std::string::npos) {
      firstSetting = 5;
      endTime = ParseWhole<double>("endTime", argv[4], [](const std::string& t, std::size_t* p) { return std::stod(t, p); });
      if (!(endTime > 0)) throw std::invalid_argument(std::string("endTime must be > 0, got '") + argv[4] + "'");
    }

    Simulation sim(bench::BuildBenchModel(modelName));
    int batchSystems = 0;
    SimulationSettings s;
    s.timeIntegration.endTime = endTime;
    s.timeIntegration.numberOfSteps = steps;
    s.solutionSettings.sensorsWritePeriod = endTime;
    for (int a = firstSetting; a < argc; ++a) {
      const std::string kv = argv[a];
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) throw std::invalid_argument("expected setting=value, got '" + kv + "'");
      const std::string key = kv.substr(0, eq);
      const double value = std::stod(kv.substr(eq + 1));
      auto& ti = s.timeIntegration;
      if (key == "spectralRadius") ti.generalizedAlpha.spectralRadius = value;
      else if (key == "useModifiedNewton") ti.newton.useModifiedNewton = value != 0;
      else if (key == "relativeTolerance") ti.newton.relativeTolerance = value;
      else if (key == "absoluteTolerance") ti.newton.absoluteTolerance = value;
      else if (key == "weightTolerancePerCoordinate") ti.newton.weightTolerancePerCoordinate = value != 0;
      else if (key == "batch") batchSystems = static_cast<int>(value);
      else throw std::invalid_argument("unknown setting '" + key + "'");
    }

    double best = std::numeric_limits<double>::infinity(), bestCpu = best;
    double total = 0;
    for (int r = 0; r < kMaxSolves && (r < kMinSolves || total < kMinSeconds); ++r) {
      const std::clock_t c0 = std::clock();
      const auto t0 = std::chrono::steady_clock::now();
      sim.SolveDynamic(s, solver);
      const auto t1 = std::chrono::steady_clock::now();
      const std::clock_t c1 = std::clock();
      const double seconds = std::chrono::duration<double>(t1 - t0).count();
      best = std::min(best, seconds);
      total += seconds;
      bestCpu = std::min(bestCpu, static_cast<double>(c1 - c0) / CLOCKS_PER_SEC);
    }
    const double q0 = sim.State().q.empty() ? 0.0 : sim.State().q[0];
    std::printf(
        "{\"model\":\"%s\",\"solver\":\"%s\",\"steps\":%d,\"endTime\":%.17g,\"seconds\":%.9g,"
        "\"steps_per_second\":%.9g,\"cpu_seconds\":%.9g,\"final_q0\":%.17g,\"newton_iterations\":%d,"
        "\"jacobian_updates\":%d",
        modelName.c_str(), DynamicSolverTypeName(solver), steps, endTime, best, steps / best, bestCpu, q0,
        sim.Statistics().newtonIterations, sim.Statistics().jacobianUpdates);
    if (batchSystems > 0) BatchSideBySide(modelName, s, solver, batchSystems, steps / best);
    std::printf("}\n");
    return 0;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "mbsweep_bench_models: %s\n", e.what());
    return Usage(argv[0]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbsweep_bench_models: %s\n", e.what());
    return 1;
  }
}
