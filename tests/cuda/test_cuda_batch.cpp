// CUDA evaluators: the fused kernels and the cuBLAS batched-factorization baseline
// (cuda-cublas) reproduce the CPU batch runner on the same batch, chunking does not change
// results, per-system statuses propagate. Tests that need a device skip when
// none is usable; the factory and memory-plan tests run everywhere.
#include <gtest/gtest.h>

#include <cmath>

#include "common/creators.h"
#include "tests/cpu/test_util.h"
#include "cuda/evaluator_cuda.h"
#include "studies/evaluators.h"

namespace mbsweep {
namespace {

using Fixture = test::BatchFixture;
constexpr auto Pendulum = test::PendulumBatchFixture;

BatchProblem Grid(const Fixture& f, int n, bool withFailures) {
  ParameterMap map(f.layout, f.theta0);
  map.SetParameters({"m", "k"});
  map.Bind("bob.physicsMass", "m");
  map.Bind("spring.stiffness", "k");
  std::vector<Real> params;
  for (int i = 0; i < n; ++i) params.insert(params.end(), {0.5 + 0.01 * i, 10.0 + i});
  if (withFailures) {
    params[2] = -1;     // system 1: negative mass -> invalid_parameter
    params[7] = 1e12;   // system 3: absurd stiffness -> Newton failure with few iterations
  }
  SimulationSettings s;
  s.timeIntegration.endTime = 0.5;
  s.timeIntegration.numberOfSteps = 100;
  s.timeIntegration.newton.maxIterations = withFailures ? 4 : 25;
  s.timeIntegration.adaptiveStep = !withFailures;
  s.solutionSettings.sensorsWritePeriod = 0;
  return MakeBatch(f.layout, map, params, DynamicSolverType::GeneralizedAlpha, s, test::PendulumBatchObjectives(f));
}

#define REQUIRE_CUDA()                                       \
  do {                                                       \
    std::string why;                                         \
    if (!CudaAvailable(&why)) GTEST_SKIP() << why;           \
  } while (0)

// Same batch on cpu and cuda: equal statuses and values to 1e-10 relative (the device
// contracts multiply-adds into FMAs, so results agree to round-off, not bitwise).
TEST(CudaBatch, KernelMatchesCpuRunner) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  const BatchProblem p = Grid(f, 1000, false);
  const BatchResult cpu = CreateEvaluator("cpu")->Evaluate(p);
  const BatchResult gpu = CreateEvaluator("cuda")->Evaluate(p);
  const BatchComparison c = CompareBatchResults(cpu, gpu);
  EXPECT_TRUE(c.statusDiffers.empty());
  EXPECT_EQ(c.comparedSystems, 1000);
  for (Real d : c.maxRelDeviation) EXPECT_LT(d, 1e-10);
}

// Splitting the batch into chunks of 7 systems gives bitwise the same results.
TEST(CudaBatch, ChunkingDoesNotChangeResults) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  const BatchProblem p = Grid(f, 100, false);
  EvaluatorOptions small;
  small.maxChunkSystems = 7;
  const BatchResult a = CreateEvaluator("cuda")->Evaluate(p);
  const BatchResult b = CreateEvaluator("cuda", small)->Evaluate(p);
  EXPECT_EQ(a.values, b.values);
}

// Decimated signals from the kernel equal the CPU runner's (rows, counts and values to 1e-10,
// NaN where nothing was recorded), also across chunk boundaries and for an invalid system.
TEST(CudaBatch, SignalsMatchCpuRunner) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  BatchProblem p = Grid(f, 50, true);
  RequestSignals(p, 16);
  EvaluatorOptions small;
  small.maxChunkSystems = 7;
  const BatchResult cpu = CreateEvaluator("cpu")->Evaluate(p);
  const BatchResult gpu = CreateEvaluator("cuda", small)->Evaluate(p);
  EXPECT_EQ(cpu.signalCount, gpu.signalCount);
  EXPECT_EQ(gpu.signalCount[1], 0);
  const BatchComparison c = CompareBatchResults(cpu, gpu);
  ASSERT_EQ(c.maxSignalDeviation.size(), 2u);
  for (Real d : c.maxSignalDeviation) EXPECT_LT(d, 1e-10);
  EXPECT_TRUE(std::isnan(gpu.SignalRow(1, 0)[0]));
}

