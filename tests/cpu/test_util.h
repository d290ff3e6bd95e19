// Small helpers shared by the CPU solver tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bench/models.h"
#include "common/batch.h"
#include "common/creators.h"
#include "common/model.h"
#include "common/objectives_host.h"

namespace mbsweep::test {

/// Exudyn's defaults before 1.13 (full Newton in time integration), with which the published
/// reference values of its test suite were computed.
inline SimulationSettings FullNewton() {
  SimulationSettings s;
  s.timeIntegration.newton.useModifiedNewton = false;
  return s;
}

/// A compiled model with its default theta row and the sensor the batch tests observe.
struct BatchFixture {
  Model model;
  Layout layout;
  std::vector<Real> theta0;
  int sensor = -1;
};

/// Adds the position sensor `s` (not written to a file) to the fixture's model, then compiles
/// the model and takes its nominal theta.
template <class Sensor>
inline void FinishWithPositionSensor(BatchFixture& f, Sensor s) {
  s.outputVariableType = OutputVariableType::Position;
  s.writeToFile = false;
  f.sensor = f.model.AddSensor(s).value;
  f.layout = f.model.Compile();
  f.theta0 = f.model.Theta0();
}

/// Pendulum (distance constraint, index 3) with a spring to ground on the bob: 3 unknowns;
/// the batch-evaluator tests (cpu, lockstep, cuda) vary its mass and stiffness.
inline BatchFixture PendulumBatchFixture() {
  BatchFixture f;
  const ObjectIndex ground = CreateGround(f.model);
  auto bob = CreateMassPoint(f.model, "bob", {1, 0, 0}, 1.0, {}, {}, {0, -9.81, 0}, true);
  CreateDistanceConstraint(f.model, "rod", {ground, bob.body});
  CreateSpringDamper(f.model, "spring", {ground, bob.body}, {1.5, 0, 0}, {0, 0, 0}, 50.0, 0.5);
  SensorNode s;
  s.nodeNumber = bob.node;
  FinishWithPositionSensor(f, s);
  return f;
}

/// For the evaluators that run generalized-alpha only: evaluate(problem) on an RK44 batch (a
/// spring-damper pendulum over two stiffnesses) must throw a ValidationError naming the rule.
template <class Evaluate>
void ExpectRefusesExplicitSolver(Evaluate evaluate) {
  Model m;
  const ObjectIndex ground = CreateGround(m);
  auto bob = CreateMassPoint(m, "bob", {1, 0, 0}, 1.0, {}, {0, 0.5, 0}, {0, -9.81, 0});
  CreateSpringDamper(m, "spring", {ground, bob.body}, {0, 0, 0}, {0, 0, 0}, 200.0, 0.5, 0.8);
  const Layout layout = m.Compile();
  ParameterMap map(layout, m.Theta0());
  map.SetParameters({"k"});
  map.Bind("spring.stiffness", "k");
  const BatchProblem p =
      MakeBatch(layout, map, {100, 200}, DynamicSolverType::RK44, SimulationSettings{}, CompiledObjectives{});
  try {
    evaluate(p);
    FAIL() << "explicit solver accepted";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("GeneralizedAlpha only"), std::string::npos) << e.what();
  }
}

/// The objectives of the pendulum batch tests: the bob's final position and the RMS of its y.
inline CompiledObjectives PendulumBatchObjectives(const BatchFixture& f) {
  ObjectiveSetDescription d;
  ObjectiveDescription a, b;
  a.kind = "FinalValue";
  a.sensor = f.sensor;
  b.kind = "RMS";
  b.sensor = f.sensor;
  b.component = 1;
  d.objectives = {a, b};
  return BuildObjectives(d, f.layout, f.theta0);
}

