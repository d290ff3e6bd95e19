// The cpu-jit evaluator (cpu/evaluator_cpu.h, cpu/jit.h, common/codegen.h): code generated and
// compiled for one model gives the interpreter's (`cpu`) results to 1e-13 relative, with the same
// statuses, counters and failure data, on a pendulum grid with invalid rows and Newton
// failures, the 3D Euler-parameter chain, the index-2 slider-crank and an explicit RK44 batch.
// Skipped where no C++ compiler is usable at run time (the interpreter then runs; that notice
// is the evaluator's). Each model compiles once (a few seconds) into a cache under the build tree.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "bench/models.h"
#include "common/codegen.h"
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

/// The displacement of node 0 as sensor 0 (no file): what MaxAbsOfSensor0 reads.
void AddDisplacementSensor(Model& m) {
  SensorNode sensor;
  sensor.nodeNumber = NodeIndex(0);
  sensor.outputVariableType = OutputVariableType::Displacement;
  sensor.writeToFile = false;
  m.AddSensor(sensor);
}

/// The one objective of these batches: the largest |value| of sensor 0's `component`.
CompiledObjectives MaxAbsOfSensor0(const Layout& layout, const std::vector<Real>& theta0, int component = 0,
                                   Real samplePeriod = 0) {
  ObjectiveSetDescription d;
  ObjectiveDescription o;
  o.kind = "MaxAbs";
  o.sensor = 0;
  o.component = component;
  d.objectives = {o};
  d.samplePeriod = samplePeriod;
  return BuildObjectives(d, layout, theta0);
}

// The generated constants describe the layout field by field (what the compiled code folds).
TEST(CodeGeneration, LayoutSourceHoldsEveryField) {
  const test::BatchFixture f = test::PendulumBatchFixture();
  const std::string s = LayoutSource(f.layout);
  const LayoutView v = f.layout.View();
  EXPECT_NE(s.find("v.nODE2 = " + std::to_string(v.nODE2) + ";"), std::string::npos) << s;
  EXPECT_NE(s.find("v.nAE = " + std::to_string(v.nAE) + ";"), std::string::npos) << s;
  EXPECT_NE(s.find("v.forceList = " + std::to_string(v.forceList) + ";"), std::string::npos) << s;
  EXPECT_NE(s.find("constexpr int kUnknowns = " + std::to_string(v.nODE2 + v.nODE1 + v.nAE) + ";"), std::string::npos);
  EXPECT_FALSE(EmbeddedHeaders().empty());
  EXPECT_EQ(EmbeddedHeadersHash().size(), 16u);
}

// A pendulum grid with invalid rows (negative mass) and absurd stiffnesses (Newton failures):
// the failing systems fail the same way.
TEST(CpuJit, PendulumGridWithFailures) {
  const test::BatchFixture f = test::PendulumBatchFixture();
  ParameterMap map(f.layout, f.theta0);
  map.SetParameters({"m", "k"});
  map.Bind("bob.mass", "m");
  map.Bind("spring.stiffness", "k");
  std::vector<Real> params;
  for (int i = 0; i < 24; ++i) params.insert(params.end(), {0.5 + 0.01 * i, 10.0 + 37.0 * i});
  params[2] = -1;
  params[7] = 1e12;
  SimulationSettings s;
  s.timeIntegration.endTime = 0.5;
  s.timeIntegration.numberOfSteps = 100;
  s.timeIntegration.newton.maxIterations = 8;
  const BatchProblem p =
      MakeBatch(f.layout, map, params, DynamicSolverType::GeneralizedAlpha, s, test::PendulumBatchObjectives(f));
  ExpectCompiledEqualsInterpreter(p);
}

TEST(CpuJit, EulerParameterChain3D) {
  const test::BatchFixture f = test::ChainBatchFixture(3);
  ExpectCompiledEqualsInterpreter(test::ChainBatch(f, 6, 100));
}

