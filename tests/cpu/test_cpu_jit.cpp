// The cpu-jit evaluator (cpu/evaluator_cpu.h, cpu/jit.h, common/codegen.h): code generated and
// compiled for one model gives the interpreter's (`cpu`) results to 1e-13 relative, with the same
// statuses, counters and failure data, on a pendulum grid with invalid rows and Newton
// failures, the 3D Euler-parameter chain, the index-2 slider-crank and an explicit RK44 batch.
// Skipped where no C++ compiler is usable at run time (the interpreter then runs; that notice
// is the evaluator's). Each model compiles once (a few seconds) into a cache under the build tree.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/models.h"
#include "common/codegen.h"
#include "common/lockstep.h"
#include "cpu/evaluator_cpu.h"
#include "cpu/jit.h"
#include "cpu/simulation.h"
#include "tests/cpu/test_util.h"

namespace mbsweep {
namespace {

constexpr double kRelative = 1e-13;  ///< the issue's bound: generated code equals the interpreter

bool HaveCompiler() {
  std::string why;
  return !JitCompiler(&why).empty();
}

// Same statuses, counters and failure data; values and signals to kRelative.
void ExpectSameResults(const BatchResult& interpreted, const BatchResult& compiled) {
  EXPECT_EQ(compiled.backend, "cpu-jit");
  ASSERT_EQ(interpreted.values.size(), compiled.values.size());
  EXPECT_EQ(interpreted.status, compiled.status);
  for (size_t k = 0; k < interpreted.values.size(); ++k) {
    const double a = interpreted.values[k], b = compiled.values[k];
    if (std::isnan(a)) {
      EXPECT_TRUE(std::isnan(b)) << "value " << k;
      continue;
    }
    EXPECT_LE(std::abs(a - b), kRelative * std::max(std::abs(a), 1e-300)) << "value " << k << ": " << a << " vs " << b;
  }
  for (size_t i = 0; i < interpreted.info.size(); ++i) {
    const SolveInfo &a = interpreted.info[i], &b = compiled.info[i];
    EXPECT_EQ(a.steps, b.steps) << "system " << i;
    EXPECT_EQ(a.newtonIterations, b.newtonIterations) << "system " << i;
    EXPECT_EQ(a.jacobianUpdates, b.jacobianUpdates) << "system " << i;
    EXPECT_EQ(a.rejectedSteps, b.rejectedSteps) << "system " << i;
    EXPECT_NEAR(a.t, b.t, kRelative * std::abs(a.t)) << "system " << i;
  }
}

void ExpectCompiledEqualsInterpreter(const BatchProblem& p) {
  if (!HaveCompiler()) GTEST_SKIP() << "no C++ compiler for the JIT";
  const BatchResult interpreted = CreateCpuEvaluator()->Evaluate(p);
  const BatchResult compiled = CreateCpuJitEvaluator()->Evaluate(p);
  EXPECT_GT(interpreted.CountStatus(SolveStatus::ok), 0);
  ExpectSameResults(interpreted, compiled);
}

using test::MaxAbsOfSensor0;

// The generated constants describe the layout field by field (what the compiled code folds).
TEST(CodeGeneration, LayoutSourceHoldsEveryField) {
  const test::BatchFixture f = test::PendulumBatchFixture();
  const std::string s = LayoutSource(f.layout, 2);
  const LayoutView v = f.layout.View();
  EXPECT_NE(s.find("v.nODE2 = " + std::to_string(v.nODE2) + ";"), std::string::npos) << s;
  EXPECT_NE(s.find("v.nAE = " + std::to_string(v.nAE) + ";"), std::string::npos) << s;
  EXPECT_NE(s.find("v.forceList = " + std::to_string(v.forceList) + ";"), std::string::npos) << s;
  EXPECT_NE(s.find("constexpr int kUnknowns = " + std::to_string(v.nODE2 + v.nODE1 + v.nAE) + ";"), std::string::npos);
  EXPECT_FALSE(EmbeddedHeaders().empty());
  EXPECT_EQ(EmbeddedHeadersHash().size(), 16u);
}

// The generated code names the model's item kinds before any header includes common/kinds.h,
// which then drops the other items from the dispatches (ModelHasKind): the pendulum's four
// object kinds, its gravity load's kind and its one sensor kind, no others; the most values
// one of its sensors has, the size of the objectives' sensor buffer (common/outputs.h); and the
// objectives its observers hold, 3 rounded up to 4 (common/objectives.h); and the constant layout
// (common/layout.h: the integrators then hold it as a compile-time constant, not a member).
TEST(CodeGeneration, LayoutSourceNamesTheModelsKindsFirst) {
  const test::BatchFixture f = test::PendulumBatchFixture();
  const std::string s = LayoutSource(f.layout, 3);
  auto hex = [](unsigned long long bits) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llxull\n", bits);
    return std::string(text);
  };
  auto bit = [](auto kind) { return 1ull << static_cast<int>(kind); };
  const unsigned long long objects = bit(ObjectKind::Ground) | bit(ObjectKind::MassPoint2D) |
                                     bit(ObjectKind::ConnectorDistance) | bit(ObjectKind::ConnectorSpringDamper);
  EXPECT_NE(s.find("#define MBSWEEP_MODEL_OBJECT_KINDS " + hex(objects)), std::string::npos) << s;
  EXPECT_NE(s.find("#define MBSWEEP_MODEL_LOAD_KINDS " + hex(bit(LoadKind::MassProportional))), std::string::npos);
  EXPECT_NE(s.find("#define MBSWEEP_MODEL_SENSOR_KINDS " + hex(bit(SensorKind::Node))), std::string::npos) << s;
  EXPECT_NE(s.find("#define MBSWEEP_MODEL_SENSOR_VALUES 3\n"), std::string::npos);  // the bob's position
  EXPECT_LT(s.find("#define MBSWEEP_MODEL_NODE_KINDS"), s.find("#include"));
  EXPECT_LT(s.find("#define MBSWEEP_MODEL_MARKER_KINDS"), s.find("#include"));
  EXPECT_LT(s.find("#define MBSWEEP_MODEL_SENSOR_VALUES"), s.find("#include"));
  EXPECT_NE(s.find("#define MBSWEEP_MODEL_OBJECTIVES 4\n"), std::string::npos);
  EXPECT_LT(s.find("#define MBSWEEP_MODEL_OBJECTIVES"), s.find("#include"));
  EXPECT_LT(s.find("#define MBSWEEP_MODEL_LAYOUT mbsweep_model::kLayout\n"), s.find("#include"));
  EXPECT_NE(s.find("struct ModelLayout {"), std::string::npos) << s;
  const int bounds[] = {1, 1, 2, 4, 4, 8, 8, 8, 8};  // ObjectiveBound(0..8)
  for (int count = 0; count <= kMaxObjectives; ++count) EXPECT_EQ(ObjectiveBound(count), bounds[count]) << count;
}

// Generated code always defines the model's expression function, so that common/expression.h
// never compiles the program interpreter into it: a switch over the expressions' programs for a
// model with expressions (11 cases), one without cases for a model without (the pendulum).
TEST(CodeGeneration, ExpressionFunctionWithOrWithoutExpressions) {
  auto cases = [](const std::string& s) {
    int n = 0;
    for (size_t at = s.find("    case "); at != std::string::npos; at = s.find("    case ", at + 1)) ++n;
    return n;
  };
  const std::string none = ExpressionsSource(test::PendulumBatchFixture().layout);
  const std::string eleven = ExpressionsSource(test::ExpressionFixture().layout);
  for (const std::string* s : {&none, &eleven}) {
    EXPECT_NE(s->find("#define MBSWEEP_MODEL_EXPRESSIONS\n"), std::string::npos) << *s;
    EXPECT_NE(s->find("mbsweep::Real Expression(int program, "), std::string::npos) << *s;
  }
  EXPECT_EQ(cases(none), 0) << none;
  EXPECT_EQ(none.find("switch"), std::string::npos) << none;
  EXPECT_EQ(cases(eleven), 11) << eleven;
}

// A generalized-alpha thread kernel of up to 8 unknowns (the oscillator's 3) inlines every call
// and gathers its whole theta row, so that the system stays in registers; the slider-crank's (21
// unknowns), explicit and warp kernels do not.
TEST(CodeGeneration, SmallModelsThreadKernelsKeepTheSystemInRegisters) {
  const Layout oscillator = test::OscillatorFixture().layout, sliderCrank = test::SliderCrankFixture().layout;
  const std::string small = CudaModelSource(oscillator, false, 2);
  EXPECT_LT(small.find("#define MBSWEEP_INLINE_ALL\n"), small.find("#include")) << small;
  EXPECT_NE(small.find("constexpr int kThetaLocal = " + std::to_string(oscillator.View().nTheta) + ";"),
            std::string::npos);
  EXPECT_NE(small.find("RunThreadSystem<kThetaLocal, true>("), std::string::npos) << small;
  for (const std::string& s : {CudaModelSource(oscillator, true, 2), CudaModelSource(sliderCrank, false, 2),
                               CudaModelSource(oscillator, false, 2, true)}) {
    EXPECT_EQ(s.find("MBSWEEP_INLINE_ALL"), std::string::npos) << s;
    EXPECT_EQ(s.find("RunThreadSystem<kThetaLocal, true>"), std::string::npos);
  }
}

// The generated CUDA kernels' workspace is what their model needs, not the interpreter's bound of
// 14 (generalized-alpha) or 36 (explicit) Reals per unknown: for the slider-crank (12 ODE2
// coordinates, 9 constraint equations) 11 nODE2 + 3 nAE + 2 (nODE2 + nAE) = 201 Reals, and for
// the explicit family DOPRI5's (3 + 1 + 7) 2 nODE2 + 2 nODE2 = 288, the most of its solver types;
// the warp-per-system kernel's shared slot holds the same workspace.
TEST(CodeGeneration, KernelsTakeTheWorkspaceTheirModelNeeds) {
  const test::BatchFixture f = test::SliderCrankFixture();
  ASSERT_EQ(f.layout.View().nODE2, 12);
  ASSERT_EQ(f.layout.View().nAE, 9);
  ASSERT_EQ(f.layout.View().nODE1, 0);
  const std::string alpha = CudaModelSource(f.layout, false, 2), rk = CudaModelSource(f.layout, true, 2);
  EXPECT_NE(alpha.find("    Real work[201];\n"), std::string::npos) << alpha.substr(alpha.size() - 800);
  EXPECT_NE(rk.find("    Real work[288];\n"), std::string::npos) << rk.substr(rk.size() - 800);
  // the warp kernel's shared slot: 21 x 21 matrix, 201 workspace and 21 diagonal Reals, 663
  // rounded up to even: 664, where the inverse (none above 8 unknowns) and the pivots start; 21
  // pivots in 11 Reals: 675, rounded up to even: 676 Reals per warp
  const std::string warp = CudaModelSource(f.layout, false, 2, true);
  EXPECT_NE(warp.find("  constexpr mbsweep::WarpSlot kSlot{21, 201, 664, 664, 676};\n"), std::string::npos)
      << warp.substr(warp.size() - 800);
  EXPECT_NE(warp.find("__launch_bounds__(128) mbsweep_model_kernel("), std::string::npos);
  const WarpSlot slot = MakeWarpSlot(f.layout.View());
  EXPECT_EQ(slot.reals, 676);
  EXPECT_EQ(slot.inverse, 664);
  EXPECT_THROW(CudaModelSource(f.layout, true, 2, true), std::logic_error);
}

// Observers sized for 4 and for 8 objectives (code generated for 3 and for 8): every kind of
// objective, each on its own component, gives the interpreter's values on the pendulum grid.
TEST(CpuJit, ObserversHoldTheBatchsObjectives) {
  const test::BatchFixture f = test::PendulumBatchFixture();
  const BatchProblem grid = test::PendulumGridWithFailures(f, 12);
  const char* kinds[] = {"FinalValue", "Max", "Min", "MaxAbs", "Mean", "RMS", "Integral", "FinalValue"};
  for (int count : {3, 8}) {
    ObjectiveSetDescription d;
    for (int j = 0; j < count; ++j) {
      ObjectiveDescription o;
      o.kind = kinds[j];
      o.sensor = f.sensor;
      o.component = j % 3;
      o.weight = 1 + j;
      d.objectives.push_back(o);
    }
    d.weightedSum = true;
    BatchProblem p = grid;
    p.objectives = BuildObjectives(d, f.layout, f.theta0);
    ASSERT_EQ(p.NumValues(), count + 1);
    ExpectCompiledEqualsInterpreter(p);
  }
}

// The code paths of the generated CUDA kernels that keep a small model's system in registers
// (MBSWEEP_INLINE_ALL: pivots and step-start states swapped by value, each objective's sensor
// read through a dispatch over the model's sensors, constant body masses added straight into the
// matrix; common/codegen.h) compiled for the host through the JIT's extra flags: on the pendulum
// grid with failures and 8 objectives on one sensor, the index-2 slider-crank (pivoting, 21
// unknowns) and the expression model they give the interpreter's results. Run in a process of its
// own (ctest runs each test so): the flags are read once per process.
TEST(CpuJit, RegisterKernelPathsEqualTheInterpreter) {
  ::setenv("MBSWEEP_JIT_FLAGS", "-DMBSWEEP_INLINE_ALL", 1);
  const test::BatchFixture pendulum = test::PendulumBatchFixture();
  BatchProblem grid = test::PendulumGridWithFailures(pendulum, 12);
  ObjectiveSetDescription d;
  const char* kinds[] = {"FinalValue", "Max", "Min", "MaxAbs", "Mean", "RMS", "Integral", "FinalValue"};
  for (int j = 0; j < 8; ++j) {
    ObjectiveDescription o;
    o.kind = kinds[j];
    o.sensor = pendulum.sensor;
    o.component = j % 3;
    d.objectives.push_back(o);
  }
  grid.objectives = BuildObjectives(d, pendulum.layout, pendulum.theta0);
  ExpectCompiledEqualsInterpreter(grid);
  ExpectCompiledEqualsInterpreter(test::SliderCrankBatch(test::SliderCrankFixture()));
  const test::BatchFixture expressions = test::ExpressionFixture();
  ExpectCompiledEqualsInterpreter(test::ExpressionBatch(expressions, DynamicSolverType::GeneralizedAlpha));
  ::unsetenv("MBSWEEP_JIT_FLAGS");
}

// A pendulum grid with invalid rows (negative mass) and absurd stiffnesses (Newton failures):
// the failing systems fail the same way.
TEST(CpuJit, PendulumGridWithFailures) {
  const test::BatchFixture f = test::PendulumBatchFixture();
  ExpectCompiledEqualsInterpreter(test::PendulumGridWithFailures(f, 24));
}

TEST(CpuJit, EulerParameterChain3D) {
  const test::BatchFixture f = test::ChainBatchFixture(3);
  ExpectCompiledEqualsInterpreter(test::ChainBatch(f, 6, 100));
}

// The benchmark's index-2 slider-crank (trapezoidal rule, modified Newton), crank and rod
// centres of mass varied as in bench_batch.
TEST(CpuJit, SliderCrankIndex2) {
  const test::BatchFixture f = test::SliderCrankFixture();
  ExpectCompiledEqualsInterpreter(test::SliderCrankBatch(f));
}

// Loads, a constraint offset and spring forces given as expressions (test::ExpressionFixture):
// generated code evaluates them as compiled C++, the interpreter runs their programs.
TEST(CpuJit, ExpressionLoadAndOffset) {
  const test::BatchFixture f = test::ExpressionFixture();
  ASSERT_EQ(f.layout.expressions.size(), 11u);
  for (DynamicSolverType type : {DynamicSolverType::GeneralizedAlpha, DynamicSolverType::TrapezoidalIndex2})
    ExpectCompiledEqualsInterpreter(test::ExpressionBatch(f, type));
}

// An explicit solver (the compiled LU holds the nODE2 x nODE2 mass matrix): the benchmark's
// oscillator with RK44 over 8 stiffnesses.
TEST(CpuJit, OscillatorWithRK44) {
  const test::BatchFixture f = test::OscillatorFixture();
  ExpectCompiledEqualsInterpreter(test::OscillatorRK44Batch(f, 8));
}

// A rigid body on a revolute joint, held by a torsional spring given as springTorqueUserFunction
// (hardening, with damping that grows with time) and driven by a torque; the stiffness and the
// cubic coefficient varied. The generated code equals the interpreter, and the interpreter
// (the function's program) equals the reference solver (muParser) to 1e-12 relative.
TEST(CpuJit, TorsionalSpringUserFunction) {
  Model m;
  NodeRigidBodyRxyz n;
  const NodeIndex node = m.AddNode(n);
  ObjectRigidBody rb;
  rb.mass = 1;
  rb.inertia = {1, 1, 0.5, 0, 0, 0};
  rb.nodeNumber = node;
  m.AddObject(rb);
  MarkerNodeRigid onBody;
  onBody.nodeNumber = node;
  MarkerBodyRigid onGround;
  onGround.bodyNumber = m.AddObject(ObjectGround{});
  const MarkerIndex mb = m.AddMarker(onBody), mg = m.AddMarker(onGround);
  ObjectJointRevoluteZ joint;
  joint.markerNumbers = {mg, mb};
  m.AddObject(joint);
  ObjectConnectorTorsionalSpringDamper spring;
  spring.name = "spring";
  spring.markerNumbers = {mg, mb};
  spring.stiffness = 200;
  spring.damping = 2;
  spring.springTorqueUserFunction = {"stiffness*rotation + c*rotation^3 + damping*angularVelocity*(1 + t)",
                                     {{"c", 0}}};
  m.AddObject(spring);
  LoadTorqueVector torque;
  torque.markerNumber = mb;
  torque.loadVector = {0, 0, 40};
  m.AddLoad(torque);
  SensorNode sensor;
  sensor.nodeNumber = node;
  sensor.outputVariableType = OutputVariableType::Rotation;
  sensor.writeToFile = false;
  sensor.storeInternal = true;
  m.AddSensor(sensor);
  const Layout layout = m.Compile();
  const std::vector<Real> theta0 = m.Theta0();
  ParameterMap map(layout, theta0);
  map.SetParameters({"k", "c"});
  map.Bind("spring.stiffness", "k");
  map.Bind("spring.springTorqueUserFunction.c", "c");
  const std::vector<Real> params{100, 0, 100, 2000, 400, 500, 400, 5000};
  SimulationSettings s;
  s.timeIntegration.endTime = 0.5;
  s.timeIntegration.numberOfSteps = 200;
  s.solutionSettings.sensorsWritePeriod = 0;
  const BatchProblem p = MakeBatch(layout, map, params, DynamicSolverType::GeneralizedAlpha, s,
                                   MaxAbsOfSensor0(layout, theta0, 2));
  ExpectCompiledEqualsInterpreter(p);
  const BatchResult r = CreateCpuEvaluator()->Evaluate(p);
  for (int i = 0; i < r.nSystems; ++i) {
    ASSERT_EQ(r.status[static_cast<size_t>(i)], SolveStatus::ok);
    Simulation sim(m);
    sim.SetParameter("spring.stiffness", params[2 * i]);
    sim.SetParameter("spring.springTorqueUserFunction.c", params[2 * i + 1]);
    sim.SolveDynamic(s);
    double maxAbs = 0;
    for (const auto& row : sim.GetSensorStoredData(SensorIndex(0))) maxAbs = std::max(maxAbs, std::abs(row[3]));
    EXPECT_NEAR(r.Value(i, 0), maxAbs, 1e-12 * maxAbs) << "system " << i;
    EXPECT_GT(maxAbs, 0.01) << "system " << i;
  }
}

// `auto` without a GPU (CpuJitEvaluatorOptions::compileAfterSeconds): the interpreter runs the
// batches until they have taken compileAfterSeconds in all, then the model is compiled; a model
// compiled already runs from the first batch. A batch larger than its first part (one thread:
// 64 systems) that reaches compileAfterSeconds with the time its first part predicts for the
// rest runs the rest compiled. Each batch's backend names what ran it; Name() lists what has
// run so far ("auto" before the first batch).
TEST(CpuJit, AutoInterpretsFirstThenCompiles) {
  if (!HaveCompiler()) GTEST_SKIP() << "no C++ compiler for the JIT";
  namespace fs = std::filesystem;
  // a cache of its own, so that neither model is compiled before
  const fs::path cache = fs::path(::testing::TempDir()) / "mbsweep_auto_jit_cache";
  fs::remove_all(cache);
  ::setenv("MBSWEEP_JIT_CACHE", cache.c_str(), 1);
  auto libraries = [&cache] {
    std::vector<fs::path> found;
    if (fs::is_directory(cache))
      for (const auto& e : fs::directory_iterator(cache))
        if (e.path().extension() == ".so") found.push_back(e.path());
    return found;
  };
  const test::BatchFixture f = test::PendulumBatchFixture();
  const BatchProblem p = test::PendulumGridWithFailures(f, 8);
  const BatchResult interpreted = CreateCpuEvaluator()->Evaluate(p);

  CpuJitEvaluatorOptions soon;
  soon.compileAfterSeconds = 1e-9;  // any batch takes longer
  const auto tiered = CreateCpuJitEvaluator(soon);
  EXPECT_EQ(tiered->Name(), "auto");  // nothing has run yet
  const BatchResult first = tiered->Evaluate(p);
  EXPECT_EQ(first.backend, "cpu");
  EXPECT_EQ(first.status, interpreted.status);
  EXPECT_EQ(tiered->Name(), "cpu");
  EXPECT_TRUE(libraries().empty());
  ExpectSameResults(interpreted, tiered->Evaluate(p));  // compiled now
  EXPECT_EQ(libraries().size(), 1u);
  EXPECT_EQ(tiered->Name(), "cpu, then cpu-jit");
  ExpectSameResults(interpreted, tiered->Evaluate(p));
  EXPECT_EQ(tiered->Name(), "cpu, then cpu-jit");

  CpuJitEvaluatorOptions never;
  never.compileAfterSeconds = 1e9;
  const auto patient = CreateCpuJitEvaluator(never);
  ExpectSameResults(interpreted, patient->Evaluate(p));  // the pendulum's model is compiled
  EXPECT_EQ(patient->Name(), "cpu-jit");
  const test::BatchFixture o = test::OscillatorFixture();
  const BatchResult rk = patient->Evaluate(test::OscillatorRK44Batch(o, 4));  // this one is not
  EXPECT_EQ(rk.backend, "cpu");
  EXPECT_EQ(rk.CountStatus(SolveStatus::ok), 4);
  EXPECT_EQ(patient->Name(), "cpu-jit, then cpu");
  EXPECT_EQ(libraries().size(), 1u);

  const BatchProblem large = test::OscillatorRK44Batch(o, 200);
  CpuEvaluatorOptions oneThread;
  oneThread.threads = 1;
  const BatchResult alone = CreateCpuEvaluator(oneThread)->Evaluate(large);
  soon.threads = 1;
  const auto switching = CreateCpuJitEvaluator(soon);
  BatchResult split = switching->Evaluate(large);
  EXPECT_EQ(split.backend, "cpu, then cpu-jit");
  EXPECT_EQ(switching->Name(), "cpu, then cpu-jit");
  EXPECT_EQ(libraries().size(), 2u);
  EXPECT_EQ(split.CountStatus(SolveStatus::ok), 200);
  split.backend = "cpu-jit";  // ExpectSameResults checks that name
  ExpectSameResults(alone, split);
  fs::remove_all(cache);
}

}  // namespace
}  // namespace mbsweep

