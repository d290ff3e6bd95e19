// Single-system throughput of the CPU reference solver: items_per_second is integration
// steps per second (one SolveDynamic per iteration, no sensors, sensorsWritePeriod =
// endTime). Model compilation is outside the timed loop.
#include <benchmark/benchmark.h>

#include "bench/models.h"
#include "cpu/simulation.h"

namespace mbsweep::bench {
namespace {

void RunSolve(benchmark::State& state, const char* model, DynamicSolverType solver) {
  const int steps = static_cast<int>(state.range(0));
  Simulation sim(BuildBenchModel(model));
  SimulationSettings s;
  s.timeIntegration.endTime = DefaultEndTime(model);
  s.timeIntegration.numberOfSteps = steps;
  s.solutionSettings.sensorsWritePeriod = s.timeIntegration.endTime;
  for (auto _ : state) {
    sim.SolveDynamic(s, solver);
    benchmark::DoNotOptimize(sim.State().q.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(steps));
  state.counters["final_q0"] = sim.State().q.at(0);
}

void BM_Oscillator_ExplicitEuler(benchmark::State& state) {
  RunSolve(state, "oscillator", DynamicSolverType::ExplicitEuler);
}
void BM_Oscillator_RK44(benchmark::State& state) { RunSolve(state, "oscillator", DynamicSolverType::RK44); }
void BM_Chain50_RK44(benchmark::State& state) { RunSolve(state, "chain50", DynamicSolverType::RK44); }

BENCHMARK(BM_Oscillator_ExplicitEuler)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Oscillator_RK44)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain50_RK44)->Arg(2000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mbsweep::bench

BENCHMARK_MAIN();