// The benchmark's index-2 slider-crank (trapezoidal rule, modified Newton), crank and rod
// centres of mass varied as in bench_batch.
TEST(CpuJit, SliderCrankIndex2) {
  const Model m = bench::BuildSliderCrank();
  const Layout layout = m.Compile();
  const std::vector<Real> theta0 = m.Theta0();
  ParameterMap map(layout, theta0);
  map.SetParameters({"s1", "s2"});
  map.Define("crankNode.referenceCoordinates[0]", "s1");
  map.Define("crankLeft.localPosition[0]", "-s1");
  map.Define("crankRight.localPosition[0]", "0.1-s1");
  map.Define("rodNode.referenceCoordinates[0]", "0.1+s2");
  map.Define("rodLeft.localPosition[0]", "-s2");
  map.Define("rodRight.localPosition[0]", "0.3-s2");
  std::vector<Real> params;
  for (int i = 0; i < 8; ++i) params.insert(params.end(), {-0.08 + 0.02 * i, 0.25 - 0.07 * i});
  SimulationSettings s;
  s.timeIntegration.endTime = 1;
  s.timeIntegration.numberOfSteps = 500;
  s.timeIntegration.newton.useModifiedNewton = true;
  s.timeIntegration.newton.absoluteTolerance = 1e-8;
  s.solutionSettings.sensorsWritePeriod = 0.01;
  const BatchProblem p =
      MakeBatch(layout, map, params, DynamicSolverType::TrapezoidalIndex2, s, MaxAbsOfSensor0(layout, theta0, 1, 0.01));
  ExpectCompiledEqualsInterpreter(p);
}

