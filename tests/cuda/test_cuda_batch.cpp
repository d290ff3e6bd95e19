// CUDA evaluators: the fused kernels (thread per system and warp per system) and the cuBLAS
// batched-factorization baseline (cuda-cublas) reproduce the CPU batch runner on the same
// batch, both kernel mappings agree, chunking does not change results, per-system statuses
// propagate. Tests that need a device skip when
// none is usable; the factory and memory-plan tests run everywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/batch.h"
#include "common/creators.h"
#include "common/system_runner.h"
#include "cuda/evaluator_cuda.h"
#include "tests/cpu/test_util.h"

namespace mbsweep {
namespace {

using Fixture = test::BatchFixture;
constexpr auto Pendulum = test::PendulumBatchFixture;

/// Evaluator options that split a batch into chunks of `systems` systems.
EvaluatorOptions ChunksOf(int systems) {
  EvaluatorOptions o;
  o.maxChunkSystems = systems;
  return o;
}

/// Equal statuses and recorded signal rows; objective values and signals within `tol`
/// relative of the reference.
void ExpectSameStatusesAndCloseValues(const BatchResult& reference, const BatchResult& result, Real tol) {
  EXPECT_EQ(reference.status, result.status);
  EXPECT_EQ(reference.signalCount, result.signalCount);
  const BatchComparison c = CompareBatchResults(reference, result);
  for (Real d : c.maxRelDeviation) EXPECT_LT(d, tol);
  for (Real d : c.maxSignalDeviation) EXPECT_LT(d, tol);
}

BatchProblem Grid(const Fixture& f, int n, bool withFailures) {
  ParameterMap map(f.layout, f.theta0);
  map.SetParameters({"m", "k"});
  map.Bind("bob.mass", "m");
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
  const EvaluatorOptions small = ChunksOf(7);
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
  const EvaluatorOptions small = ChunksOf(7);
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

// Coordinate constraints eliminated by the explicit solvers (eliminateConstraints) in the
// fused kernel: the elimination table reaches the device with the layout. Two mass points
// coupled by a spring, the first one's x held to ground by an ObjectConnectorCoordinate; 256
// stiffnesses and constraint offsets (every 8th offset non-zero: invalid_parameter on both,
// from the row errors; with the row errors cleared, from the integrator's own check on the
// device). RK44 and DOPRI5 against the CPU batch runner: equal statuses, values to 1e-10
// relative, the held coordinate exactly 0.
TEST(CudaBatch, EliminatedConstraintMatchesCpuRunner) {
  REQUIRE_CUDA();
  Model m;
  NodePoint na, nb;
  nb.referenceCoordinates = {1, 0, 0};
  nb.initialCoordinates = {0.1, 0, 0};
  nb.initialVelocities = {0.5, 0, 0};
  const NodeIndex a = m.AddNode(na), b = m.AddNode(nb);
  NodePointGround g;
  const NodeIndex ng = m.AddNode(g);
  ObjectMassPoint ma, mb;
  ma.mass = 2;
  ma.nodeNumber = a;
  mb.mass = 0.5;
  mb.nodeNumber = b;
  m.AddObject(ma);
  m.AddObject(mb);
  MarkerNodeCoordinate ca, cb, cg;
  ca.nodeNumber = a;
  cb.nodeNumber = b;
  cg.nodeNumber = ng;
  const MarkerIndex ka = m.AddMarker(ca), kb = m.AddMarker(cb), kg = m.AddMarker(cg);
  ObjectConnectorCoordinateSpringDamper sd;
  sd.name = "spring";
  sd.markerNumbers = {ka, kb};
  sd.stiffness = 50;
  m.AddObject(sd);
  ObjectConnectorCoordinate fix;
  fix.name = "fix";
  fix.markerNumbers = {kg, ka};
  m.AddObject(fix);
  SensorNode s;
  s.writeToFile = false;
  s.outputVariableType = OutputVariableType::Coordinates;
  s.nodeNumber = b;
  const int sb = m.AddSensor(s).value;
  s.nodeNumber = a;
  const int sa = m.AddSensor(s).value;
  const Layout layout = m.Compile();
  ASSERT_EQ(layout.View().nEliminated, 1);
  ParameterMap map(layout, m.Theta0());
  map.SetParameters({"k", "e"});
  map.Bind("spring.stiffness", "k");
  map.Bind("fix.offset", "e");
  std::vector<Real> params;
  for (int i = 0; i < 256; ++i) params.insert(params.end(), {20.0 + i, i % 8 == 3 ? 0.01 : 0.0});
  ObjectiveSetDescription d;
  ObjectiveDescription xb, xa;
  xb.kind = "MaxAbs";
  xb.sensor = sb;
  xa.kind = "MaxAbs";
  xa.sensor = sa;
  d.objectives = {xb, xa};
  SimulationSettings st;
  st.timeIntegration.numberOfSteps = 500;
  for (DynamicSolverType type : {DynamicSolverType::RK44, DynamicSolverType::DOPRI5}) {
    SCOPED_TRACE(DynamicSolverTypeName(type));
    BatchProblem p = MakeBatch(layout, map, params, type, st, BuildObjectives(d, layout, m.Theta0()));
    const BatchResult cpu = CreateEvaluator("cpu")->Evaluate(p), gpu = CreateEvaluator("cuda")->Evaluate(p);
    EXPECT_EQ(gpu.CountStatus(SolveStatus::invalid_parameter), 32);
    EXPECT_EQ(gpu.CountStatus(SolveStatus::ok), 224);
    const BatchComparison c = CompareBatchResults(cpu, gpu);
    EXPECT_TRUE(c.statusDiffers.empty());
    EXPECT_LT(c.maxRelDeviation[0], 1e-10);
    RecordProperty(std::string("eliminated.") + DynamicSolverTypeName(type) + ".maxRelDeviation",
                   std::to_string(c.maxRelDeviation[0]));
    int heldMoved = 0;
    for (int i = 0; i < p.nSystems; ++i)
      if (gpu.status[static_cast<size_t>(i)] == SolveStatus::ok) heldMoved += gpu.Value(i, 1) != 0;
    EXPECT_EQ(heldMoved, 0);
    for (std::string& e : p.rowErrors) e.clear();  // the device's own check
    EXPECT_EQ(CreateEvaluator("cuda")->Evaluate(p).CountStatus(SolveStatus::invalid_parameter), 32);
  }
}

// Equal statuses and values to `tolerance` relative (CompareBatchResults); the largest
// deviation and the number of systems whose Newton iteration count differs are recorded as
// test properties (the GPU check's JSON) without being asserted: under different rounding a
// Newton exit right at the tolerance may take one iteration more or less.
void ExpectSameRuns(const BatchResult& a, const BatchResult& b, Real tolerance, const std::string& what) {
  const BatchComparison c = CompareBatchResults(a, b);
  EXPECT_TRUE(c.statusDiffers.empty()) << what;
  EXPECT_EQ(c.comparedSystems, a.CountStatus(SolveStatus::ok)) << what;
  Real worst = 0;
  for (Real d : c.maxRelDeviation) {
    EXPECT_LT(d, tolerance) << what;
    worst = std::max(worst, d);
  }
  ASSERT_EQ(a.info.size(), b.info.size());
  int iterationsDiffer = 0;
  for (size_t i = 0; i < a.info.size(); ++i)
    if (a.info[i].newtonIterations != b.info[i].newtonIterations) ++iterationsDiffer;
  std::string key = what;
  std::replace(key.begin(), key.end(), ' ', '_');
  ::testing::Test::RecordProperty(key + ".maxRelDeviation", std::to_string(worst));
  ::testing::Test::RecordProperty(key + ".systemsWithOtherNewtonIterations", iterationsDiffer);
}

// CPU-vs-device tolerance for the 3D chains (33 and 77 unknowns, dense iteration matrices):
// looser than the pendulum's 1e-10, since rounding differences (FMAs on the device) that
// shift a Newton exit by one iteration change a result by about the Newton tolerance times
// the step's increment.
constexpr Real kChainTolerance = 1e-8;

// Warp-per-system kernel (forced on the capacity-8 pendulum, full and modified Newton)
// against the CPU runner: equal statuses, values to 1e-10 relative. Not bitwise:
// the team LU has FactorizeDense's arithmetic, but the device contracts multiply-adds into
// FMAs (in the LU and in the residuals), the host does not.
TEST(CudaWarp, MatchesCpuRunner) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  for (bool modified : {false, true}) {
    BatchProblem p = Grid(f, 1000, false);
    p.settings.timeIntegration.newton.useModifiedNewton = modified;
    const BatchResult cpu = CreateEvaluator("cpu")->Evaluate(p);
    const BatchResult warp = CreateEvaluator("cuda-warp")->Evaluate(p);
    EXPECT_EQ(warp.backend, "cuda-warp");
    ExpectSameRuns(cpu, warp, 1e-10, modified ? "pendulum modified Newton" : "pendulum full Newton");
  }
}

// Warp against thread mapping on the same batch (the pendulum, capacity 8, and the 3-body
// spatial chain, 33 unknowns, capacity 64): equal statuses, values to 1e-12 (pendulum) and
// 1e-10 (chain) relative. Both kernels compile the same integrator and the same LU
// arithmetic for the device and are expected to agree bit for bit (the recorded deviation
// shows whether they do); the assertion leaves round-off room because nvcc decides FMA
// contraction per call site after inlining, which differs between the two kernels.
TEST(CudaWarp, MatchesThreadMapping) {
  REQUIRE_CUDA();
  const Fixture pendulum = Pendulum();
  const Fixture chain = test::ChainBatchFixture(3);
  const BatchProblem problems[] = {Grid(pendulum, 500, false), test::ChainBatch(chain, 64, 100)};
  const Real tolerances[] = {1e-12, 1e-10};
  const char* names[] = {"pendulum warp vs thread", "chain warp vs thread"};
  for (int k = 0; k < 2; ++k) {
    const BatchResult thread = CreateEvaluator("cuda-thread")->Evaluate(problems[k]);
    const BatchResult warp = CreateEvaluator("cuda-warp")->Evaluate(problems[k]);
    EXPECT_EQ(thread.backend, "cuda-thread");
    EXPECT_EQ(warp.CountStatus(SolveStatus::ok), problems[k].nSystems) << names[k];
    ExpectSameRuns(thread, warp, tolerances[k], names[k]);
  }
}

// The automatic mapping runs the 33-unknown chain on the warp kernel: its results are the
// forced warp mapping's, bit for bit, and match the CPU runner (kChainTolerance).
TEST(CudaWarp, AutomaticMappingUsesWarpAboveCapacity8) {
  REQUIRE_CUDA();
  const Fixture chain = test::ChainBatchFixture(3);
  const BatchProblem p = test::ChainBatch(chain, 32, 100);
  const BatchResult automatic = CreateEvaluator("cuda")->Evaluate(p);
  const BatchResult warp = CreateEvaluator("cuda-warp")->Evaluate(p);
  EXPECT_EQ(automatic.values, warp.values);
  ExpectSameRuns(CreateEvaluator("cpu")->Evaluate(p), automatic, kChainTolerance, "chain automatic vs cpu");
}

// Capacity 128 (the chain with 7 bodies: 77 unknowns, a 77 x 77 matrix in shared memory,
// one warp per block): the warp kernel matches the CPU runner (kChainTolerance); the thread
// mapping refuses it with a ValidationError naming its limit.
TEST(CudaWarp, Capacity128MatchesCpuRunner) {
  REQUIRE_CUDA();
  const Fixture chain = test::ChainBatchFixture(7);
  const BatchProblem p = test::ChainBatch(chain, 48, 100);
  EXPECT_EQ(PlanDeviceMemory(p).capacity, 128);
  const BatchResult cpu = CreateEvaluator("cpu")->Evaluate(p);
  EXPECT_EQ(cpu.CountStatus(SolveStatus::ok), 48);
  ExpectSameRuns(cpu, CreateEvaluator("cuda")->Evaluate(p), kChainTolerance, "capacity 128 vs cpu");
  try {
    CreateEvaluator("cuda-thread")->Evaluate(p);
    FAIL() << "thread mapping accepted capacity 128";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("up to 64 unknowns"), std::string::npos) << e.what();
  }
}

// Chunks of 7 systems give bitwise the same results on the warp kernel; invalid rows and
// Newton failures come back per system as on the CPU, with NaN values and signals for the
// invalid row (recorded signals to 1e-10).
TEST(CudaWarp, ChunkingStatusesAndSignals) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  BatchProblem p = Grid(f, 50, true);
  RequestSignals(p, 16);
  const EvaluatorOptions small = ChunksOf(7);
  const BatchResult whole = CreateEvaluator("cuda-warp")->Evaluate(p);
  const BatchResult chunked = CreateEvaluator("cuda-warp", small)->Evaluate(p);
  EXPECT_EQ(whole.status, chunked.status);
  EXPECT_EQ(whole.signalCount, chunked.signalCount);
  const BatchComparison same = CompareBatchResults(whole, chunked);
  for (Real d : same.maxRelDeviation) EXPECT_EQ(d, 0);
  const BatchResult cpu = CreateEvaluator("cpu")->Evaluate(p);
  EXPECT_EQ(chunked.status[1], SolveStatus::invalid_parameter);
  EXPECT_EQ(chunked.info[1].status, SolveStatus::invalid_parameter);
  EXPECT_TRUE(std::isnan(chunked.Value(1, 0)));
  EXPECT_EQ(chunked.signalCount[1], 0);
  EXPECT_TRUE(std::isnan(chunked.SignalRow(1, 0)[0]));
  ExpectSameStatusesAndCloseValues(cpu, chunked, 1e-10);
}