// invalid_parameter and Newton failures come back per system, as on the CPU.
TEST(CudaBatch, StatusPropagation) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  const BatchProblem p = Grid(f, 8, true);
  const BatchResult cpu = CreateEvaluator("cpu")->Evaluate(p);
  const BatchResult gpu = CreateEvaluator("cuda")->Evaluate(p);
  EXPECT_EQ(gpu.status[1], SolveStatus::invalid_parameter);
  EXPECT_EQ(cpu.status, gpu.status);
  EXPECT_TRUE(std::isnan(gpu.Value(1, 0)));
}

// Explicit integrators in the fused kernel: a pendulum-free spring model (no constraints),
// RK44 and DOPRI5 against the CPU batch runner, to 1e-10 relative.
TEST(CudaBatch, ExplicitKernelMatchesCpuRunner) {
  REQUIRE_CUDA();
  Model m;
  const ObjectIndex ground = CreateGround(m);
  auto bob = CreateMassPoint(m, "bob", {1, 0, 0}, 1.0, {}, {0, 0.5, 0}, {0, -9.81, 0});
  CreateSpringDamper(m, "spring", {ground, bob.body}, {0, 0, 0}, {0, 0, 0}, 200.0, 0.5, 0.8);
  SensorNode s;
  s.nodeNumber = bob.node;
  s.outputVariableType = OutputVariableType::Position;
  s.writeToFile = false;
  const int sensor = m.AddSensor(s).value;
  const Layout layout = m.Compile();
  ParameterMap map(layout, m.Theta0());
  map.SetParameters({"k"});
  map.Bind("spring.stiffness", "k");
  std::vector<Real> params;
  for (int i = 0; i < 500; ++i) params.push_back(100 + i);
  ObjectiveSetDescription d;
  ObjectiveDescription a;
  a.kind = "MaxAbs";
  a.sensor = sensor;
  a.component = 1;
  d.objectives = {a};
  SimulationSettings st;
  st.timeIntegration.numberOfSteps = 200;
  st.timeIntegration.relativeTolerance = 1e-6;
  st.timeIntegration.absoluteTolerance = 1e-8;
  for (DynamicSolverType type : {DynamicSolverType::RK44, DynamicSolverType::DOPRI5}) {
    const BatchProblem p = MakeBatch(layout, map, params, type, st, BuildObjectives(d, layout, m.Theta0()));
    const BatchComparison c = CompareBatchResults(CreateEvaluator("cpu")->Evaluate(p), CreateEvaluator("cuda")->Evaluate(p));
    EXPECT_TRUE(c.statusDiffers.empty());
    EXPECT_LT(c.maxRelDeviation[0], 1e-10) << DynamicSolverTypeName(type);
  }
}

// cuda-cublas (lockstep phases, cublasDgetrfBatched / cublasDgetrsBatched) against the CPU
// runner on the constrained pendulum batch, full and modified Newton: equal statuses and
// values to 1e-10 relative (cuBLAS pivots as FixedLU does but rounds differently).
TEST(CudaCublas, MatchesCpuRunner) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  for (bool modified : {false, true}) {
    BatchProblem p = Grid(f, 1000, false);
    p.settings.timeIntegration.newton.useModifiedNewton = modified;
    const BatchResult cpu = CreateEvaluator("cpu")->Evaluate(p);
    const BatchResult gpu = CreateEvaluator("cuda-cublas")->Evaluate(p);
    EXPECT_EQ(gpu.backend, "cuda-cublas");
    const BatchComparison c = CompareBatchResults(cpu, gpu);
    EXPECT_TRUE(c.statusDiffers.empty()) << (modified ? "modified" : "full") << " Newton";
    EXPECT_EQ(c.comparedSystems, 1000);
    for (Real d : c.maxRelDeviation) EXPECT_LT(d, 1e-10) << (modified ? "modified" : "full") << " Newton";
  }
}

