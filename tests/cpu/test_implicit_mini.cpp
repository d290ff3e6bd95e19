// Exudyn's mini examples solved with the generalized-alpha integrator (Exudyn's default settings
// before 1.13, test::FullNewton(): t = 1, 100 steps, rho = 0.9, index 3, full Newton), each
// checked to 1e-10 relative of the reference in Exudyn's test-suite reference values
// (main/pythonDev/TestModels/runTestSuiteRefSol.py).
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "cpu/simulation.h"
#include "test_util.h"

namespace mbsweep {
namespace {

constexpr double kRelTol = 1e-10;

void ExpectRel(double value, double ref) { EXPECT_NEAR(value, ref, kRelTol * std::max(std::abs(ref), 1e-300)); }

// Every mini example has a ground object and a ground node first.
void AddGround(Model& m) {
  ObjectGround g;
  m.AddObject(g);
  NodePointGround ng;
  m.AddNode(ng);
}

// NodePoint ref [1,1,0], init [0.5,0,0], vel [0.5,0,0], MassPoint m=1, no forces: x = 2.0.
TEST(ImplicitMiniExamples, ObjectMassPoint) {
  Model m;
  AddGround(m);
  NodePoint np;
  np.referenceCoordinates = {1, 1, 0};
  np.initialCoordinates = {0.5, 0, 0};
  np.initialVelocities = {0.5, 0, 0};
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint mp;
  mp.mass = 1;
  mp.nodeNumber = n;
  m.AddObject(mp);
  Simulation sim(m);
  sim.SolveDynamic(test::FullNewton());
  ExpectRel(sim.GetNodeOutput(n, OutputVariableType::Position)[0], 2.0);
}

// The same in 2D: x = 2.0.
TEST(ImplicitMiniExamples, ObjectMassPoint2D) {
  Model m;
  AddGround(m);
  NodePoint2D np;
  np.referenceCoordinates = {1, 1};
  np.initialCoordinates = {0.5, 0};
  np.initialVelocities = {0.5, 0};
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint2D mp;
  mp.mass = 1;
  mp.nodeNumber = n;
  m.AddObject(mp);
  Simulation sim(m);
  sim.SolveDynamic(test::FullNewton());
  ExpectRel(sim.GetNodeOutput(n, OutputVariableType::Position)[0], 2.0);
}

// Node1D ref [1], init [0.5], vel [0.5]; Mass1D m=1: Position x of the body = 2.0.
TEST(ImplicitMiniExamples, ObjectMass1D) {
  Model m;
  AddGround(m);
  Node1D n1;
  n1.referenceCoordinates = {1};
  n1.initialCoordinates = {0.5};
  n1.initialVelocities = {0.5};
  ObjectMass1D mass;
  mass.mass = 1;
  mass.nodeNumber = m.AddNode(n1);
  const ObjectIndex o = m.AddObject(mass);
  Simulation sim(m);
  sim.SolveDynamic(test::FullNewton());
  ExpectRel(sim.GetObjectOutputBody(o, OutputVariableType::Position)[0], 2.0);
}

// Node1D as above; RotationalMass1D J=1: Rotation = 2.0.
TEST(ImplicitMiniExamples, ObjectRotationalMass1D) {
  Model m;
  AddGround(m);
  Node1D n1;
  n1.referenceCoordinates = {1};
  n1.initialCoordinates = {0.5};
  n1.initialVelocities = {0.5};
  ObjectRotationalMass1D rot;
  rot.inertia = 1;
  rot.nodeNumber = m.AddNode(n1);
  const ObjectIndex o = m.AddObject(rot);
  Simulation sim(m);
  sim.SolveDynamic(test::FullNewton());
  ExpectRel(sim.GetObjectOutputBody(o, OutputVariableType::Rotation)[0], 2.0);
}

// NodeRigidBody2D ref [1,1,pi/4], init [0.5,0,0], vel [0.5,0,0.75 pi]; m=1, J=2:
// Position x + Coordinates[2] = 4.356194490192344.
TEST(ImplicitMiniExamples, ObjectRigidBody2D) {
  Model m;
  AddGround(m);
  NodeRigidBody2D nd;
  nd.referenceCoordinates = {1, 1, 0.25 * M_PI};
  nd.initialCoordinates = {0.5, 0, 0};
  nd.initialVelocities = {0.5, 0, 0.75 * M_PI};
  const NodeIndex n = m.AddNode(nd);
  ObjectRigidBody2D rb;
  rb.mass = 1;
  rb.inertia = 2;
  rb.nodeNumber = n;
  m.AddObject(rb);
  Simulation sim(m);
  sim.SolveDynamic(test::FullNewton());
  ExpectRel(sim.GetNodeOutput(n, OutputVariableType::Position)[0] + sim.GetNodeOutput(n, OutputVariableType::Coordinates)[2],
            4.356194490192344);
}

// Two NodePoints at [0,0,0] and [1,0,0]; GenericODE2 with M = 0.5 I6, K = [[2k,-k],[-k,k]] (x) I3
// (k=5000), D likewise with d=50; Force [10,0,0] on node 1; TrapezoidalIndex2:
// x of node 1 = 1.0039999999354785.
TEST(ImplicitMiniExamples, ObjectGenericODE2_TrapezoidalIndex2) {
  Model m;
  AddGround(m);
  NodePoint a, b;
  b.referenceCoordinates = {1, 0, 0};
  const NodeIndex n0 = m.AddNode(a), n1 = m.AddNode(b);
  const double k = 5000, d = 50;
  std::vector<double> K(36, 0.), D(36, 0.), M(36, 0.);
  for (int i = 0; i < 3; ++i) {
    const int j = i + 3;
    K[static_cast<size_t>(i * 6 + i)] = 2 * k;
    K[static_cast<size_t>(i * 6 + j)] = -k;
    K[static_cast<size_t>(j * 6 + i)] = -k;
    K[static_cast<size_t>(j * 6 + j)] = k;
    D[static_cast<size_t>(i * 6 + i)] = 2 * d;
    D[static_cast<size_t>(i * 6 + j)] = -d;
    D[static_cast<size_t>(j * 6 + i)] = -d;
    D[static_cast<size_t>(j * 6 + j)] = d;
  }
  for (int i = 0; i < 6; ++i) M[static_cast<size_t>(i * 6 + i)] = 0.5;
  ObjectGenericODE2 g;
  g.nodeNumbers = {n0, n1};
  g.massMatrix = Matrix(6, 6, M);
  g.stiffnessMatrix = Matrix(6, 6, K);
  g.dampingMatrix = Matrix(6, 6, D);
  m.AddObject(g);
  MarkerNodePosition mk;
  mk.nodeNumber = n1;
  LoadForceVector f;
  f.markerNumber = m.AddMarker(mk);
  f.loadVector = {10, 0, 0};
  m.AddLoad(f);
  Simulation sim(m);
  sim.SolveDynamic(test::FullNewton(), DynamicSolverType::TrapezoidalIndex2);
  ExpectRel(sim.GetNodeOutput(n1, OutputVariableType::Position)[0], 1.0039999999354785);
}

// A MassPoint on the NodePoint np, after a ground object and a ground node, with a
// MarkerBodyPosition on the ground object at groundPoint and a MarkerNodePosition on the node:
// the markers a connector to ground joins.
struct MassOnGround {
  Model m;
  NodeIndex node;
  std::array<MarkerIndex, 2> markers;  ///< ground, mass
};
MassOnGround MakeMassOnGround(Real mass, const NodePoint& np, const Vector3D& groundPoint = {0, 0, 0}) {
  MassOnGround r;
  const ObjectIndex og = r.m.AddObject(ObjectGround{});
  r.m.AddNode(NodePointGround{});
  r.node = r.m.AddNode(np);
  ObjectMassPoint mp;
  mp.mass = mass;
  mp.nodeNumber = r.node;
  r.m.AddObject(mp);
  MarkerBodyPosition mg;
  mg.bodyNumber = og;
  mg.localPosition = groundPoint;
  MarkerNodePosition mn;
  mn.nodeNumber = r.node;
  r.markers = {r.m.AddMarker(mg), r.m.AddMarker(mn)};
  return r;
}

// NodePoint at [1.05,0,0]; MassPoint m=1; SpringDamper from a ground marker at the origin,
// L0=1, k=100, d=1: x = 0.9733828995763039. Also with the law as springForceUserFunction
// (Exudyn's example of it, k u + d v + F0, evaluated by muParser).
TEST(ImplicitMiniExamples, ObjectConnectorSpringDamper) {
  for (const char* userFunction : {"", "stiffness*deltaL + damping*deltaL_t + force"}) {
    NodePoint np;
    np.referenceCoordinates = {1.05, 0, 0};
    MassOnGround c = MakeMassOnGround(1, np);
    ObjectConnectorSpringDamper sd;
    sd.markerNumbers = c.markers;
    sd.referenceLength = 1;
    sd.stiffness = 100;
    sd.damping = 1;
    sd.springForceUserFunction.expression = userFunction;
    c.m.AddObject(sd);
    Simulation sim(c.m);
    sim.SolveDynamic(test::FullNewton());
    ExpectRel(sim.GetNodeOutput(c.node, OutputVariableType::Position)[0], 0.9733828995763039);
  }
}

// RK44 with h = 2.5e-4 to t = 1: the analytic tests of the connectors' user functions.
SimulationSettings FineRK44() {
  SimulationSettings s;
  s.timeIntegration.numberOfSteps = 4000;
  s.timeIntegration.endTime = 1;
  return s;
}

// A mass m on a SpringDamper to the origin (L0 = 1) whose springForceUserFunction adds a
// harmonic force to the linear spring, stiffness*deltaL + A*sin(w*t); from rest at x = L0 + y0
// the elongation y = x - L0 obeys m y'' + k y = -A sin(w t):
//   y(t) = y0 cos(w0 t) - C w/w0 sin(w0 t) + C sin(w t),  C = -A/(k - m w^2),  w0^2 = k/m.
// FineRK44 (its error here: 4.8e-14); the connector's ForceLocal output is the function's value.
TEST(ImplicitMiniExamples, SpringDamperUserFunctionAnalytic) {
  const Real mass = 2, k = 50, A = 3, w = 7, y0 = 0.1, L0 = 1;
  NodePoint np;
  np.referenceCoordinates = {L0 + y0, 0, 0};
  MassOnGround c = MakeMassOnGround(mass, np);
  ObjectConnectorSpringDamper sd;
  sd.markerNumbers = c.markers;
  sd.referenceLength = L0;
  sd.stiffness = k;
  sd.springForceUserFunction = {"stiffness*deltaL + A*sin(w*t)", {{"A", A}, {"w", w}}};
  const ObjectIndex spring = c.m.AddObject(sd);
  Simulation sim(c.m);
  sim.SolveDynamic(FineRK44(), DynamicSolverType::RK44);
  const Real t = 1, w0 = std::sqrt(k / mass), C = -A / (k - mass * w * w);
  const Real y = y0 * std::cos(w0 * t) - C * w / w0 * std::sin(w0 * t) + C * std::sin(w * t);
  const std::vector<double> p = sim.GetNodeOutput(c.node, OutputVariableType::Position);
  EXPECT_NEAR(p[0] - L0, y, 1e-12);
  EXPECT_EQ(p[1], 0);
  EXPECT_NEAR(sim.GetObjectOutput(spring, OutputVariableType::ForceLocal)[0], k * (p[0] - L0) + A * std::sin(w * t),
              1e-12);
}

// Point at [1,1,0]; m=5; CartesianSpringDamper from a ground marker at [1,1,0], k=[5000]*3,
// d=[0,250,0]; Force [0,-5,0]: y displacement = -0.0009999999999750209. Also with the law as
// springForceUserFunction (three expressions, evaluated by muParser).
TEST(ImplicitMiniExamples, ObjectConnectorCartesianSpringDamper) {
  for (const char* userFunction : {"", "stiffness[0]*displacement[0] + damping[0]*velocity[0], "
                                       "stiffness[1]*displacement[1] + damping[1]*velocity[1], "
                                       "stiffness[2]*displacement[2] + damping[2]*velocity[2]"}) {
    NodePoint np;
    np.referenceCoordinates = {1, 1, 0};
    MassOnGround c = MakeMassOnGround(5, np, {1, 1, 0});
    ObjectConnectorCartesianSpringDamper sd;
    sd.markerNumbers = c.markers;
    sd.stiffness = {5000, 5000, 5000};
    sd.damping = {0, 250, 0};
    sd.springForceUserFunction.expression = userFunction;
    c.m.AddObject(sd);
    LoadForceVector f;
    f.markerNumber = c.markers[1];
    f.loadVector = {0, -5, 0};
    c.m.AddLoad(f);
    Simulation sim(c.m);
    sim.SolveDynamic(test::FullNewton());
    ExpectRel(sim.GetNodeOutput(c.node, OutputVariableType::Displacement)[1], -0.0009999999999750209);
  }
}

// A mass m on a CartesianSpringDamper to its reference point whose springForceUserFunction
// gives each direction its own law: x a spring kx, y a spring ky (stiffness[1]) plus the force
// A cos(w t), z free. From the initial displacement [x0, y0, 0] and velocity [0, 0, vz]:
//   x = x0 cos(wx t),  y = (y0 - C) cos(wy t) + C cos(w t),  C = -A/(ky - m w^2),  z = vz t,
// with wx^2 = kx/m, wy^2 = ky/m. FineRK44 (its errors here: 3.0e-14, 1.8e-14, 3.2e-14).
TEST(ImplicitMiniExamples, CartesianSpringDamperUserFunctionAnalytic) {
  const Real mass = 2, kx = 50, ky = 18, A = 3, w = 7, x0 = 0.1, y0 = -0.05, vz = 0.3;
  NodePoint np;
  np.initialCoordinates = {x0, y0, 0};
  np.initialVelocities = {0, 0, vz};
  MassOnGround c = MakeMassOnGround(mass, np);
  ObjectConnectorCartesianSpringDamper sd;
  sd.markerNumbers = c.markers;
  sd.stiffness = {0, ky, 0};
  sd.springForceUserFunction = {"kx*displacement[0], stiffness[1]*displacement[1] + A*cos(w*t), 0",
                                {{"kx", kx}, {"A", A}, {"w", w}}};
  const ObjectIndex spring = c.m.AddObject(sd);
  Simulation sim(c.m);
  sim.SolveDynamic(FineRK44(), DynamicSolverType::RK44);
  const Real t = 1, C = -A / (ky - mass * w * w);
  const std::vector<double> p = sim.GetNodeOutput(c.node, OutputVariableType::Position);
  EXPECT_NEAR(p[0], x0 * std::cos(std::sqrt(kx / mass) * t), 1e-12);
  EXPECT_NEAR(p[1], (y0 - C) * std::cos(std::sqrt(ky / mass) * t) + C * std::cos(w * t), 1e-12);
  EXPECT_NEAR(p[2], vz * t, 1e-13);
  const std::vector<double> force = sim.GetObjectOutput(spring, OutputVariableType::Force);
  EXPECT_NEAR(force[0], kx * p[0], 1e-12);
  EXPECT_NEAR(force[1], ky * p[1] + A * std::cos(w * t), 1e-12);
  EXPECT_EQ(force[2], 0);
}

// Point2D [1,0]; MassPoint2D m=50; DistanceConstraint to a ground marker at the origin,
// distance 1; Force [0,-50*9.81,0]; rho = 0.7: x = -0.9861806726069355.
TEST(ImplicitMiniExamples, ObjectConnectorDistance) {
  Model m;
  ObjectGround g;
  const ObjectIndex og = m.AddObject(g);
  NodePointGround ng;
  m.AddNode(ng);
  NodePoint2D np;
  np.referenceCoordinates = {1, 0};
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint2D mp;
  mp.mass = 50;
  mp.nodeNumber = n;
  m.AddObject(mp);
  MarkerBodyPosition mg;
  mg.bodyNumber = og;
  MarkerNodePosition mn;
  mn.nodeNumber = n;
  const MarkerIndex mgi = m.AddMarker(mg), mni = m.AddMarker(mn);
  ObjectConnectorDistance dc;
  dc.markerNumbers = {mgi, mni};
  dc.distance = 1;
  m.AddObject(dc);
  LoadForceVector f;
  f.markerNumber = mni;
  f.loadVector = {0, -50 * 9.81, 0};
  m.AddLoad(f);
  Simulation sim(m);
  SimulationSettings s = test::FullNewton();
  s.timeIntegration.generalizedAlpha.spectralRadius = 0.7;
  sim.SolveDynamic(s);
  ExpectRel(sim.GetNodeOutput(n, OutputVariableType::Position)[0], -0.9861806726069355);
}

// Point at [2,0,0] with m=5 and a coordinate marker on it and on a ground node: the model of
// Exudyn's coordinate-connector mini examples, before the connector.
struct CoordinateModel {
  Model m;
  NodeIndex node;
  std::array<MarkerIndex, 2> markers;  ///< ground coordinate, x
};
CoordinateModel MakeCoordinateModel() {
  CoordinateModel c;
  AddGround(c.m);
  NodePointGround ng;
  const NodeIndex ngi = c.m.AddNode(ng);
  NodePoint np;
  np.referenceCoordinates = {2, 0, 0};
  c.node = c.m.AddNode(np);
  ObjectMassPoint mp;
  mp.mass = 5;
  mp.nodeNumber = c.node;
  c.m.AddObject(mp);
  MarkerNodeCoordinate c0, c1;
  c0.nodeNumber = ngi;
  c1.nodeNumber = c.node;
  c.markers = {c.m.AddMarker(c0), c.m.AddMarker(c1)};
  return c;
}

// CoordinateSpringDamper from the ground coordinate to x, k=5000, d=80, with the user function
// 0.1 k u + k u^3 + d v (Exudyn's example: its Jacobian by forward differences);
// LoadCoordinate 1: x displacement = 0.0019995154213252597.
TEST(ImplicitMiniExamples, ObjectConnectorCoordinateSpringDamperUserFunction) {
  CoordinateModel c = MakeCoordinateModel();
  ObjectConnectorCoordinateSpringDamper sd;
  sd.markerNumbers = c.markers;
  sd.stiffness = 5000;
  sd.damping = 80;
  sd.springForceUserFunction.expression = "0.1*k*u + k*u^3 + d*v";
  const ObjectIndex spring = c.m.AddObject(sd);
  LoadCoordinate load;
  load.markerNumber = c.markers[1];
  load.load = 1;
  c.m.AddLoad(load);
  Simulation sim(c.m);
  sim.SolveDynamic(test::FullNewton());
  const Real x = sim.GetNodeOutput(c.node, OutputVariableType::Displacement)[0];
  EXPECT_NEAR(x, 0.0019995154213252597, 1e-15);  // 0.001999515421325487 here
  // the connector's Force output is the user function's value
  const Real v = sim.GetNodeOutput(c.node, OutputVariableType::Velocity)[0];
  EXPECT_NEAR(sim.GetObjectOutput(spring, OutputVariableType::Force)[0], 0.1 * 5000 * x + 5000 * x * x * x + 80 * v,
              1e-15);
}

// CoordinateConstraint from the ground coordinate to x, offset 0.1 with the offset user
// function 0.5(1 - cos(0.5 pi t)): x displacement = 0.04999999999999982. The function as a
// Harmonic (0.5 + 0.5 sin(0.5 pi t - pi/2)) and as an expression of t, written as Exudyn's
// example writes it (evaluated by muParser on the reference solver).
TEST(ImplicitMiniExamples, ObjectConnectorCoordinate) {
  for (const TimeFunction& f : {TimeFunction::Harmonic(0.5, 0.5 * M_PI, -0.5 * M_PI, 0.5),
                                TimeFunction::Expression("0.5*(1-cos(0.5*_pi*t))")}) {
    CoordinateModel c = MakeCoordinateModel();
    ObjectConnectorCoordinate cc;
    cc.markerNumbers = c.markers;
    cc.offset = 0.1;
    cc.offsetTimeFunction = f;
    c.m.AddObject(cc);
    Simulation sim(c.m);
    sim.SolveDynamic(test::FullNewton());
    EXPECT_NEAR(sim.GetNodeOutput(c.node, OutputVariableType::Displacement)[0], 0.04999999999999982, 1e-15)
        << static_cast<int>(f.type);
  }
}

// Point at [1,0,0]; MassPoint m=2; Gravity [0,0,-9.81] on MarkerBodyMass: z = -4.904999999999998.
// Also with a loadVectorUserFunction that returns the load vector (its arguments
// loadVector[0..2], evaluated by muParser), and with one that writes -9.81 itself.
TEST(ImplicitMiniExamples, LoadMassProportional) {
  for (const char* userFunction : {"", "loadVector[0], loadVector[1], loadVector[2]", "0, 0, -9.81"}) {
    Model m;
    AddGround(m);
    NodePoint np;
    np.referenceCoordinates = {1, 0, 0};
    const NodeIndex n = m.AddNode(np);
    ObjectMassPoint mp;
    mp.mass = 2;
    mp.nodeNumber = n;
    const ObjectIndex o = m.AddObject(mp);
    MarkerBodyMass bm;
    bm.bodyNumber = o;
    LoadMassProportional g;
    g.markerNumber = m.AddMarker(bm);
    g.loadVector = {0, 0, -9.81};
    g.loadVectorUserFunction.expression = userFunction;
    m.AddLoad(g);
    Simulation sim(m);
    sim.SolveDynamic(test::FullNewton());
    ExpectRel(sim.GetNodeOutput(n, OutputVariableType::Position)[2], -4.904999999999998);
  }
}

// A free mass point m (from rest at the origin) under the rotating force
// [F cos(w t), F sin(w t), 0] (loadVectorUserFunction, F and w its parameters):
//   x(t) = F/(m w^2) (1 - cos(w t)),  y(t) = F/(m w) (t - sin(w t)/w).
// RK44 with h = 1e-3 to t = 1 (its error here: 2.3e-13 at most); and a LoadCoordinate whose
// loadUserFunction load*cos(w*t) drives the z coordinate: z = load/(m w^2) (1 - cos(w t)).
TEST(ImplicitMiniExamples, LoadUserFunctionsAnalytic) {
  const Real mass = 2, F = 3, w = 7;
  Model m;
  const NodeIndex n = m.AddNode(NodePoint{});
  ObjectMassPoint mp;
  mp.mass = mass;
  mp.nodeNumber = n;
  const ObjectIndex o = m.AddObject(mp);
  MarkerBodyPosition bp;
  bp.bodyNumber = o;
  LoadForceVector f;
  f.markerNumber = m.AddMarker(bp);
  f.loadVectorUserFunction = {"F*cos(w*t), F*sin(w*t), 0", {{"F", F}, {"w", 1}}};
  m.AddLoad(f);
  MarkerNodeCoordinate cz;
  cz.nodeNumber = n;
  cz.coordinate = 2;
  LoadCoordinate lz;
  lz.markerNumber = m.AddMarker(cz);
  lz.load = 0.5;
  lz.loadUserFunction = {"load*cos(w*t)", {{"w", w}}};
  m.AddLoad(lz);
  Simulation sim(m);
  sim.SetParameter("load0.loadVectorUserFunction.w", w);  // its parameters are theta slots
  SimulationSettings s;
  s.timeIntegration.numberOfSteps = 1000;
  s.timeIntegration.endTime = 1;
  sim.SolveDynamic(s, DynamicSolverType::RK44);
  const std::vector<double> p = sim.GetNodeOutput(n, OutputVariableType::Position);
  const Real t = 1;
  EXPECT_NEAR(p[0], F / (mass * w * w) * (1 - std::cos(w * t)), 1e-12);
  EXPECT_NEAR(p[1], F / (mass * w) * (t - std::sin(w * t) / w), 1e-12);
  EXPECT_NEAR(p[2], 0.5 / (mass * w * w) * (1 - std::cos(w * t)), 1e-12);
}

}  // namespace
}  // namespace mbsweep