/// Spatial chain of `bodies` slender rigid bodies (Euler parameters) on spherical joints
/// under gravity, swinging out of plane: 11 unknowns per body (7 coordinates, the
/// Euler-parameter norm, 3 joint equations), so 3 bodies need batch capacity 64 and 7 bodies
/// capacity 128. Sensor: the last link's position.
inline BatchFixture ChainBatchFixture(int bodies) {
  BatchFixture f;
  const ObjectIndex ground = CreateGround(f.model);
  ObjectIndex previous = ground;
  const Real length = 0.5, width = 0.05, mass = 1;
  RigidBodyInertia inertia;
  inertia.mass = mass;
  inertia.inertia = {mass / 12 * (2 * width * width), mass / 12 * (length * length + width * width),
                     mass / 12 * (length * length + width * width), 0, 0, 0};
  for (int i = 0; i < bodies; ++i) {
    const auto b = CreateRigidBody(f.model, "link" + std::to_string(i), {(i + 0.5) * length, 0, 0}, Matrix3D{}, inertia,
                                   {0, 0, 0.2 * (i + 1)}, {}, {0, -9.81, 0});
    CreateSphericalJoint(f.model, "joint" + std::to_string(i), {previous, b.body}, {i * length, 0, 0});
    previous = b.body;
  }
  SensorBody s;
  s.bodyNumber = previous;
  FinishWithPositionSensor(f, s);
  return f;
}

/// A generalized-alpha grid of the pendulum (PendulumBatchFixture) over the bob's mass and the
/// spring's stiffness, `systems` systems, with an invalid row (system 1: negative mass) and a
/// Newton failure (system 3: stiffness 1e12 with at most 8 iterations); 100 steps over 0.5 s.
inline BatchProblem PendulumGridWithFailures(const BatchFixture& f, int systems) {
  ParameterMap map(f.layout, f.theta0);
  map.SetParameters({"m", "k"});
  map.Bind("bob.mass", "m");
  map.Bind("spring.stiffness", "k");
  std::vector<Real> params;
  for (int i = 0; i < systems; ++i) params.insert(params.end(), {0.5 + 0.01 * i, 10.0 + 37.0 * i});
  params[2] = -1;
  params[7] = 1e12;
  SimulationSettings s;
  s.timeIntegration.endTime = 0.5;
  s.timeIntegration.numberOfSteps = 100;
  s.timeIntegration.newton.maxIterations = 8;
  return MakeBatch(f.layout, map, params, DynamicSolverType::GeneralizedAlpha, s, PendulumBatchObjectives(f));
}

/// A generalized-alpha batch of the chain (ChainBatchFixture): link 0's mass varied over
/// `systems` values from 0.5, `steps` steps over 0.2 s, the pendulum batch's objectives.
inline BatchProblem ChainBatch(const BatchFixture& f, int systems, int steps) {
  ParameterMap map(f.layout, f.theta0);
  map.SetParameters({"m"});
  map.Bind("link0.mass", "m");
  std::vector<Real> params;
  for (int i = 0; i < systems; ++i) params.push_back(0.5 + 0.05 * i);
  SimulationSettings s;
  s.timeIntegration.endTime = 0.2;
  s.timeIntegration.numberOfSteps = steps;
  s.solutionSettings.sensorsWritePeriod = 0;
  return MakeBatch(f.layout, map, params, DynamicSolverType::GeneralizedAlpha, s, PendulumBatchObjectives(f));
}