// Explicit solvers never run on the warp kernel: "cuda-warp" refuses them, "cuda" runs them
// one thread per system.
TEST(CudaWarp, RefusesExplicitSolvers) {
  REQUIRE_CUDA();
  test::ExpectRefusesExplicitSolver([](const BatchProblem& p) { CreateEvaluator("cuda-warp")->Evaluate(p); });
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
    ExpectSameStatusesAndCloseValues(cpu, gpu, 1e-10);
  }
}

// Chunks of 7 systems give the same statuses and values as one chunk (each system's matrices
// are factorized on their own; only the batch composition changes).
TEST(CudaCublas, ChunkingDoesNotChangeResults) {
  REQUIRE_CUDA();
  const Fixture f = Pendulum();
  const BatchProblem p = Grid(f, 100, true);
  const EvaluatorOptions small = ChunksOf(7);
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

// Factory: "auto" always yields an evaluator; "cuda", "cuda-thread" and "cuda-warp" without a
// device are a clear error.
TEST(Evaluators, FactoryByName) {
  EXPECT_EQ(CreateEvaluator("cpu")->Name(), "cpu");
  std::string why;
  const bool have = CudaAvailable(&why);
  // without a GPU, what `auto` runs is decided by its batches (the interpreter, then compiled code)
  EXPECT_EQ(CreateEvaluator("auto")->Name(), have ? "cuda" : "auto");
  EXPECT_EQ(CreateEvaluator("cpu-jit")->Name(), "cpu-jit");
  if (!have) {
    try {
      CreateEvaluator("cuda");
      FAIL();
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find("evaluator 'cuda' is not available"), std::string::npos);
    }
  }
  EXPECT_THROW(CreateEvaluator("tpu"), ValidationError);
  // the forced mappings: their own names with a device, the same clear error without one
  for (const char* name : {"cuda-thread", "cuda-warp"}) {
    if (have) {
      EXPECT_EQ(CreateEvaluator(name)->Name(), name);
      continue;
    }
    try {
      CreateEvaluator(name);
      ADD_FAILURE() << name << " created without a device";
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("evaluator '") + name + "' is not available"), std::string::npos);
    }
  }
}