// invalid_parameter rows and Newton failures come back per system as on the CPU, also with
// step reduction (adaptive steps on); decimated signals match to 1e-10.
TEST(CudaCublas, StatusesAndSignalsMatchCpuRunner) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  for (bool adaptive : {false, true}) {
    BatchProblem p = Grid(f, 50, true);
    p.settings.timeIntegration.adaptiveStep = adaptive;
    RequestSignals(p, 16);
    const BatchResult cpu = CreateEvaluator("cpu")->Evaluate(p);
    const BatchResult gpu = CreateEvaluator("cuda-cublas")->Evaluate(p);
    EXPECT_EQ(gpu.status[1], SolveStatus::invalid_parameter);
    EXPECT_TRUE(std::isnan(gpu.Value(1, 0)));
    EXPECT_EQ(cpu.status, gpu.status);
    EXPECT_EQ(cpu.signalCount, gpu.signalCount);
    const BatchComparison c = CompareBatchResults(cpu, gpu);
    for (Real d : c.maxRelDeviation) EXPECT_LT(d, 1e-10);
    for (Real d : c.maxSignalDeviation) EXPECT_LT(d, 1e-10);
  }
}

// Chunks of 7 systems give the same statuses and values as one chunk (each system's matrices
// are factorized on their own; only the batch composition changes).
TEST(CudaCublas, ChunkingDoesNotChangeResults) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  const BatchProblem p = Grid(f, 100, true);
  EvaluatorOptions small;
  small.maxChunkSystems = 7;
  const BatchResult a = CreateEvaluator("cuda-cublas")->Evaluate(p);
  const BatchResult b = CreateEvaluator("cuda-cublas", small)->Evaluate(p);
  EXPECT_EQ(a.status, b.status);
  const BatchComparison c = CompareBatchResults(a, b);
  for (Real d : c.maxRelDeviation) EXPECT_LE(d, 1e-14);
}

// Explicit solvers: a ValidationError saying the baseline is generalized-alpha only.
TEST(CudaCublas, RefusesExplicitSolvers) {
  REQUIRE_CUDA();
  test::ExpectRefusesExplicitSolver([](const BatchProblem& p) { CreateEvaluator("cuda-cublas")->Evaluate(p); });
}

// Factory: "cuda-cublas" is a known name; without a device it is a clear error.
TEST(Evaluators, CublasFactoryByName) {
  std::string why;
  if (CudaAvailable(&why)) {
    EXPECT_EQ(CreateEvaluator("cuda-cublas")->Name(), "cuda-cublas");
    return;
  }
  try {
    CreateEvaluator("cuda-cublas");
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("evaluator 'cuda-cublas' is not available"), std::string::npos) << e.what();
  }
}

// Factory: "auto" always yields an evaluator; "cuda" without a device is a clear error.
TEST(Evaluators, FactoryByName) {
  EXPECT_EQ(CreateEvaluator("cpu")->Name(), "cpu");
  std::string why;
  const bool have = CudaAvailable(&why);
  EXPECT_EQ(CreateEvaluator("auto")->Name(), have ? "cuda" : "cpu");
  if (!have) {
    try {
      CreateEvaluator("cuda");
      FAIL();
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find("evaluator 'cuda' is not available"), std::string::npos);
    }
  }
  EXPECT_THROW(CreateEvaluator("tpu"), ValidationError);
}

// Device memory plan: capacity from the unknowns, global bytes from theta and values.
TEST(Evaluators, DeviceMemoryPlan) {
  const Fixture f = Pendulum();
  const BatchProblem p = Grid(f, 2, false);
  const DeviceMemoryPlan plan = PlanDeviceMemory(p);
  EXPECT_EQ(plan.capacity, 8);
  EXPECT_EQ(plan.globalBytesPerSystem,
            static_cast<size_t>(p.ThetaSize()) * 8 + 2 * 8 + sizeof(int) + sizeof(SolveInfo) + 1);
  EXPECT_GT(plan.localBytesPerThread, 8u * 8u * 8u);
}

}  // namespace
}  // namespace mbsweep