/// The largest |value| of sensor 0's `component`, sampled every samplePeriod (0: every step).
inline CompiledObjectives MaxAbsOfSensor0(const Layout& layout, const std::vector<Real>& theta0, int component = 0,
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

/// The benchmark's index-2 slider-crank (bench::BuildSliderCrank, compiled; needs
/// bench/models.cpp in the test program).
inline BatchFixture SliderCrankFixture() {
  BatchFixture f;
  f.model = bench::BuildSliderCrank();
  f.layout = f.model.Compile();
  f.theta0 = f.model.Theta0();
  f.sensor = 0;
  return f;
}

/// A batch of the slider-crank (trapezoidal rule, modified Newton, 500 steps over 1 s): the crank
/// and rod centres of mass varied over 8 systems as in bench_batch; the objective the largest
/// |y| of sensor 0 sampled every 0.01 s.
inline BatchProblem SliderCrankBatch(const BatchFixture& f) {
  ParameterMap map(f.layout, f.theta0);
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
  return MakeBatch(f.layout, map, params, DynamicSolverType::TrapezoidalIndex2, s,
                   MaxAbsOfSensor0(f.layout, f.theta0, 1, 0.01));
}

/// The displacement of node 0 as sensor 0 (no file): what MaxAbsOfSensor0 reads.
inline void AddDisplacementSensor(Model& m) {
  SensorNode sensor;
  sensor.nodeNumber = NodeIndex(0);
  sensor.outputVariableType = OutputVariableType::Displacement;
  sensor.writeToFile = false;
  m.AddSensor(sensor);
}

/// The benchmark's oscillator (bench::BuildOscillator) with node 0's displacement as sensor 0.
inline BatchFixture OscillatorFixture() {
  BatchFixture f;
  f.model = bench::BuildOscillator();
  AddDisplacementSensor(f.model);
  f.layout = f.model.Compile();
  f.theta0 = f.model.Theta0();
  f.sensor = 0;
  return f;
}

/// An explicit batch of OscillatorFixture (the LU holds the nODE2 x nODE2 mass matrix): RK44,
/// 1000 steps over 1 s, the stiffness 2000 + 500 i for system i, the largest |x| of node 0.
inline BatchProblem OscillatorRK44Batch(const BatchFixture& f, int systems) {
  ParameterMap map(f.layout, f.theta0);
  map.SetParameters({"k"});
  map.Bind("spring.stiffness", "k");
  std::vector<Real> params;
  for (int i = 0; i < systems; ++i) params.push_back(2000 + 500 * i);
  SimulationSettings s;
  s.timeIntegration.endTime = 1;
  s.timeIntegration.numberOfSteps = 1000;
  return MakeBatch(f.layout, map, params, DynamicSolverType::RK44, s, MaxAbsOfSensor0(f.layout, f.theta0));
}

/// Eleven expressions in one model (loads, a constraint offset, spring forces): the oscillator
/// with the force A sin(w t) + (t >= 0.25 ? B : 0), a decaying push (loadUserFunction) and a
/// rotating force (loadVectorUserFunction), coupled by a hardening spring, a strut (a SpringDamper
/// whose damping grows with time) and a mount (a CartesianSpringDamper stiffening with speed) to a
/// base in prescribed motion.
inline BatchFixture ExpressionFixture() {
  BatchFixture f;
  Model& m = f.model;
  m = bench::BuildOscillator();
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
  f.layout = m.Compile();
  f.theta0 = m.Theta0();
  f.sensor = 0;
  return f;
}

/// A batch of ExpressionFixture for `type`: w, B, the motion's frequency, the spring's cubic
/// stiffness, the rotation's speed, the push's time constant, the strut's damping growth and the
/// mount's stiffening over 8 systems, 200 steps over 0.5 s, the largest |x| of node 0.
inline BatchProblem ExpressionBatch(const BatchFixture& f, DynamicSolverType type) {
  ParameterMap map(f.layout, f.theta0);
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
  return MakeBatch(f.layout, map, params, type, s, MaxAbsOfSensor0(f.layout, f.theta0));
}

/// Slope of log(err) over log(h) by least squares.
inline double ConvergenceSlope(const std::vector<double>& h, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(err[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/// 1-DOF oscillator: NodePoint with mass m, CoordinateSpringDamper (k, d) to a ground
/// coordinate, initial displacement x0 and velocity v0 in x. Returns the node index.
inline NodeIndex AddOscillator(Model& m, double mass, double k, double d, double x0, double v0) {
  NodePoint np;
  np.initialCoordinates = {x0, 0, 0};
  np.initialVelocities = {v0, 0, 0};
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint mp;
  mp.mass = mass;
  mp.nodeNumber = n;
  m.AddObject(mp);
  NodePointGround g;
  const NodeIndex ng = m.AddNode(g);
  MarkerNodeCoordinate c0, c1;
  c0.nodeNumber = ng;
  c1.nodeNumber = n;
  const MarkerIndex m0 = m.AddMarker(c0), m1 = m.AddMarker(c1);
  ObjectConnectorCoordinateSpringDamper sd;
  sd.markerNumbers = {m0, m1};
  sd.stiffness = k;
  sd.damping = d;
  m.AddObject(sd);
  return n;
}

/// Closed-form displacement of the damped oscillator m x'' + d x' + k x = 0 (underdamped).
inline double OscillatorExact(double mass, double k, double d, double x0, double v0, double t) {
  const double w0 = std::sqrt(k / mass), zeta = d / (2 * std::sqrt(k * mass));
  const double wd = w0 * std::sqrt(1 - zeta * zeta), s = zeta * w0;
  return std::exp(-s * t) * (x0 * std::cos(wd * t) + (v0 + s * x0) / wd * std::sin(wd * t));
}

}  // namespace mbsweep::test