// The size dispatch (no device needed): generalized-alpha runs one thread per system at
// capacity 8 and one warp per system at 16 to 128; a forced thread mapping stops at 64;
// explicit solvers run one thread per system up to 64; above 128 unknowns is a clear error.
TEST(Evaluators, KernelMappingBySize) {
  using K = KernelMapping;
  EXPECT_EQ(ChooseKernelMapping(8, false), K::threadPerSystem);
  for (int c : {16, 32, 64, 128}) EXPECT_EQ(ChooseKernelMapping(c, false), K::warpPerSystem) << c;
  for (int c : {8, 16, 32, 64}) {
    EXPECT_EQ(ChooseKernelMapping(c, false, K::threadPerSystem), K::threadPerSystem) << c;
    EXPECT_EQ(ChooseKernelMapping(c, true), K::threadPerSystem) << c;
    EXPECT_EQ(ChooseKernelMapping(c, true, K::threadPerSystem), K::threadPerSystem) << c;
  }
  for (int c : {8, 16, 32, 64, 128}) EXPECT_EQ(ChooseKernelMapping(c, false, K::warpPerSystem), K::warpPerSystem) << c;
  auto expectRefused = [](int capacity, bool explicitSolver, K requested, const std::string& phrase) {
    try {
      ChooseKernelMapping(capacity, explicitSolver, requested);
      ADD_FAILURE() << "capacity " << capacity << " accepted";
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
    }
  };
  expectRefused(128, false, K::threadPerSystem, "up to 64 unknowns");
  expectRefused(128, true, K::automatic, "up to 64 unknowns");
  expectRefused(16, true, K::warpPerSystem, "GeneralizedAlpha only");
  expectRefused(0, false, K::automatic, "more than 128 unknowns");
  expectRefused(256, false, K::warpPerSystem, "more than 128 unknowns");
  EXPECT_STREQ(KernelMappingName(K::warpPerSystem), "warpPerSystem");
}

