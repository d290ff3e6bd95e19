// Tests of Model::Compile (coordinates, theta paths, records; common/model.h, layout.h,
// layout_records.h) and of the host/device physics in common/system.h and outputs.h
// against hand-computed references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/creators.h"
#include "common/model.h"
#include "common/outputs.h"
#include "common/system.h"

namespace mbsweep {
namespace {

/// Plain dense sink for mass matrices and Jacobians (row-major n x n).
struct DenseSink {
  int n;
  std::vector<Real> a;
  explicit DenseSink(int size) : n(size), a(static_cast<size_t>(size * size), 0.) {}
  void add(int i, int j, Real v) { a[static_cast<size_t>(i * n + j)] += v; }
  Real operator()(int i, int j) const { return a[static_cast<size_t>(i * n + j)]; }
};

/// Message of the ValidationError thrown by f, or a marker string if none was thrown.
template <class F> std::string ErrorOf(F&& f) {
  try {
    f();
  } catch (const ValidationError& e) {
    return e.what();
  }
  return "<no ValidationError thrown>";
}

NodePoint MakeNodePoint(Vector3D ref, std::string name = "") {
  NodePoint n;
  n.name = std::move(name);
  n.referenceCoordinates = ref;
  return n;
}
MarkerNodePosition NodePositionMarker(NodeIndex n) {
  MarkerNodePosition mk;
  mk.nodeNumber = n;
  return mk;
}
MarkerNodeCoordinate CoordinateMarker(NodeIndex n, int c) {
  MarkerNodeCoordinate mk;
  mk.nodeNumber = n;
  mk.coordinate = c;
  return mk;
}
MarkerIndex AddGroundMarker(Model& m) {
  const ObjectIndex g = m.AddObject(ObjectGround{});
  MarkerBodyPosition mk;
  mk.bodyNumber = g;
  return m.AddMarker(mk);
}

/// Value of sensor `s` (all components).
std::vector<Real> Sensor(const Layout& L, const std::vector<Real>& theta, const StateView& st, int s) {
  Real out[kMaxSensorValues];
  const int n = SensorOutput(L.View(), theta.data(), st, s, out, kMaxSensorValues);
  return std::vector<Real>(out, out + n);
}

// --------------------------------------- coordinates ---------------------------------------

// ODE2/ODE1 coordinates are numbered in node order, each kind in its own range.
TEST(Compile, CoordinateAssignment) {
  Model m;
  m.AddNode(NodePoint{});
  m.AddNode(NodePoint2D{});
  NodeGenericODE1 y;
  y.numberOfODE1Coordinates = 2;
  m.AddNode(y);
  const Layout L = m.Compile();
  const LayoutView V = L.View();
  EXPECT_EQ(L.nODE2, 5);
  EXPECT_EQ(L.nODE1, 2);
  EXPECT_EQ(L.nAE, 0);
  EXPECT_EQ(V.nNodes, 3);
  const NodeRecord r0 = GetNodeRecord(V, 0), r1 = GetNodeRecord(V, 1), r2 = GetNodeRecord(V, 2);
  EXPECT_EQ(r0.nODE2, 3);
  EXPECT_EQ(r0.ode2Begin, 0);
  EXPECT_EQ(r0.nODE1, 0);
  EXPECT_EQ(r1.nODE2, 2);
  EXPECT_EQ(r1.ode2Begin, 3);
  EXPECT_EQ(r2.nODE2, 0);
  EXPECT_EQ(r2.ode2Begin, -1);
  EXPECT_EQ(r2.nODE1, 2);
  EXPECT_EQ(r2.ode1Begin, 0);
  EXPECT_EQ(r2.nAE, 0);
  EXPECT_EQ(V.node[1].kind, static_cast<int>(NodeKind::Point2D));
  EXPECT_EQ(V.node[2].kind, static_cast<int>(NodeKind::GenericODE1));
}

// Interleaved node kinds, including a ground node without coordinates.
TEST(Compile, CoordinateAssignmentInterleaved) {
  Model m;
  NodeGenericODE1 y1;
  y1.numberOfODE1Coordinates = 1;
  m.AddNode(y1);                      // ODE1 0
  m.AddNode(Node1D{});                // ODE2 0
  m.AddNode(NodePointGround{});       // none
  m.AddNode(NodeRigidBody2D{});       // ODE2 1..3
  NodeGenericODE2 g;
  g.numberOfODE2Coordinates = 4;
  m.AddNode(g);                       // ODE2 4..7
  NodeGenericODE1 y3;
  y3.numberOfODE1Coordinates = 3;
  m.AddNode(y3);                      // ODE1 1..3
  const Layout L = m.Compile();
  const LayoutView V = L.View();
  EXPECT_EQ(L.nODE2, 8);
  EXPECT_EQ(L.nODE1, 4);
  const int ode2Begin[] = {-1, 0, -1, 1, 4, -1}, nODE2[] = {0, 1, 0, 3, 4, 0};
  const int ode1Begin[] = {0, -1, -1, -1, -1, 1}, nODE1[] = {1, 0, 0, 0, 0, 3};
  for (int i = 0; i < 6; ++i) {
    const NodeRecord r = GetNodeRecord(V, i);
    EXPECT_EQ(r.ode2Begin, ode2Begin[i]) << "node " << i;
    EXPECT_EQ(r.nODE2, nODE2[i]) << "node " << i;
    EXPECT_EQ(r.ode1Begin, ode1Begin[i]) << "node " << i;
    EXPECT_EQ(r.nODE1, nODE1[i]) << "node " << i;
  }
}

// --------------------------------------- theta ---------------------------------------------

/// node0 NodePoint; object0 ground; object1 "mass"; marker0 ground position, marker1 node0 position;
/// object2 "spring"; marker2 node0 coordinate 2; load0 harmonic LoadCoordinate; sensor "sb" on mass.
Model ThetaModel() {
  Model m;
  NodePoint n;
  n.referenceCoordinates = {1, 2, 3};
  n.initialCoordinates = {0.1, 0.2, 0.3};
  n.initialVelocities = {4, 5, 6};
  m.AddNode(n);
  ObjectGround g;
  g.referencePosition = {7, 8, 9};
  m.AddObject(g);
  ObjectMassPoint mp;
  mp.name = "mass";
  mp.mass = 2.5;
  mp.nodeNumber = NodeIndex(0);
  m.AddObject(mp);
  MarkerBodyPosition gm;
  gm.bodyNumber = ObjectIndex(0);
  gm.localPosition = {0.5, 0.25, 0.125};
  m.AddMarker(gm);
  m.AddMarker(NodePositionMarker(NodeIndex(0)));
  ObjectConnectorSpringDamper s;
  s.name = "spring";
  s.markerNumbers = {MarkerIndex(0), MarkerIndex(1)};
  s.referenceLength = 1;
  s.stiffness = 100;
  s.damping = 1.5;
  s.force = -2;
  s.velocityOffset = 0.75;
  m.AddObject(s);
  m.AddMarker(CoordinateMarker(NodeIndex(0), 2));
  LoadCoordinate l;
  l.markerNumber = MarkerIndex(2);
  l.load = 3;
  l.timeFunction = TimeFunction::Harmonic(2, 10, 0.5, 0.25);
  m.AddLoad(l);
  SensorBody sb;
  sb.name = "sb";
  sb.bodyNumber = ObjectIndex(1);
  sb.localPosition = {-1, -2, -3};
  sb.outputVariableType = OutputVariableType::Position;
  m.AddSensor(sb);
  return m;
}

// Theta paths list every Real parameter in the order nodes, markers, objects, loads, sensors.
TEST(CompileTheta, PathsInOrder) {
  const Layout L = ThetaModel().Compile();
  std::vector<std::string> expected;
  for (const char* f : {"referenceCoordinates", "initialCoordinates", "initialVelocities"})
    for (int i = 0; i < 3; ++i) expected.push_back(std::string("node0.") + f + "[" + std::to_string(i) + "]");
  for (int i = 0; i < 3; ++i) expected.push_back("marker0.localPosition[" + std::to_string(i) + "]");
  for (int i = 0; i < 3; ++i) expected.push_back("object0.referencePosition[" + std::to_string(i) + "]");
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      expected.push_back("object0.referenceRotation[" + std::to_string(i) + "][" + std::to_string(j) + "]");
  expected.push_back("mass.mass");
  for (const char* f : {"referenceLength", "stiffness", "damping", "force", "velocityOffset"})
    expected.push_back(std::string("spring.") + f);
  expected.push_back("load0.load");
  for (const char* f : {"amplitude", "angularFrequency", "phase", "offset"})
    expected.push_back(std::string("load0.timeFunction.") + f);
  for (int i = 0; i < 3; ++i) expected.push_back("sb.localPosition[" + std::to_string(i) + "]");
  EXPECT_EQ(L.thetaPaths, expected);
  EXPECT_EQ(L.ThetaSize(), 38);
  EXPECT_EQ(L.View().nTheta, 38);
  EXPECT_EQ(L.objectNames, (std::vector<std::string>{"object0", "mass", "spring"}));
  EXPECT_EQ(L.sensorNames, (std::vector<std::string>{"sb"}));
}

// Theta0 has one value per path, at the index ThetaIndex reports; item theta offsets point at their first slot.
TEST(CompileTheta, Theta0ValuesAtPaths) {
  const Model m = ThetaModel();
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  ASSERT_EQ(th.size(), L.thetaPaths.size());
  EXPECT_EQ(th[L.ThetaIndex("node0.referenceCoordinates[1]")], 2.);
  EXPECT_EQ(th[L.ThetaIndex("node0.initialCoordinates[2]")], 0.3);
  EXPECT_EQ(th[L.ThetaIndex("node0.initialVelocities[0]")], 4.);
  EXPECT_EQ(th[L.ThetaIndex("marker0.localPosition[2]")], 0.125);
  EXPECT_EQ(th[L.ThetaIndex("object0.referencePosition[1]")], 8.);
  EXPECT_EQ(th[L.ThetaIndex("object0.referenceRotation[1][1]")], 1.);
  EXPECT_EQ(th[L.ThetaIndex("object0.referenceRotation[1][2]")], 0.);
  EXPECT_EQ(th[L.ThetaIndex("mass.mass")], 2.5);
  EXPECT_EQ(th[L.ThetaIndex("spring.stiffness")], 100.);
  EXPECT_EQ(th[L.ThetaIndex("spring.velocityOffset")], 0.75);
  EXPECT_EQ(th[L.ThetaIndex("load0.load")], 3.);
  EXPECT_EQ(th[L.ThetaIndex("load0.timeFunction.amplitude")], 2.);
  EXPECT_EQ(th[L.ThetaIndex("load0.timeFunction.offset")], 0.25);
  EXPECT_EQ(th[L.ThetaIndex("sb.localPosition[2]")], -3.);
  EXPECT_EQ(L.nodes[0].theta, 0);
  EXPECT_EQ(L.markers[0].theta, L.ThetaIndex("marker0.localPosition[0]"));
  EXPECT_EQ(L.objects[0].theta, L.ThetaIndex("object0.referencePosition[0]"));
  EXPECT_EQ(L.objects[1].theta, L.ThetaIndex("mass.mass"));
  EXPECT_EQ(L.objects[2].theta, L.ThetaIndex("spring.referenceLength"));
  EXPECT_EQ(L.loads[0].theta, L.ThetaIndex("load0.load"));
  EXPECT_EQ(L.sensors[0].theta, L.ThetaIndex("sb.localPosition[0]"));
}

// Matrix parameters of generic objects have [row][column] paths; absent matrices have none.
TEST(CompileTheta, GenericMatrixPaths) {
  Model m;
  NodeGenericODE2 n;
  n.name = "g";
  n.numberOfODE2Coordinates = 2;
  n.referenceCoordinates = {0.5, -0.5};
  m.AddNode(n);
  ObjectGenericODE2 o;
  o.name = "gen";
  o.nodeNumbers = {NodeIndex(0)};
  o.massMatrix = Matrix(2, 2, {1, 2, 3, 4});
  o.dampingMatrix = Matrix(2, 2, {5, 6, 7, 8});
  o.forceVector = {9, 10};
  m.AddObject(o);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  ASSERT_EQ(th.size(), L.thetaPaths.size());
  EXPECT_EQ(L.ThetaSize(), 6 + 4 + 4 + 2);
  EXPECT_EQ(th[L.ThetaIndex("g.referenceCoordinates[1]")], -0.5);
  EXPECT_EQ(th[L.ThetaIndex("g.initialCoordinates_t[1]")], 0.);
  EXPECT_EQ(th[L.ThetaIndex("gen.massMatrix[0][1]")], 2.);
  EXPECT_EQ(th[L.ThetaIndex("gen.massMatrix[1][0]")], 3.);
  EXPECT_EQ(th[L.ThetaIndex("gen.dampingMatrix[1][0]")], 7.);
  EXPECT_EQ(th[L.ThetaIndex("gen.forceVector[1]")], 10.);
  EXPECT_EQ(L.ThetaIndex("gen.massMatrix[0][0]"), L.objects[0].theta);
  EXPECT_THROW(L.ThetaIndex("gen.stiffnessMatrix[0][0]"), ValidationError);
  const ObjectRecord r = GetObjectRecord(L.View(), 0);
  EXPECT_EQ(r.extra[0], 1);  // hasM
  EXPECT_EQ(r.extra[1], 0);  // hasK
  EXPECT_EQ(r.extra[2], 1);  // hasD
  EXPECT_EQ(r.extra[3], 1);  // hasF
}

// An unknown path throws ValidationError suggesting the closest known path first.
TEST(CompileTheta, UnknownPathSuggestsClosest) {
  const Layout L = ThetaModel().Compile();
  const std::string msg = ErrorOf([&] { L.ThetaIndex("spring.stifness"); });
  EXPECT_EQ(msg.rfind("unknown parameter path 'spring.stifness'; did you mean 'spring.stiffness'", 0), 0u) << msg;
  const std::string msg2 = ErrorOf([&] { L.ThetaIndex("mass.physicsMas"); });
  EXPECT_NE(msg2.find("did you mean 'mass.mass'"), std::string::npos) << msg2;
  EXPECT_EQ(ErrorOf([&] { L.ThetaIndex("spring.stiffness"); }), "<no ValidationError thrown>");
}

// --------------------------------------- records -------------------------------------------

// A spring-damper between a ground marker and a NodePoint marker has the node's 3 coordinates as local coordinates.
TEST(CompileRecords, SpringDamperLocalToGlobal) {
  Model m;
  m.AddNode(NodePoint2D{});                          // ODE2 0, 1
  const NodeIndex n = m.AddNode(MakeNodePoint({}));  // ODE2 2, 3, 4
  const MarkerIndex g = AddGroundMarker(m);          // object0, marker0
  const MarkerIndex p = m.AddMarker(NodePositionMarker(n));
  ObjectConnectorSpringDamper s;
  s.markerNumbers = {g, p};
  s.activeConnector = false;
  const ObjectIndex so = m.AddObject(s);
  ObjectMassPoint mp;
  mp.mass = 1;
  mp.nodeNumber = n;
  const ObjectIndex mo = m.AddObject(mp);
  const Layout L = m.Compile();
  const LayoutView V = L.View();
  const ObjectRecord r = GetObjectRecord(V, so.value);
  ASSERT_EQ(r.nLocalODE2, 3);
  EXPECT_EQ(r.nLocalODE1, 0);
  EXPECT_EQ(r.nAE, 0);
  EXPECT_EQ(r.aeBegin, -1);
  EXPECT_EQ(r.ltgODE2[0], 2);
  EXPECT_EQ(r.ltgODE2[1], 3);
  EXPECT_EQ(r.ltgODE2[2], 4);
  EXPECT_EQ(r.extra[0], g.value);
  EXPECT_EQ(r.extra[1], p.value);
  EXPECT_EQ(r.extra[2], 0);  // activeConnector = false
  const ObjectRecord rm = GetObjectRecord(V, mo.value);
  ASSERT_EQ(rm.nLocalODE2, 3);
  EXPECT_EQ(rm.ltgODE2[0], 2);
  EXPECT_EQ(rm.extra[0], n.value);
  EXPECT_EQ(GetObjectRecord(V, 0).nLocalODE2, 0);  // ground
  const MarkerRecord mg = GetMarkerRecord(V, g.value), mn = GetMarkerRecord(V, p.value);
  EXPECT_EQ(mg.target, 0);
  EXPECT_EQ(mg.node, -1);
  EXPECT_EQ(mg.nCoords, 0);
  EXPECT_EQ(mn.target, n.value);
  EXPECT_EQ(mn.node, n.value);
  EXPECT_EQ(mn.nCoords, 3);
  EXPECT_EQ(L.maxLocalODE2, 3);
  EXPECT_TRUE(L.constantMassMatrix);
}

// A coordinate spring-damper between a ground coordinate and a node coordinate has one local coordinate.
TEST(CompileRecords, CoordinateSpringDamperLocalToGlobal) {
  Model m;
  m.AddNode(MakeNodePoint({}));  // ODE2 0..2
  const NodeIndex ground = m.AddNode(NodePointGround{});
  const MarkerIndex c0 = m.AddMarker(CoordinateMarker(ground, 0));
  const MarkerIndex c1 = m.AddMarker(CoordinateMarker(NodeIndex(0), 1));
  ObjectConnectorCoordinateSpringDamper s;
  s.markerNumbers = {c0, c1};
  m.AddObject(s);
  const Layout L = m.Compile();  // the view points into L
  const LayoutView V = L.View();
  const ObjectRecord r = GetObjectRecord(V, 0);
  ASSERT_EQ(r.nLocalODE2, 1);
  EXPECT_EQ(r.ltgODE2[0], 1);
  EXPECT_EQ(GetMarkerRecord(V, c0.value).nCoords, 0);
  EXPECT_EQ(GetMarkerRecord(V, c1.value).nCoords, 1);
  EXPECT_EQ(GetMarkerRecord(V, c1.value).coordinate, 1);
}

// The force list holds, in item order (objects, then loads), only what adds to the ODE2
// right-hand side, with coordinate indices resolved, and is split into the constant loads and
// the rest; the constraint list holds the constraint objects.
TEST(CompileRecords, ForceAndConstraintLists) {
  Model m;
  const NodeIndex n = m.AddNode(MakeNodePoint({}));  // ODE2 0..2
  const NodeIndex ground = m.AddNode(NodePointGround{});
  const MarkerIndex g0 = m.AddMarker(CoordinateMarker(ground, 0));
  const MarkerIndex c1 = m.AddMarker(CoordinateMarker(n, 1));
  const MarkerIndex c2 = m.AddMarker(CoordinateMarker(n, 2));
  ObjectMassPoint mp;  // object 0: no right-hand side
  mp.mass = 1;
  mp.nodeNumber = n;
  const ObjectIndex body = m.AddObject(mp);
  MarkerBodyMass bm;
  bm.bodyNumber = body;
  const MarkerIndex mass = m.AddMarker(bm);
  ObjectConnectorCoordinateSpringDamper inactive;  // object 1: inactive, left out
  inactive.markerNumbers = {g0, c1};
  inactive.activeConnector = false;
  m.AddObject(inactive);
  ObjectConnectorCoordinate constraint;  // object 2: a constraint, not a force
  constraint.markerNumbers = {g0, c2};
  m.AddObject(constraint);
  ObjectConnectorCoordinateSpringDamper spring;  // object 3: ground side -1, node side ODE2 1
  spring.markerNumbers = {g0, c1};
  m.AddObject(spring);
  LoadCoordinate onGround, onNode;  // load 0 on a ground coordinate (left out), load 1 on ODE2 2
  onGround.markerNumber = g0;
  onNode.markerNumber = c2;
  m.AddLoad(onGround);
  m.AddLoad(onNode);
  LoadMassProportional gravity;  // load 2 on the mass point, its coordinates from ODE2 0
  gravity.markerNumber = mass;
  gravity.loadVector = {0, -9.81, 0};
  m.AddLoad(gravity);
  LoadCoordinate harmonic;  // load 3: a time-dependent value, after the objects
  harmonic.markerNumber = c1;
  harmonic.timeFunction.type = TimeFunctionType::Harmonic;
  m.AddLoad(harmonic);
  const Layout L = m.Compile();
  const LayoutView V = L.View();
  ASSERT_EQ(V.nForces, 4);
  const int* e = V.ints + V.forceList;
  const std::vector<int> entry3 = {static_cast<int>(ForceEntry::CoordinateSpringDamper), 3, -1, 1},
                         load1 = {static_cast<int>(ForceEntry::CoordinateLoad), 1, 2, 0},
                         load2 = {static_cast<int>(ForceEntry::BodyMassLoad), 2, 0, 0},
                         load3 = {static_cast<int>(ForceEntry::CoordinateLoad), 3, 1, 0};
  auto join = [](const std::vector<std::vector<int>>& parts) {
    std::vector<int> all;
    for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
    return all;
  };
  EXPECT_EQ(std::vector<int>(e, e + 4 * kForceEntryInts), join({entry3, load1, load2, load3}));
  // split: the loads with constant values, and the rest, in the same order
  ASSERT_EQ(V.nConstantForces, 2);
  ASSERT_EQ(V.nVariableForces, 2);
  e = V.ints + V.constantForceList;
  EXPECT_EQ(std::vector<int>(e, e + 2 * kForceEntryInts), join({load1, load2}));
  e = V.ints + V.variableForceList;
  EXPECT_EQ(std::vector<int>(e, e + 2 * kForceEntryInts), join({entry3, load3}));
  EXPECT_EQ(V.nConstraintNodes, 0);
  ASSERT_EQ(V.nConstraintObjects, 1);
  EXPECT_EQ(V.ints[V.constraintList], 2);
}

// The right-hand side from its constant part (ComputeConstantODE2Forces once, then
// ComputeODE2RHSFromConstant) equals ComputeODE2RHS: bit for bit where a coordinate has at most
// one term besides its constant load, to the rounding of a reordered sum (4 units in the last
// place) where the constant loads are added before two other terms (ODE2 1 here); a
// mass-proportional load on a body with its centre of mass off the node depends on q, and the
// constant part is refused.
TEST(Physics, ConstantForcesGiveTheSameRightHandSide) {
  Model m;
  const NodeIndex n = m.AddNode(MakeNodePoint({0.1, 0.2, 0.3}));   // ODE2 0..2
  const NodeIndex n2 = m.AddNode(MakeNodePoint({1.1, 0.2, 0.3}));  // ODE2 3..5
  const NodeIndex ground = m.AddNode(NodePointGround{});
  ObjectMassPoint mp;
  mp.mass = 1.3;
  mp.nodeNumber = n;
  const ObjectIndex body = m.AddObject(mp);
  mp.mass = 0.7;
  mp.nodeNumber = n2;
  const ObjectIndex body2 = m.AddObject(mp);
  ObjectConnectorCoordinateSpringDamper spring;
  spring.markerNumbers = {m.AddMarker(CoordinateMarker(ground, 0)), m.AddMarker(CoordinateMarker(n, 0))};
  spring.stiffness = 40;
  spring.damping = 0.7;
  m.AddObject(spring);
  LoadCoordinate constant, harmonic;  // loads 0 (constant) and 1 on ODE2 1
  constant.markerNumber = harmonic.markerNumber = m.AddMarker(CoordinateMarker(n, 1));
  constant.load = 2.5;
  harmonic.load = -1.5;
  harmonic.timeFunction.type = TimeFunctionType::Harmonic;
  harmonic.timeFunction.angularFrequency = 3;
  m.AddLoad(constant);
  m.AddLoad(harmonic);
  for (ObjectIndex b : {body, body2}) {  // loads 2 and 3, constant
    MarkerBodyMass bm;
    bm.bodyNumber = b;
    LoadMassProportional gravity;
    gravity.markerNumber = m.AddMarker(bm);
    gravity.loadVector = {0.3, -9.81, 0.2};
    m.AddLoad(gravity);
  }
  const Layout L = m.Compile();
  const LayoutView V = L.View();
  ASSERT_EQ(V.nConstantForces, 3);
  const std::vector<Real> theta = m.Theta0();
  const std::vector<Real> q = {0.01, -0.02, 0.03, 0.2, 0.1, -0.3}, v = {0.5, 0.25, -0.125, 1, 2, 3};
  std::vector<Real> fConstant(6), f(6), fRef(6);
  ASSERT_TRUE(ComputeConstantODE2Forces(V, theta.data(), fConstant.data()));
  for (Real t : {0.0, 0.37, 1.9}) {
    ComputeODE2RHSFromConstant(V, theta.data(), t, q.data(), v.data(), fConstant.data(), f.data());
    ComputeODE2RHS(V, theta.data(), t, q.data(), v.data(), 1, fRef.data());
    for (int i = 0; i < 6; ++i) {
      if (i == 1)
        EXPECT_LE(std::abs(f[i] - fRef[i]), 4 * 2.220446049250313e-16 * std::abs(fRef[i])) << "t " << t;
      else
        EXPECT_EQ(f[i], fRef[i]) << "t " << t << " i " << i;
    }
  }

  Model off;  // a rigid body with its centre of mass off the node
  CreateRigidBody2D(off, "link", {0.5, 0}, 0, 1, 0.1, {0.1, 0}, {}, {0, -9.81, 0});
  const Layout Loff = off.Compile();
  const std::vector<Real> thetaOff = off.Theta0();
  ASSERT_EQ(Loff.View().nConstantForces, 1);
  std::vector<Real> g(3);
  EXPECT_FALSE(ComputeConstantODE2Forces(Loff.View(), thetaOff.data(), g.data()));
}

// The planar marker table: one entry [kind, ode2Begin, nODE2, itemTheta, markerTheta] per
// marker, the kind decided from the marker, body and node kinds, in marker order.
TEST(CompileRecords, PlanarMarkerTable) {
  Model m;
  const NodeIndex ground = m.AddNode(NodePointGround{});
  const NodeIndex point3d = m.AddNode(MakeNodePoint({}));  // ODE2 0..2
  const NodeIndex point2d = m.AddNode(NodePoint2D{});      // ODE2 3..4
  const NodeIndex rigid2d = m.AddNode(NodeRigidBody2D{});  // ODE2 5..7
  const ObjectIndex oGround = m.AddObject(ObjectGround{});
  ObjectMassPoint mp3;
  mp3.nodeNumber = point3d;
  const ObjectIndex o3 = m.AddObject(mp3);
  ObjectMassPoint2D mp2;
  mp2.nodeNumber = point2d;
  const ObjectIndex o2 = m.AddObject(mp2);
  ObjectRigidBody2D rb;
  rb.nodeNumber = rigid2d;
  const ObjectIndex oRigid = m.AddObject(rb);
  auto body = [&](ObjectIndex o) {
    MarkerBodyPosition b;
    b.bodyNumber = o;
    return m.AddMarker(b);
  };
  auto node = [&](NodeIndex n) {
    MarkerNodePosition x;
    x.nodeNumber = n;
    return m.AddMarker(x);
  };
  body(oGround);                 // 0: ground body
  node(ground);                  // 1: ground node
  node(point2d);                 // 2: planar node
  node(rigid2d);                 // 3: planar rigid node
  body(o2);                      // 4: mass point 2D
  body(oRigid);                  // 5: rigid body 2D
  body(o3);                      // 6: 3D mass point: not planar
  node(point3d);                 // 7: 3D node: not planar
  m.AddMarker(CoordinateMarker(point2d, 0));  // 8: coordinate marker: not planar
  const Layout L = m.Compile();
  const LayoutView V = L.View();
  const int* e = V.ints + V.planarMarkers;
  auto k = [](PlanarMarker x) { return static_cast<int>(x); };
  const int tg = V.object[oGround.value].theta;  // the theta offsets the table copies
  auto tn = [&](NodeIndex n) { return V.node[n.value].theta; };
  auto tm = [&](int marker) { return V.marker[marker].theta; };
  EXPECT_EQ(std::vector<int>(e, e + 9 * kPlanarMarkerInts),
            (std::vector<int>{k(PlanarMarker::groundBody), 0, 0, tg, tm(0),          //
                              k(PlanarMarker::groundNode), 0, 0, tn(ground), tm(1),  //
                              k(PlanarMarker::node), 3, 2, tn(point2d), tm(2),       //
                              k(PlanarMarker::node), 5, 3, tn(rigid2d), tm(3),       //
                              k(PlanarMarker::massPoint), 3, 2, tn(point2d), tm(4),  //
                              k(PlanarMarker::rigidBody), 5, 3, tn(rigid2d), tm(5),  //
                              k(PlanarMarker::none), 0, 0, 0, 0,                     //
                              k(PlanarMarker::none), 0, 0, 0, 0,                     //
                              k(PlanarMarker::none), 0, 0, 0, 0}));
}

// --------------------------------------- mass matrix ---------------------------------------

// MassPoint: M = m*I3 on the node's coordinates.
TEST(Physics, MassMatrixMassPoint) {
  Model m;
  m.AddNode(NodePoint2D{});
  const NodeIndex n = m.AddNode(MakeNodePoint({1, 2, 3}));
  ObjectMassPoint mp;
  mp.mass = 2.5;
  mp.nodeNumber = n;
  m.AddObject(mp);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  std::vector<Real> q(5, 0.3);
  DenseSink M(5);
  ComputeMassMatrix(L.View(), th.data(), q.data(), M);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_EQ(M(i, j), (i == j && i >= 2) ? 2.5 : 0.) << i << "," << j;
}

// RigidBody2D with centre of mass c: M = [[m,0,-m(Ac)_y],[0,m,m(Ac)_x],[sym,sym,J]], A = Rz(theta_ref + q).
TEST(Physics, MassMatrixRigidBody2DWithCenterOfMass) {
  Model m;
  NodeRigidBody2D nd;
  nd.referenceCoordinates = {0.5, -0.2, 0.3};
  m.AddNode(nd);
  ObjectRigidBody2D rb;
  rb.mass = 3;
  rb.inertia = 0.7;
  rb.centerOfMass = {0.1, 0.2};
  rb.nodeNumber = NodeIndex(0);
  m.AddObject(rb);
  const Layout L = m.Compile();
  EXPECT_FALSE(L.constantMassMatrix);
  const std::vector<Real> th = m.Theta0();
  const std::vector<Real> q = {0.01, 0.02, 0.4};
  const Real phi = 0.3 + 0.4, cx = 0.1 * std::cos(phi) - 0.2 * std::sin(phi), cy = 0.1 * std::sin(phi) + 0.2 * std::cos(phi);
  const Real expected[3][3] = {{3, 0, -3 * cy}, {0, 3, 3 * cx}, {-3 * cy, 3 * cx, 0.7}};
  DenseSink M(3);
  ComputeMassMatrix(L.View(), th.data(), q.data(), M);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(M(i, j), expected[i][j], 1e-14) << i << "," << j;
}

// --------------------------------------- connectors ----------------------------------------

// SpringDamper from the ground origin to a node at [1.05,0.1,0], v = [0.3,0.2,0.1], k = 100, d = 1, L0 = 1:
// F = k(L - L0) + d u.v = 5.792726008948711 and f = -F u on the node.
TEST(Physics, SpringDamperForce) {
  Model m;
  const NodeIndex n = m.AddNode(MakeNodePoint({1, 0, 0}));
  const MarkerIndex g = AddGroundMarker(m);
  const MarkerIndex p = m.AddMarker(NodePositionMarker(n));
  ObjectConnectorSpringDamper s;
  s.name = "spring";
  s.markerNumbers = {g, p};
  s.referenceLength = 1;
  s.stiffness = 100;
  s.damping = 1;
  const ObjectIndex so = m.AddObject(s);
  SensorObject sf, sl, sd;
  sf.objectNumber = sl.objectNumber = sd.objectNumber = so;
  sf.outputVariableType = OutputVariableType::Force;
  sl.outputVariableType = OutputVariableType::ForceLocal;
  sd.outputVariableType = OutputVariableType::Distance;
  m.AddSensor(sf);
  m.AddSensor(sl);
  m.AddSensor(sd);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  std::vector<Real> q = {0.05, 0.1, 0}, v = {0.3, 0.2, 0.1}, f(3);
  ComputeODE2RHS(L.View(), th.data(), 0, q.data(), v.data(), 1, f.data());
  const Real F = 5.792726008948711, len = std::sqrt(1.05 * 1.05 + 0.1 * 0.1);
  const Real u[3] = {1.05 / len, 0.1 / len, 0};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(f[static_cast<size_t>(i)], -F * u[i], 1e-12) << i;
  StateView st;
  st.q = q.data();
  st.v = v.data();
  EXPECT_NEAR(Sensor(L, th, st, 1).at(0), F, 1e-12);
  EXPECT_NEAR(Sensor(L, th, st, 2).at(0), len, 1e-15);
  const std::vector<Real> force = Sensor(L, th, st, 0);  // force on marker 0 (the ground)
  ASSERT_EQ(force.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(force[static_cast<size_t>(i)], F * u[i], 1e-12) << i;
}

// Gravity connector: |f| = G m0 m1 / r^2 for r >= d and G m0 m1 / (r^2 + (d - r)^2) for r < d, attracting.
TEST(Physics, GravityWithMinDistanceRegularization) {
  Model m;
  const NodeIndex n = m.AddNode(MakeNodePoint({0, 0, 0}));
  const MarkerIndex g = AddGroundMarker(m);
  const MarkerIndex p = m.AddMarker(NodePositionMarker(n));
  ObjectConnectorGravity c;
  c.markerNumbers = {g, p};
  c.gravitationalConstant = 2;
  c.mass0 = 3;
  c.mass1 = 5;
  c.minDistanceRegularization = 1;
  m.AddObject(c);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  const Real Gmm = 2. * 3. * 5., d = 1;
  for (const Real scale : {0.5, 0.9, 1.0, 2.0, 3.7}) {
    std::vector<Real> q = {0.6 * scale, 0, 0.8 * scale}, v(3, 0.), f(3);
    const Real r = std::sqrt(q[0] * q[0] + q[2] * q[2]);
    const Real expected = r < d ? Gmm / (r * r + (d - r) * (d - r)) : Gmm / (r * r);
    ComputeODE2RHS(L.View(), th.data(), 0, q.data(), v.data(), 1, f.data());
    const Real mag = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    EXPECT_NEAR(mag, expected, 1e-13 * expected) << "r = " << r;
    EXPECT_NEAR(f[0], -expected * q[0] / r, 1e-13 * expected) << "r = " << r;  // towards the ground origin
    EXPECT_NEAR(f[2], -expected * q[2] / r, 1e-13 * expected) << "r = " << r;
    EXPECT_EQ(f[1], 0.);
  }
  // hand values: r = 0.5 -> 30 / (0.25 + 0.25) = 60; r = 2 -> 30 / 4 = 7.5
  std::vector<Real> q = {0.3, 0, 0.4}, v(3, 0.), f(3);
  ComputeODE2RHS(L.View(), th.data(), 0, q.data(), v.data(), 1, f.data());
  EXPECT_NEAR(std::sqrt(f[0] * f[0] + f[2] * f[2]), 60., 60. * 1e-13);
  q = {1.2, 0, 1.6};
  ComputeODE2RHS(L.View(), th.data(), 0, q.data(), v.data(), 1, f.data());
  EXPECT_NEAR(std::sqrt(f[0] * f[0] + f[2] * f[2]), 7.5, 7.5 * 1e-13);
}

// CartesianSpringDamper: f = k.*(dp - offset) + d.*dv = [9.8, -1.6, -8.7] for the reference state.
TEST(Physics, CartesianSpringDamperForce) {
  Model m;
  const NodeIndex n = m.AddNode(MakeNodePoint({1.05, 0.1, 0}));
  const MarkerIndex g = AddGroundMarker(m);
  const MarkerIndex p = m.AddMarker(NodePositionMarker(n));
  ObjectConnectorCartesianSpringDamper c;
  c.markerNumbers = {g, p};
  c.stiffness = {10, 20, 30};
  c.damping = {1, 2, 3};
  c.offset = {0.1, 0.2, 0.3};
  const ObjectIndex co = m.AddObject(c);
  SensorObject sf;
  sf.objectNumber = co;
  sf.outputVariableType = OutputVariableType::Force;
  m.AddSensor(sf);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  std::vector<Real> q = {0, 0, 0}, v = {0.3, 0.2, 0.1}, f(3);
  StateView st;
  st.q = q.data();
  st.v = v.data();
  const std::vector<Real> force = Sensor(L, th, st, 0);
  const Real expected[3] = {9.8, -1.6, -8.7};
  ASSERT_EQ(force.size(), 3u);
  ComputeODE2RHS(L.View(), th.data(), 0, q.data(), v.data(), 1, f.data());
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(force[static_cast<size_t>(i)], expected[i], 1e-13) << i;
    EXPECT_NEAR(f[static_cast<size_t>(i)], -expected[i], 1e-13) << i;  // node is marker 1
  }
}

// LoadMassProportional on a MassPoint (m = 2, g = [0,0,-9.81]) gives f = [0, 0, -19.62], scaled by loadFactor.
TEST(Physics, LoadMassProportionalOnMassPoint) {
  Model m;
  m.AddNode(NodePoint2D{});
  const NodeIndex n = m.AddNode(MakeNodePoint({0, 0, 5}));
  ObjectMassPoint mp;
  mp.mass = 2;
  mp.nodeNumber = n;
  const ObjectIndex o = m.AddObject(mp);
  MarkerBodyMass bm;
  bm.bodyNumber = o;
  LoadMassProportional g;
  g.markerNumber = m.AddMarker(bm);
  g.loadVector = {0, 0, -9.81};
  m.AddLoad(g);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  std::vector<Real> q(5, 0.), v(5, 0.), f(5);
  ComputeODE2RHS(L.View(), th.data(), 0, q.data(), v.data(), 1, f.data());
  EXPECT_EQ(f, (std::vector<Real>{0, 0, 0, 0, -19.62}));
  ComputeODE2RHS(L.View(), th.data(), 0, q.data(), v.data(), 0.5, f.data());
  EXPECT_EQ(f, (std::vector<Real>{0, 0, 0, 0, -9.81}));
}

// GenericODE2: f = F - K q - D v; M assembled from massMatrix; Jacobian = -(fq K + fv D).
TEST(Physics, GenericODE2RHSMassAndJacobian) {
  Model m;
  m.AddNode(Node1D{});
  NodeGenericODE2 n;
  n.numberOfODE2Coordinates = 2;
  m.AddNode(n);
  ObjectGenericODE2 o;
  o.nodeNumbers = {NodeIndex(1)};
  o.massMatrix = Matrix(2, 2, {4, 1, 1, 3});
  o.stiffnessMatrix = Matrix(2, 2, {2, -1, -1, 2});
  o.dampingMatrix = Matrix(2, 2, {0.5, 0, 0, 0.25});
  o.forceVector = {1, 0};
  m.AddObject(o);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  std::vector<Real> q = {9, 0.5, 0.25}, v = {9, 1, -1}, f(3);
  ComputeODE2RHS(L.View(), th.data(), 0, q.data(), v.data(), 1, f.data());
  EXPECT_EQ(f[0], 0.);
  EXPECT_DOUBLE_EQ(f[1], 1 - (2 * 0.5 - 0.25) - 0.5 * 1);  // 0.25
  EXPECT_DOUBLE_EQ(f[2], 0 - (-0.5 + 0.5) - 0.25 * -1);    // 0.25
  DenseSink M(3);
  ComputeMassMatrix(L.View(), th.data(), q.data(), M);
  EXPECT_EQ(M.a, (std::vector<Real>{0, 0, 0, 0, 4, 1, 0, 1, 3}));
  DenseSink J(3);
  ComputeODE2RHSJacobian(L.View(), th.data(), 0, q.data(), v.data(), 1, 2, 10, NumDiff{}, false, J);
  EXPECT_EQ(J.a, (std::vector<Real>{0, 0, 0, 0, -2 * 2 - 10 * 0.5, 2, 0, 2, -2 * 2 - 10 * 0.25}));
}

// --------------------------------------- Jacobians -----------------------------------------

// CoordinateSpringDamper: analytic Jacobian -c on the diagonal, +c off-diagonal, c = fq k + fv d.
TEST(Jacobian, CoordinateSpringDamperAnalytic) {
  Model m;
  m.AddNode(MakeNodePoint({}));               // ODE2 0..2
  const NodeIndex a = m.AddNode(Node1D{});    // ODE2 3
  const NodeIndex b = m.AddNode(Node1D{});    // ODE2 4
  const NodeIndex gnd = m.AddNode(NodePointGround{});
  const MarkerIndex ma = m.AddMarker(CoordinateMarker(a, 0));
  const MarkerIndex mb = m.AddMarker(CoordinateMarker(b, 0));
  const MarkerIndex mg = m.AddMarker(CoordinateMarker(gnd, 0));
  ObjectConnectorCoordinateSpringDamper s;
  s.markerNumbers = {ma, mb};
  s.stiffness = 50;
  s.damping = 2;
  m.AddObject(s);
  ObjectConnectorCoordinateSpringDamper sg;  // ground -> node0 coordinate 1
  sg.markerNumbers = {mg, m.AddMarker(CoordinateMarker(NodeIndex(0), 1))};
  sg.stiffness = 7;
  m.AddObject(sg);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  std::vector<Real> q(5, 0.1), v(5, 0.2);
  DenseSink J(5);
  ComputeODE2RHSJacobian(L.View(), th.data(), 0, q.data(), v.data(), 1, 1, 0, NumDiff{}, false, J);
  std::vector<Real> expected(25, 0.);
  expected[1 * 5 + 1] = -7;
  expected[3 * 5 + 3] = expected[4 * 5 + 4] = -50;
  expected[3 * 5 + 4] = expected[4 * 5 + 3] = 50;
  EXPECT_EQ(J.a, expected);
  DenseSink Jv(5);
  ComputeODE2RHSJacobian(L.View(), th.data(), 0, q.data(), v.data(), 1, 1, 0.5, NumDiff{}, false, Jv);
  EXPECT_EQ(Jv(3, 3), -51.);
  EXPECT_EQ(Jv(3, 4), 51.);
  EXPECT_EQ(Jv(1, 1), -7.);  // no damping on the ground connector
}

// SpringDamper: the forward-difference Jacobian matches a central difference of ComputeODE2RHS (1e-5 relative).
TEST(Jacobian, SpringDamperForwardMatchesCentralDifference) {
  Model m;
  const NodeIndex n0 = m.AddNode(MakeNodePoint({0, 0, 0}));
  const NodeIndex n1 = m.AddNode(MakeNodePoint({1, 0.2, -0.1}));
  ObjectConnectorSpringDamper s;
  s.markerNumbers = {m.AddMarker(NodePositionMarker(n0)), m.AddMarker(NodePositionMarker(n1))};
  s.referenceLength = 0.9;
  s.stiffness = 100;
  s.damping = 1.5;
  s.force = 0.5;
  m.AddObject(s);
  const Layout L = m.Compile();
  const LayoutView V = L.View();
  const std::vector<Real> th = m.Theta0();
  std::vector<Real> q = {0.01, -0.02, 0.03, 0.05, 0.1, 0.02}, v = {0.1, -0.2, 0.05, 0.3, 0.2, 0.1};
  const std::vector<Real> q0 = q, v0 = v;
  for (int pass = 0; pass < 2; ++pass) {  // pass 0: d/dq, pass 1: d/dv
    DenseSink J(6);
    ComputeODE2RHSJacobian(V, th.data(), 0, q.data(), v.data(), 1, pass == 0 ? 1 : 0, pass == 0 ? 0 : 1, NumDiff{},
                           false, J);
    EXPECT_EQ(q, q0);  // perturbed coordinates are restored exactly
    EXPECT_EQ(v, v0);
    std::vector<Real>& x = pass == 0 ? q : v;
    const Real h = 1e-6;
    DenseSink Jc(6);
    Real maxAbs = 0;
    for (int b = 0; b < 6; ++b) {
      std::vector<Real> fp(6), fm(6);
      const Real xb = x[static_cast<size_t>(b)];
      x[static_cast<size_t>(b)] = xb + h;
      ComputeODE2RHS(V, th.data(), 0, q.data(), v.data(), 1, fp.data());
      x[static_cast<size_t>(b)] = xb - h;
      ComputeODE2RHS(V, th.data(), 0, q.data(), v.data(), 1, fm.data());
      x[static_cast<size_t>(b)] = xb;
      for (int a = 0; a < 6; ++a) {
        Jc.add(a, b, (fp[static_cast<size_t>(a)] - fm[static_cast<size_t>(a)]) / (2 * h));
        maxAbs = std::max(maxAbs, std::abs(Jc(a, b)));
      }
    }
    ASSERT_GT(maxAbs, 1.);
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b)
        EXPECT_NEAR(J(a, b), Jc(a, b), 1e-5 * std::max(std::abs(Jc(a, b)), 1e-3 * maxAbs))
            << "pass " << pass << " entry " << a << "," << b;
  }
}

// --------------------------------------- ODE1 ----------------------------------------------

// GenericODE1: y_t = A y + b with A = [[0,1],[-100,0]], b = [0,1], y = [1,0] gives [0,-99]; Jacobian = factor*A.
TEST(Physics, GenericODE1RHSAndJacobian) {
  Model m;
  NodeGenericODE1 unused;
  unused.numberOfODE1Coordinates = 1;
  m.AddNode(unused);  // ODE1 0
  NodeGenericODE1 y;
  y.numberOfODE1Coordinates = 2;
  const NodeIndex n = m.AddNode(y);  // ODE1 1, 2
  ObjectGenericODE1 o;
  o.nodeNumbers = {n};
  o.systemMatrix = Matrix(2, 2, {0, 1, -100, 0});
  o.rhsVector = {0, 1};
  m.AddObject(o);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  const std::vector<Real> y0 = {7, 1, 0};
  std::vector<Real> f1(3, -1.);
  ComputeODE1RHS(L.View(), th.data(), 0, y0.data(), f1.data());
  EXPECT_EQ(f1, (std::vector<Real>{0, 0, -99}));
  DenseSink J(3);
  ComputeODE1RHSJacobian(L.View(), th.data(), 2, J);
  EXPECT_EQ(J.a, (std::vector<Real>{0, 0, 0, 0, 0, 2, 0, -200, 0}));
}

}  // namespace
}  // namespace mbsweep
