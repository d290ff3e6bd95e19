#include "bench/models.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "common/creators.h"

namespace mbsweep::bench {

Model BuildOscillator() {
  Model m;
  NodePoint np;
  np.referenceCoordinates = {0.5, 0, 0};
  np.initialCoordinates = {-0.08, 0, 0};
  np.initialVelocities = {1, 0, 0};
  const NodeIndex n = m.AddNode(np);
  NodePointGround ground;
  const NodeIndex ng = m.AddNode(ground);

  ObjectMassPoint mass;
  mass.name = "mass";
  mass.mass = 1.6;
  mass.nodeNumber = n;
  m.AddObject(mass);

  MarkerNodeCoordinate groundCoordinate, nodeCoordinate;
  groundCoordinate.nodeNumber = ng;
  groundCoordinate.coordinate = 0;
  nodeCoordinate.nodeNumber = n;
  nodeCoordinate.coordinate = 0;
  const MarkerIndex mg = m.AddMarker(groundCoordinate);
  const MarkerIndex mn = m.AddMarker(nodeCoordinate);

  ObjectConnectorCoordinateSpringDamper spring;
  spring.name = "spring";
  spring.markerNumbers = {mg, mn};
  spring.stiffness = 4000;
  spring.damping = 8;
  m.AddObject(spring);

  LoadCoordinate load;
  load.name = "force";
  load.markerNumber = mn;
  load.load = 80;
  m.AddLoad(load);
  return m;
}

Model BuildChain(int masses) {
  Model m;
  ObjectGround ground;
  const ObjectIndex og = m.AddObject(ground);
  MarkerBodyPosition groundMarker;
  groundMarker.bodyNumber = og;
  MarkerIndex previous = m.AddMarker(groundMarker);

  for (int i = 0; i < masses; ++i) {
    NodePoint np;
    np.referenceCoordinates = {static_cast<Real>(i + 1), 0, 0};
    if (i == 0) np.initialVelocities = {0, 1, 0};
    const NodeIndex n = m.AddNode(np);
    ObjectMassPoint mp;
    mp.mass = 1;
    mp.nodeNumber = n;
    const ObjectIndex body = m.AddObject(mp);

    MarkerBodyPosition position;
    position.bodyNumber = body;
    const MarkerIndex current = m.AddMarker(position);
    MarkerBodyMass bodyMass;
    bodyMass.bodyNumber = body;
    const MarkerIndex massMarker = m.AddMarker(bodyMass);

    ObjectConnectorSpringDamper spring;
    spring.markerNumbers = {previous, current};
    spring.stiffness = 1000;
    spring.damping = 1;
    spring.referenceLength = 1;
    m.AddObject(spring);

    LoadMassProportional gravity;
    gravity.markerNumber = massMarker;
    gravity.loadVector = {0, -9.81, 0};
    m.AddLoad(gravity);
    previous = current;
  }
  return m;
}

Model BuildPendulum2D() {
  Model m;
  const ObjectIndex ground = CreateGround(m);
  const Real L = 1, mass = 1;
  const auto link = CreateRigidBody2D(m, "link", {0.5 * L, 0}, 0, mass, mass * L * L / 12, {}, {}, {0, -9.81, 0});
  CreateRevoluteJoint(m, "pivot", {ground, link.body}, {0, 0, 0});
  return m;
}

namespace {

/// The slider-crank's floating frame: its node, its body and the position marker of its node.
struct SliderCrankFrame {
  NodeIndex node;
  ObjectIndex body;
  MarkerIndex position;
};

/// Adds the slider-crank's floating frame (m = 2, J = 1): a planar rigid body on three
/// coordinate spring-dampers (stiffness k, damping d) to a ground node, its rotation also
/// constrained.
SliderCrankFrame AddSpringMountedFrame(Model& m, Real k, Real d) {
  NodePointGround ng;
  MarkerNodeCoordinate cg;
  cg.nodeNumber = m.AddNode(ng);
  const MarkerIndex mGround = m.AddMarker(cg);
  NodeRigidBody2D nf;
  nf.name = "frameNode";
  const NodeIndex nFrame = m.AddNode(nf);
  ObjectRigidBody2D frame;
  frame.name = "frame";
  frame.mass = 2;
  frame.inertia = 1;
  frame.nodeNumber = nFrame;
  const ObjectIndex oFrame = m.AddObject(frame);
  MarkerNodePosition mfp;
  mfp.nodeNumber = nFrame;
  const MarkerIndex mFrame = m.AddMarker(mfp);
  MarkerIndex mc[3];
  for (int i = 0; i < 3; ++i) {
    MarkerNodeCoordinate c;
    c.nodeNumber = nFrame;
    c.coordinate = i;
    mc[i] = m.AddMarker(c);
    ObjectConnectorCoordinateSpringDamper sd;
    sd.name = "frameSpring" + std::to_string(i);
    sd.markerNumbers = {mGround, mc[i]};
    sd.stiffness = k;
    sd.damping = d;
    m.AddObject(sd);
  }
  ObjectConnectorCoordinate cc;
  cc.markerNumbers = {mGround, mc[2]};
  m.AddObject(cc);
  return SliderCrankFrame{nFrame, oFrame, mFrame};
}

/// A planar link: its node and its body.
struct PlanarLink {
  NodeIndex node;
  ObjectIndex body;
};

/// Adds the planar rigid body `name` (mass, inertia J) with its node `name`Node at (x, 0).
PlanarLink AddPlanarLink(Model& m, const std::string& name, Real x, Real mass, Real J) {
  NodeRigidBody2D n;
  n.name = name + "Node";
  n.referenceCoordinates = {x, 0, 0};
  ObjectRigidBody2D b;
  b.name = name;
  b.mass = mass;
  b.inertia = J;
  b.nodeNumber = m.AddNode(n);
  return PlanarLink{b.nodeNumber, m.AddObject(b)};
}

/// Adds the marker `name` at local position (x, 0) of body: a rigid-body marker (position
/// and orientation) if rigid, else a position marker.
MarkerIndex AddBodyMarker(Model& m, const std::string& name, ObjectIndex body, Real x, bool rigid) {
  if (rigid) {
    MarkerBodyRigid mk;
    mk.name = name;
    mk.bodyNumber = body;
    mk.localPosition = {x, 0, 0};
    return m.AddMarker(mk);
  }
  MarkerBodyPosition mk;
  mk.name = name;
  mk.bodyNumber = body;
  mk.localPosition = {x, 0, 0};
  return m.AddMarker(mk);
}

/// Adds a planar revolute joint between markers a and b.
void AddRevoluteJoint2D(Model& m, MarkerIndex a, MarkerIndex b) {
  ObjectJointRevolute2D j;
  j.markerNumbers = {a, b};
  m.AddObject(j);
}

/// Adds the load crankTorque: 0.1 on the rotation coordinate of the crank's node.
void AddCrankTorque(Model& m, NodeIndex crankNode) {
  MarkerNodeCoordinate ct;
  ct.nodeNumber = crankNode;
  ct.coordinate = 2;
  LoadCoordinate torque;
  torque.name = "crankTorque";
  torque.markerNumber = m.AddMarker(ct);
  torque.load = 0.1;
  m.AddLoad(torque);
}

/// Adds the sensor framePosition: the position of the frame's node (not written to a file).
void AddFramePositionSensor(Model& m, NodeIndex frameNode) {
  SensorNode s;
  s.name = "framePosition";
  s.nodeNumber = frameNode;
  s.outputVariableType = OutputVariableType::Position;
  s.writeToFile = false;
  m.AddSensor(s);
}

}  // namespace

Model BuildSliderCrank(Real s1, Real s2) {
  const Real L1 = 0.1, L2 = 0.3, m1 = 0.4, m2 = 0.2, m3 = 0.1, k = 5000, d = 0.01 * k;
  Model m;
  // floating frame on three coordinate springs; its rotation is also constrained
  const SliderCrankFrame frame = AddSpringMountedFrame(m, k, d);
  // crank, connecting rod (nodes at the centres of mass, shifted by s1, s2) and slider
  const PlanarLink crank = AddPlanarLink(m, "crank", s1, m1, m1 / 12 * L1 * L1);
  const PlanarLink rod = AddPlanarLink(m, "rod", L1 + s2, m2, m2 / 12 * L2 * L2);
  const PlanarLink slider = AddPlanarLink(m, "slider", L1 + L2, m3, 0.001 * m3);
  const MarkerIndex c0 = AddBodyMarker(m, "crankLeft", crank.body, -s1, true);
  const MarkerIndex c1 = AddBodyMarker(m, "crankRight", crank.body, L1 - s1, false);
  const MarkerIndex r0 = AddBodyMarker(m, "rodLeft", rod.body, -s2, false);
  const MarkerIndex r1 = AddBodyMarker(m, "rodRight", rod.body, L2 - s2, false);
  const MarkerIndex sm = AddBodyMarker(m, "sliderPoint", slider.body, 0, false);
  AddRevoluteJoint2D(m, frame.position, c0);
  AddRevoluteJoint2D(m, c1, r0);
  AddRevoluteJoint2D(m, r1, sm);
  ObjectJointPrismatic2D pj;
  pj.markerNumbers = {AddBodyMarker(m, "frameRail", frame.body, L1 + L2, true),
                      AddBodyMarker(m, "sliderRail", slider.body, 0, true)};
  m.AddObject(pj);
  AddCrankTorque(m, crank.node);
  AddFramePositionSensor(m, frame.node);
  return m;
}

Model BuildPendulumChain3D(int bodies) {
  Model m;
  const ObjectIndex ground = CreateGround(m);
  ObjectIndex previous = ground;
  const Real L = 0.5, w = 0.05, mass = 1;
  RigidBodyInertia inertia;  // slender box along x about its centre of mass
  inertia.mass = mass;
  inertia.inertia = {mass / 12 * (2 * w * w), mass / 12 * (L * L + w * w), mass / 12 * (L * L + w * w), 0, 0, 0};
  for (int i = 0; i < bodies; ++i) {
    const auto b = CreateRigidBody(m, "link" + std::to_string(i), {(i + 0.5) * L, 0, 0}, Matrix3D{}, inertia,
                                   {0, 0, 0.1 * (i + 1)}, {}, {0, -9.81, 0});
    CreateSphericalJoint(m, "joint" + std::to_string(i), {previous, b.body}, {i * L, 0, 0});
    previous = b.body;
  }
  return m;
}

const std::vector<BenchModel>& BenchModels() {
  static const std::vector<BenchModel> models = {
      {"oscillator", 1.0}, {"chain50", 10.0}, {"pendulum2d", 1.0}, {"slidercrank", 3.0}, {"chain3d", 1.0}};
  return models;
}

namespace {
const BenchModel& Find(const std::string& name) {
  std::string valid;
  for (const BenchModel& b : BenchModels()) {
    if (name == b.name) return b;
    valid += std::string(valid.empty() ? "" : ", ") + b.name;
  }
  throw std::invalid_argument("unknown benchmark model '" + name + "'; valid: " + valid);
}
}  // namespace

Model BuildBenchModel(const std::string& name) {
  const std::string key = Find(name).name;
  if (key == "oscillator") return BuildOscillator();
  if (key == "chain50") return BuildChain(kChainMasses);
  if (key == "pendulum2d") return BuildPendulum2D();
  if (key == "slidercrank") return BuildSliderCrank();
  if (key == "chain3d") return BuildPendulumChain3D();
  throw std::logic_error("benchmark model '" + key + "' has no builder");
}

double DefaultEndTime(const std::string& name) { return Find(name).defaultEndTime; }

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace mbsweep::bench
