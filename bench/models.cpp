#include "bench/models.h"

#include <cmath>
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
  mass.physicsMass = 1.6;
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
    mp.physicsMass = 1;
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

Model BuildSliderCrank(Real s1, Real s2) {
  const Real L1 = 0.1, L2 = 0.3, m1 = 0.4, m2 = 0.2, m3 = 0.1, k = 5000, d = 0.01 * k;
  Model m;
  NodePointGround ng;
  MarkerNodeCoordinate cg;
  cg.nodeNumber = m.AddNode(ng);
  const MarkerIndex mGround = m.AddMarker(cg);
  // floating frame on three coordinate springs; its rotation is also constrained
  NodeRigidBody2D nf;
  nf.name = "frameNode";
  const NodeIndex nFrame = m.AddNode(nf);
  ObjectRigidBody2D frame;
  frame.name = "frame";
  frame.physicsMass = 2;
  frame.physicsInertia = 1;
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
  // crank, connecting rod (nodes at the centres of mass, shifted by s1, s2) and slider
  auto link = [&](const std::string& name, Real x, Real mass, Real J) {
    NodeRigidBody2D n;
    n.name = name + "Node";
    n.referenceCoordinates = {x, 0, 0};
    ObjectRigidBody2D b;
    b.name = name;
    b.physicsMass = mass;
    b.physicsInertia = J;
    b.nodeNumber = m.AddNode(n);
    return std::make_pair(b.nodeNumber, m.AddObject(b));
  };
  const auto crank = link("crank", s1, m1, m1 / 12 * L1 * L1);
  const auto rod = link("rod", L1 + s2, m2, m2 / 12 * L2 * L2);
  const auto slider = link("slider", L1 + L2, m3, 0.001 * m3);
  auto bodyMarker = [&](const std::string& name, ObjectIndex body, Real x, bool rigid) {
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
  };
  const MarkerIndex c0 = bodyMarker("crankLeft", crank.second, -s1, true);
  const MarkerIndex c1 = bodyMarker("crankRight", crank.second, L1 - s1, false);
  const MarkerIndex r0 = bodyMarker("rodLeft", rod.second, -s2, false);
  const MarkerIndex r1 = bodyMarker("rodRight", rod.second, L2 - s2, false);
  const MarkerIndex sm = bodyMarker("sliderPoint", slider.second, 0, false);
  auto revolute = [&](MarkerIndex a, MarkerIndex b) {
    ObjectJointRevolute2D j;
    j.markerNumbers = {a, b};
    m.AddObject(j);
  };
  revolute(mFrame, c0);
  revolute(c1, r0);
  revolute(r1, sm);
  ObjectJointPrismatic2D pj;
  pj.markerNumbers = {bodyMarker("frameRail", oFrame, L1 + L2, true), bodyMarker("sliderRail", slider.second, 0, true)};
  m.AddObject(pj);
  MarkerNodeCoordinate ct;
  ct.nodeNumber = crank.first;
  ct.coordinate = 2;
  LoadCoordinate torque;
  torque.name = "crankTorque";
  torque.markerNumber = m.AddMarker(ct);
  torque.load = 0.1;
  m.AddLoad(torque);
  SensorNode s;
  s.name = "framePosition";
  s.nodeNumber = nFrame;
  s.outputVariableType = OutputVariableType::Position;
  s.writeToFile = false;
  m.AddSensor(s);
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

}  // namespace mbsweep::bench