// Loads, a constraint offset and a spring force given as expressions (generated code evaluates
// them as compiled C++, the interpreter runs their programs): the oscillator with the force
// A sin(w t) + (t >= 0.25 ? B : 0), a decaying push (loadUserFunction) and a rotating force
// (loadVectorUserFunction), coupled by a hardening spring, a strut (a SpringDamper whose damping
// grows with time) and a mount (a CartesianSpringDamper stiffening with speed) to a base in
// prescribed motion; w, B, the motion's frequency, the spring's cubic stiffness, the rotation's
// speed, the push's time constant, the strut's damping growth and the mount's stiffening varied.
TEST(CpuJit, ExpressionLoadAndOffset) {
  Model m = bench::BuildOscillator();
  LoadCoordinate force = std::get<LoadCoordinate>(m.Loads()[0]);
  force.name = "push";
  force.load = 1;
  force.timeFunction = TimeFunction::Expression("A*sin(w*t) + (t >= 0.25 ? B : 0)", {{"A", 80}, {"w", 20}, {"B", 0}});
  m.AddLoad(force);
  NodePoint base;
  base.referenceCoordinates = {0, 0, 0};
  const NodeIndex nb = m.AddNode(base);
  ObjectMassPoint baseMass;
  baseMass.mass = 0.5;
  baseMass.nodeNumber = nb;
  m.AddObject(baseMass);
  MarkerNodeCoordinate ground, baseX;
  ground.nodeNumber = NodeIndex(1);
  baseX.nodeNumber = nb;
  ObjectConnectorCoordinate motion;
  motion.markerNumbers = {m.AddMarker(ground), m.AddMarker(baseX)};
  motion.offset = 0.01;
  motion.offsetTimeFunction = TimeFunction::Expression("sin(2*_pi*f*t)^2", {{"f", 3}});
  m.AddObject(motion);
  ObjectConnectorCoordinateSpringDamper coupling;  // a hardening spring between base and mass
  coupling.name = "coupling";
  coupling.markerNumbers = {motion.markerNumbers[1], MarkerIndex(1)};
  coupling.stiffness = 300;
  coupling.damping = 2;
  coupling.springForceUserFunction = {"k*u + c*u^3 + d*v*abs(v)", {{"c", 1e5}}};
  m.AddObject(coupling);
  LoadCoordinate kick = force;
  kick.name = "kick";
  kick.timeFunction = {};
  kick.load = 40;
  kick.loadUserFunction = {"load*exp(-t/tau)", {{"tau", 0.1}}};
  m.AddLoad(kick);
  MarkerBodyPosition onMass;
  onMass.bodyNumber = ObjectIndex(0);
  LoadForceVector rotating;
  rotating.name = "rotating";
  rotating.markerNumber = m.AddMarker(onMass);
  rotating.loadVector = {0, 0, 3};
  rotating.loadVectorUserFunction = {"F*cos(W*t), F*sin(W*t), loadVector[2]", {{"F", 20}, {"W", 30}}};
  m.AddLoad(rotating);
  MarkerNodePosition basePoint, massPoint;
  basePoint.nodeNumber = nb;
  massPoint.nodeNumber = NodeIndex(0);
  ObjectConnectorSpringDamper strut;
  strut.name = "strut";
  strut.markerNumbers = {m.AddMarker(basePoint), m.AddMarker(massPoint)};
  strut.referenceLength = 0.4;
  strut.stiffness = 200;
  strut.damping = 3;
  strut.springForceUserFunction = {"stiffness*deltaL + damping*deltaL_t*(1 + g*t)", {{"g", 1}}};
  m.AddObject(strut);
  ObjectConnectorCartesianSpringDamper mount;
  mount.name = "mount";
  mount.markerNumbers = strut.markerNumbers;
  mount.stiffness = {100, 0, 0};
  mount.offset = {0.5, 0, 0};
  mount.springForceUserFunction = {"stiffness[0]*displacement[0]*(1 + h*velocity[0]^2), 0, 0", {{"h", 0}}};
  m.AddObject(mount);
  AddDisplacementSensor(m);
  const Layout layout = m.Compile();
  ASSERT_EQ(layout.expressions.size(), 11u);
  const std::vector<Real> theta0 = m.Theta0();
  ParameterMap map(layout, theta0);
  map.SetParameters({"w", "B", "f", "c", "W", "tau", "g", "h"});
  map.Bind("push.timeFunction.w", "w");
  map.Bind("push.timeFunction.B", "B");
  map.Bind("object3.offsetTimeFunction.f", "f");
  map.Bind("coupling.springForceUserFunction.c", "c");
  map.Bind("rotating.loadVectorUserFunction.W", "W");
  map.Bind("kick.loadUserFunction.tau", "tau");
  map.Bind("strut.springForceUserFunction.g", "g");
  map.Bind("mount.springForceUserFunction.h", "h");
  std::vector<Real> params;
  for (int i = 0; i < 8; ++i)
    params.insert(params.end(), {5.0 + 9 * i, -30.0 + 10 * i, 1.0 + 0.5 * i, 1e4 * i, 10.0 + 7 * i, 0.02 + 0.03 * i,
                                 2.0 * i, 0.5 * i});
  SimulationSettings s;
  s.timeIntegration.endTime = 0.5;
  s.timeIntegration.numberOfSteps = 200;
  for (DynamicSolverType type : {DynamicSolverType::GeneralizedAlpha, DynamicSolverType::TrapezoidalIndex2})
    ExpectCompiledEqualsInterpreter(MakeBatch(layout, map, params, type, s, MaxAbsOfSensor0(layout, theta0)));
}

// An explicit solver (the compiled LU holds the nODE2 x nODE2 mass matrix): the benchmark's
// oscillator with RK44 over 8 stiffnesses.
TEST(CpuJit, OscillatorWithRK44) {
  Model m = bench::BuildOscillator();
  AddDisplacementSensor(m);
  const Layout layout = m.Compile();
  const std::vector<Real> theta0 = m.Theta0();
  ParameterMap map(layout, theta0);
  map.SetParameters({"k"});
  map.Bind("spring.stiffness", "k");
  std::vector<Real> params;
  for (int i = 0; i < 8; ++i) params.push_back(2000 + 500 * i);
  SimulationSettings s;
  s.timeIntegration.endTime = 1;
  s.timeIntegration.numberOfSteps = 1000;
  const BatchProblem p = MakeBatch(layout, map, params, DynamicSolverType::RK44, s, MaxAbsOfSensor0(layout, theta0));
  ExpectCompiledEqualsInterpreter(p);
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

}  // namespace
}  // namespace mbsweep

