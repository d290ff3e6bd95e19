// Batched evaluation on the CPU batch runner: parameter binding and expressions, identity
// with the CPU reference solver to round-off, per-system statuses (invalid parameters, Newton
// failures) that never fail the batch, thread-count independence, capacity errors.
#include <gtest/gtest.h>

#include <cmath>

#include "common/batch.h"
#include "common/creators.h"
#include "cpu/evaluator_cpu.h"
#include "cpu/simulation.h"
#include "test_util.h"

namespace mbsweep {
namespace {

// Exudyn's parameterVariationExample oscillator: NodePoint at [0.5,0,0], u0 = -0.08, v0 = 1;
// mass 1.6, spring 4000, damping 8 to a ground coordinate, load 80; a displacement sensor.
struct Oscillator {
  Model model;
  NodeIndex node;
  SensorIndex sensor;
};
Oscillator MakeOscillator(Real load = 80, TimeFunction timeFunction = {}, std::string springForce = "") {
  Oscillator o;
  NodePoint np;
  np.referenceCoordinates = {0.5, 0, 0};
  np.initialCoordinates = {-0.08, 0, 0};
  np.initialVelocities = {1, 0, 0};
  o.node = o.model.AddNode(np);
  ObjectMassPoint mp;
  mp.name = "mass";
  mp.mass = 1.6;
  mp.nodeNumber = o.node;
  o.model.AddObject(mp);
  NodePointGround g;
  MarkerNodeCoordinate c0, c1;
  c0.nodeNumber = o.model.AddNode(g);
  c1.nodeNumber = o.node;
  ObjectConnectorCoordinateSpringDamper sd;
  sd.name = "spring";
  sd.markerNumbers = {o.model.AddMarker(c0), o.model.AddMarker(c1)};
  sd.stiffness = 4000;
  sd.damping = 8;
  sd.springForceUserFunction.expression = std::move(springForce);
  o.model.AddObject(sd);
  LoadCoordinate lc;
  lc.name = "force";
  lc.markerNumber = sd.markerNumbers[1];
  lc.load = load;
  lc.timeFunction = std::move(timeFunction);
  o.model.AddLoad(lc);
  SensorNode s;
  s.nodeNumber = o.node;
  s.outputVariableType = OutputVariableType::Displacement;
  s.writeToFile = false;
  s.storeInternal = true;
  o.sensor = o.model.AddSensor(s);
  return o;
}

CompiledObjectives FinalAndMaxAbs(const Layout& layout, const std::vector<Real>& theta0, int sensor) {
  ObjectiveSetDescription d;
  ObjectiveDescription f, m;
  f.kind = "FinalValue";
  f.sensor = sensor;
  m.kind = "MaxAbs";
  m.sensor = sensor;
  d.objectives = {f, m};
  return BuildObjectives(d, layout, theta0);
}

SimulationSettings Settings(int steps = 200) {
  SimulationSettings s;
  s.timeIntegration.numberOfSteps = steps;
  s.timeIntegration.endTime = 0.5;
  s.solutionSettings.sensorsWritePeriod = 0;
  return s;
}

// The batch over `params` (rows of values of the theta slots `paths`) on the `cpu` evaluator
// equals the reference solver run on each row: final displacement, max |displacement|, steps
// and Newton iterations (values to 1e-12 relative).
void ExpectBatchEqualsReference(const Oscillator& o, const std::vector<std::string>& paths,
                                const std::vector<Real>& params) {
  const Layout layout = o.model.Compile();
  ParameterMap map(layout, o.model.Theta0());
  std::vector<std::string> names;
  for (size_t k = 0; k < paths.size(); ++k) names.push_back("p" + std::to_string(k));
  map.SetParameters(names);
  for (size_t k = 0; k < paths.size(); ++k) map.Bind(paths[k], names[k]);
  BatchProblem p = MakeBatch(layout, map, params, DynamicSolverType::GeneralizedAlpha, Settings(),
                             FinalAndMaxAbs(layout, o.model.Theta0(), o.sensor.value));
  const BatchResult r = CreateCpuEvaluator()->Evaluate(p);
  ASSERT_EQ(static_cast<size_t>(r.nSystems), params.size() / paths.size());
  for (int i = 0; i < r.nSystems; ++i) {
    ASSERT_EQ(r.status[static_cast<size_t>(i)], SolveStatus::ok);
    Simulation sim(o.model);
    for (size_t k = 0; k < paths.size(); ++k) sim.SetParameter(paths[k], params[i * paths.size() + k]);
    sim.SolveDynamic(Settings());
    double maxAbs = 0;
    for (const auto& row : sim.GetSensorStoredData(o.sensor)) maxAbs = std::max(maxAbs, std::abs(row[1]));
    const double xEnd = sim.GetSensorValues(o.sensor)[0];
    EXPECT_NEAR(r.Value(i, 0), xEnd, 1e-12 * std::abs(xEnd)) << "system " << i;
    EXPECT_NEAR(r.Value(i, 1), maxAbs, 1e-12 * maxAbs) << "system " << i;
    EXPECT_EQ(r.info[static_cast<size_t>(i)].steps, 200);
    EXPECT_EQ(r.info[static_cast<size_t>(i)].newtonIterations, sim.Statistics().newtonIterations) << "system " << i;
  }
}

// The CPU batch runner (fixed-capacity LU) reproduces the CPU reference solver (Eigen LU) on a
// 4 x 3 grid of mass and stiffness.
TEST(CpuBatch, MatchesReferenceSolverToRoundOff) {
  std::vector<Real> params;
  for (double m : {1.0, 1.3, 1.6, 2.0})
    for (double k : {2000.0, 4000.0, 8000.0}) params.insert(params.end(), {m, k});
  ExpectBatchEqualsReference(MakeOscillator(), {"mass.mass", "spring.stiffness"}, params);
}

// The oscillator's force as an expression of t and its parameters (A sin(w t), plus B from
// t = 0.25 on), w and B varied: the batch (program interpreter) equals the reference solver
// (muParser).
TEST(CpuBatch, ExpressionLoadMatchesReferenceSolver) {
  std::vector<Real> params;
  for (double w : {5.0, 20.0, 60.0})
    for (double b : {-30.0, 40.0}) params.insert(params.end(), {w, b});
  ExpectBatchEqualsReference(
      MakeOscillator(1, TimeFunction::Expression("A*sin(w*t) + (t >= 0.25 ? B : 0)", {{"A", 80}, {"w", 20}, {"B", 0}})),
      {"force.timeFunction.w", "force.timeFunction.B"}, params);
  // and the expression A sin(w t) is the Harmonic time function with that amplitude and frequency
  Oscillator h = MakeOscillator(80, TimeFunction::Harmonic(1, 20));
  Oscillator e = MakeOscillator(80, TimeFunction::Expression("sin(20*t)"));
  Simulation a(h.model), b(e.model);
  a.SolveDynamic(Settings());
  b.SolveDynamic(Settings());
  EXPECT_NEAR(a.GetSensorValues(h.sensor)[0], b.GetSensorValues(e.sensor)[0], 1e-14);
}

// A spring force given as a user function (Exudyn's example, 0.1 k u + k u^3 + d v) on the
// oscillator, k varied: the batch (program interpreter, forward-difference Jacobian) equals the
// reference solver (muParser). Then a SpringDamper and a CartesianSpringDamper from the origin
// to the mass beside it, with hardening or time-dependent user functions, the SpringDamper's
// stiffness and a parameter of each function varied.
TEST(CpuBatch, SpringForceUserFunctionMatchesReferenceSolver) {
  ExpectBatchEqualsReference(MakeOscillator(80, {}, "0.1*k*u + k*u^3 + d*v"), {"spring.stiffness"}, {500, 4000, 20000});
  Oscillator o = MakeOscillator();
  ObjectGround ground;
  MarkerBodyPosition atOrigin;
  atOrigin.bodyNumber = o.model.AddObject(ground);
  MarkerNodePosition onMass;
  onMass.nodeNumber = o.node;
  ObjectConnectorSpringDamper sd;
  sd.name = "strut";
  sd.markerNumbers = {o.model.AddMarker(atOrigin), o.model.AddMarker(onMass)};
  sd.referenceLength = 0.45;
  sd.stiffness = 1000;
  sd.damping = 5;
  sd.force = 20;
  sd.springForceUserFunction = {"stiffness*deltaL*(1 + c*deltaL^2) + damping*deltaL_t + force*cos(w*t)",
                                {{"c", 100}, {"w", 30}}};
  o.model.AddObject(sd);
  ObjectConnectorCartesianSpringDamper mount;
  mount.name = "mount";
  mount.markerNumbers = sd.markerNumbers;
  mount.stiffness = {200, 300, 0};
  mount.damping = {0, 0, 1};
  mount.offset = {0.5, 0, 0};
  mount.springForceUserFunction = {
      "stiffness[0]*displacement[0]*(1 + e*t), stiffness[1]*displacement[1], damping[2]*velocity[2]", {{"e", 1}}};
  o.model.AddObject(mount);
  std::vector<Real> params;
  for (double k : {500.0, 3000.0})
    for (double w : {10.0, 60.0}) params.insert(params.end(), {k, w, w / 10});
  ExpectBatchEqualsReference(o, {"strut.stiffness", "strut.springForceUserFunction.w", "mount.springForceUserFunction.e"},
                             params);
}

// Load user functions on the oscillator, their parameters varied: LoadCoordinate's
// loadUserFunction, and a LoadForceVector whose loadVectorUserFunction's x part pushes the mass
// (the batch runs the programs, the reference solver muParser).
TEST(CpuBatch, LoadUserFunctionsMatchReferenceSolver) {
  Oscillator o = MakeOscillator(80);
  LoadCoordinate lc = std::get<LoadCoordinate>(o.model.Loads()[0]);
  lc.name = "kick";
  lc.loadUserFunction = {"load*exp(-t/tau)*(t < 0.3)", {{"tau", 0.1}}};
  o.model.AddLoad(lc);
  MarkerBodyPosition onMass;
  onMass.bodyNumber = ObjectIndex(0);
  LoadForceVector rotating;
  rotating.name = "rotating";
  rotating.markerNumber = o.model.AddMarker(onMass);
  rotating.loadVector = {0, 1, 0};
  rotating.loadVectorUserFunction = {"F*cos(W*t)^2, loadVector[1]*F*sin(W*t), 0", {{"F", 50}, {"W", 30}}};
  o.model.AddLoad(rotating);
  std::vector<Real> params;
  for (double tau : {0.02, 0.2})
    for (double w : {10.0, 45.0}) params.insert(params.end(), {tau, w});
  ExpectBatchEqualsReference(o, {"kick.loadUserFunction.tau", "rotating.loadVectorUserFunction.W"}, params);
}

// Decimated signals: with sensorsWritePeriod 0.01 over 0.5 s (51 sample times) and at most 10
// rows, every 6th sample time is recorded ([t, value per objective]); each row equals the
// reference solver's stored sensor data at that time (to 1e-12 relative), unrecorded rows are
// NaN, and a comparison of two identical runs reports zero signal deviation.
TEST(CpuBatch, DecimatedSignalsMatchReferenceSensorData) {
  Oscillator o = MakeOscillator();
  const Layout layout = o.model.Compile();
  ParameterMap map(layout, o.model.Theta0());
  map.SetParameters({"k"});
  map.Bind("spring.stiffness", "k");
  SimulationSettings settings = Settings();
  settings.solutionSettings.sensorsWritePeriod = 0.01;
  CompiledObjectives objectives = FinalAndMaxAbs(layout, o.model.Theta0(), o.sensor.value);
  objectives.set.samplePeriod = 0.01;
  const std::vector<Real> ks{2000.0, 5000.0, -1.0};  // the last one invalid: no rows
  BatchProblem p = MakeBatch(layout, map, ks, DynamicSolverType::GeneralizedAlpha, settings, objectives);
  RequestSignals(p, 10);
  EXPECT_EQ(p.signalStride, 6);  // ceil(52 / 10): start, 50 periods, final
  const BatchResult r = CreateCpuEvaluator()->Evaluate(p);
  ASSERT_EQ(r.signalRows, 10);
  ASSERT_EQ(r.signalWidth, 3);
  EXPECT_EQ(r.signalCount[2], 0);
  EXPECT_TRUE(std::isnan(r.SignalRow(2, 0)[0]));
  for (int i = 0; i < 2; ++i) {
    Simulation sim(o.model);
    sim.SetParameter("spring.stiffness", ks[static_cast<size_t>(i)]);
    sim.SolveDynamic(settings);
    const auto& stored = sim.GetSensorStoredData(o.sensor);
    ASSERT_EQ(stored.size(), 51u);
    EXPECT_EQ(r.signalCount[static_cast<size_t>(i)], 9);  // sample times 0, 6, ..., 48
    for (int row = 0; row < 9; ++row) {
      const auto& ref = stored[static_cast<size_t>(6 * row)];
      const Real* got = r.SignalRow(i, row);
      EXPECT_NEAR(got[0], ref[0], 1e-12) << "system " << i << " row " << row;
      EXPECT_NEAR(got[1], ref[1], 1e-12 * std::abs(ref[1]) + 1e-300) << "system " << i << " row " << row;
      EXPECT_EQ(got[2], got[1]);  // both objectives sample the same sensor component
    }
    EXPECT_TRUE(std::isnan(r.SignalRow(i, 9)[0]));
  }
  const BatchComparison c = CompareBatchResults(r, CreateCpuEvaluator({1})->Evaluate(p));
  ASSERT_EQ(c.maxSignalDeviation.size(), 2u);
  EXPECT_EQ(c.maxSignalDeviation[0], 0.0);
  EXPECT_TRUE(c.signalCountDiffers.empty());
  // signals are for small batches: a batch whose signals would not fit is refused up front
  BatchProblem big = p;
  big.signalRows = 1 << 30;
  EXPECT_THROW(CreateCpuEvaluator()->Evaluate(big), ValidationError);
}

// A theta slot defined by an expression of study parameters (muParser syntax) is evaluated
// per system: stiffness = k0 * (1 + s)^2 gives the result of binding the value directly (to
// round-off of the expression).
TEST(CpuBatch, ExpressionDefinedParameters) {
  Oscillator o = MakeOscillator();
  const Layout layout = o.model.Compile();
  ParameterMap a(layout, o.model.Theta0()), b(layout, o.model.Theta0());
  a.SetParameters({"k0", "s"});
  a.Define("spring.stiffness", "k0*(1+s)^2");
  b.SetParameters({"k"});
  b.Bind("spring.stiffness", "k");
  const auto obj = FinalAndMaxAbs(layout, o.model.Theta0(), o.sensor.value);
  auto eval = CreateCpuEvaluator();
  const BatchResult ra = eval->Evaluate(
      MakeBatch(layout, a, {3000, 0.1, 3000, 0.5}, DynamicSolverType::GeneralizedAlpha, Settings(), obj));
  const BatchResult rb = eval->Evaluate(
      MakeBatch(layout, b, {3000 * 1.21, 3000 * 2.25}, DynamicSolverType::GeneralizedAlpha, Settings(), obj));
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(ra.Value(i, 0), rb.Value(i, 0), 1e-13 * std::abs(rb.Value(i, 0)));
  EXPECT_THROW(a.Define("spring.damping", "k0*"), ValidationError);
  EXPECT_THROW(a.Define("spring.damping", "k0*undeclared"), ValidationError);
  EXPECT_THROW(a.Bind("spring.stiffnes", "k0"), ValidationError);
}

// A sampled negative mass is invalid_parameter for that system only (NaN values, message
// naming the path, value and rule); the other systems are evaluated normally.
TEST(CpuBatch, InvalidParameterIsPerSystem) {
  Oscillator o = MakeOscillator();
  const Layout layout = o.model.Compile();
  ParameterMap map(layout, o.model.Theta0());
  map.SetParameters({"m"});
  map.Bind("mass.mass", "m");
  BatchProblem p = MakeBatch(layout, map, {1.6, -1.0, 2.0}, DynamicSolverType::GeneralizedAlpha, Settings(),
                             FinalAndMaxAbs(layout, o.model.Theta0(), o.sensor.value));
  EXPECT_EQ(p.rowErrors[1], "mass.mass = -1 violates UReal (must be >= 0)");
  const BatchResult r = CreateCpuEvaluator()->Evaluate(p);
  EXPECT_EQ(r.status[0], SolveStatus::ok);
  EXPECT_EQ(r.status[1], SolveStatus::invalid_parameter);
  EXPECT_EQ(r.status[2], SolveStatus::ok);
  EXPECT_TRUE(std::isnan(r.Value(1, 0)));
  EXPECT_FALSE(std::isnan(r.Value(2, 0)));
  EXPECT_EQ(r.CountStatus(SolveStatus::ok), 2);
}

// A system whose Newton iteration fails gets a failure status with its failure time; the
// batch completes. Pendulum with one Newton iteration allowed and no step reduction: the
// system released at rest from the horizontal converges in the first steps only if gravity
// is tiny; large gravity fails.
TEST(CpuBatch, NewtonFailureIsPerSystem) {
  Model m;
  const ObjectIndex ground = CreateGround(m);
  auto bob = CreateMassPoint(m, "bob", {1, 0, 0}, 1.0, {}, {}, {0, -9.81, 0}, true);
  CreateDistanceConstraint(m, "rod", {ground, bob.body});
  SensorNode s;
  s.nodeNumber = bob.node;
  s.outputVariableType = OutputVariableType::Position;
  s.writeToFile = false;
  const SensorIndex si = m.AddSensor(s);
  const Layout layout = m.Compile();
  ParameterMap map(layout, m.Theta0());
  map.SetParameters({"g"});
  map.Bind("load0.loadVector[1]", "g");
  SimulationSettings st = Settings(50);
  st.timeIntegration.adaptiveStep = false;
  st.timeIntegration.newton.maxIterations = 3;  // full Newton converges in 3 at g = -9.81, not at -1e7
  st.timeIntegration.newton.useModifiedNewton = false;
  ObjectiveSetDescription d;
  ObjectiveDescription f;
  f.kind = "FinalValue";
  f.sensor = si.value;
  d.objectives = {f};
  const BatchResult r = CreateCpuEvaluator()->Evaluate(MakeBatch(
      layout, map, {-9.81, -1e7, -9.81}, DynamicSolverType::GeneralizedAlpha, st, BuildObjectives(d, layout, m.Theta0())));
  EXPECT_EQ(r.status[0], SolveStatus::ok);
  EXPECT_NE(r.status[1], SolveStatus::ok);
  EXPECT_EQ(r.status[2], SolveStatus::ok);
  EXPECT_TRUE(std::isnan(r.Value(1, 0)));
  EXPECT_DOUBLE_EQ(r.Value(0, 0), r.Value(2, 0));
  EXPECT_LT(r.info[1].t, 0.5);
}

// Results do not depend on the number of threads (bitwise).
TEST(CpuBatch, ThreadCountIndependent) {
  Oscillator o = MakeOscillator();
  const Layout layout = o.model.Compile();
  ParameterMap map(layout, o.model.Theta0());
  map.SetParameters({"k"});
  map.Bind("spring.stiffness", "k");
  std::vector<Real> params;
  for (int i = 0; i < 40; ++i) params.push_back(1000 + 100 * i);
  BatchProblem p = MakeBatch(layout, map, params, DynamicSolverType::GeneralizedAlpha, Settings(100),
                             FinalAndMaxAbs(layout, o.model.Theta0(), o.sensor.value));
  CpuEvaluatorOptions one;
  one.threads = 1;
  CpuEvaluatorOptions two;
  two.threads = 2;
  const BatchResult a = CreateCpuEvaluator(one)->Evaluate(p), b = CreateCpuEvaluator(two)->Evaluate(p);
  EXPECT_EQ(a.values, b.values);
}

// A model with more unknowns than the batch path's largest capacity is rejected up front.
TEST(CpuBatch, CapacityLimitIsAClearError) {
  Model m;
  for (int i = 0; i < 50; ++i) CreateMassPoint(m, "p" + std::to_string(i), {static_cast<double>(i), 0, 0}, 1.0);
  const Layout layout = m.Compile();
  ParameterMap map(layout, m.Theta0());
  map.SetParameters({"m"});
  map.Bind("p0.mass", "m");
  BatchProblem p = MakeBatch(layout, map, {1.0}, DynamicSolverType::GeneralizedAlpha, Settings(), CompiledObjectives{});
  try {
    CreateCpuEvaluator()->Evaluate(p);
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_STREQ(e.what(),
                 "batch evaluation: the model has 150 unknowns (ODE2 + ODE1 + algebraic); the batch path supports at "
                 "most 128");
  }
}

}  // namespace
}  // namespace mbsweep