// Device memory plan: capacity from the unknowns, global bytes from theta and values.
TEST(Evaluators, DeviceMemoryPlan) {
  const Fixture f = Pendulum();
  const BatchProblem p = Grid(f, 2, false);
  const DeviceMemoryPlan plan = PlanDeviceMemory(p);
  EXPECT_EQ(plan.capacity, 8);
  EXPECT_EQ(plan.globalBytesPerSystem,
            static_cast<size_t>(p.ThetaSize()) * 8 + 2 * 8 + sizeof(int) + sizeof(SolveInfo) + 1);
  EXPECT_GT(plan.localBytesPerThread, 8u * 8u * 8u + ThetaLocalBound(8) * 8u);
  EXPECT_GE(ThetaLocalBound(8), p.ThetaSize());  // the pendulum's theta is read from local memory
  // the warp slot: 3 x 3 matrix, the workspace of 2 coordinates and 1 constraint, U's 3
  // reciprocal diagonal entries (to a 16-byte boundary), the 3 x 4 stored inverse, 3 pivots (2
  // Reals), to a 16-byte boundary
  const LayoutView L = f.layout.View();
  size_t reals = 9 + static_cast<size_t>(GeneralizedAlphaWorkSize(L)) + 3;
  reals += reals % 2;
  reals += 3 * 4 + 2;
  EXPECT_EQ(plan.sharedBytesPerWarp, (reals + reals % 2) * sizeof(Real));
}

// The thread-per-system kernel's theta upload: a chunk's rows stored by columns, the system
// index fastest.
TEST(Evaluators, TransposeRowsPutsTheSystemIndexFastest) {
  const std::vector<Real> rows = {1, 2, 3, 4, 5, 6};  // 2 systems x 3 values
  std::vector<Real> columns(rows.size());
  TransposeRows(rows.data(), 2, 3, columns.data());
  EXPECT_EQ(columns, (std::vector<Real>{1, 4, 2, 5, 3, 6}));
}

}  // namespace
}  // namespace mbsweep