namespace mbsweep {
namespace {

// Explicit integrators on the batch path reproduce the reference solver (RK44 and DOPRI5 with
// step-size control) to round-off; constraints are rejected for explicit batches.
TEST(CpuBatch, ExplicitSolversMatchReference) {
  Oscillator o = MakeOscillator();
  const Layout layout = o.model.Compile();
  ParameterMap map(layout, o.model.Theta0());
  map.SetParameters({"k"});
  map.Bind("spring.stiffness", "k");
  for (DynamicSolverType type : {DynamicSolverType::RK44, DynamicSolverType::DOPRI5}) {
    SimulationSettings s = Settings(500);
    s.timeIntegration.relativeTolerance = 1e-6;
    s.timeIntegration.absoluteTolerance = 1e-8;
    const BatchResult r = CreateCpuEvaluator()->Evaluate(
        MakeBatch(layout, map, {3000, 5000}, type, s, FinalAndMaxAbs(layout, o.model.Theta0(), o.sensor.value)));
    for (int i = 0; i < 2; ++i) {
      ASSERT_EQ(r.status[static_cast<size_t>(i)], SolveStatus::ok);
      Simulation sim(o.model);
      sim.SetParameter("spring.stiffness", i == 0 ? 3000 : 5000);
      sim.SolveDynamic(s, type);
      const double xEnd = sim.GetSensorValues(o.sensor)[0];
      EXPECT_NEAR(r.Value(i, 0), xEnd, 1e-12 * std::abs(xEnd)) << DynamicSolverTypeName(type);
      EXPECT_EQ(r.info[static_cast<size_t>(i)].steps, sim.Statistics().steps);
    }
  }
  Model m;
  const ObjectIndex ground = CreateGround(m);
  auto bob = CreateMassPoint(m, "bob", {1, 0, 0}, 1.0, {}, {}, {0, -9.81, 0}, true);
  CreateDistanceConstraint(m, "rod", {ground, bob.body});
  const Layout pl = m.Compile();
  ParameterMap pm(pl, m.Theta0());
  pm.SetParameters({"m"});
  pm.Bind("bob.mass", "m");
  EXPECT_THROW(CreateCpuEvaluator()->Evaluate(
                   MakeBatch(pl, pm, {1.0}, DynamicSolverType::RK44, Settings(), CompiledObjectives{})),
               ValidationError);
}

}  // namespace
}  // namespace mbsweep
