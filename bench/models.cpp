#include "bench/models.h"

#include <stdexcept>

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
  spring.markerNumbers = {mg, mn};
  spring.stiffness = 4000;
  spring.damping = 8;
  m.AddObject(spring);

  LoadCoordinate load;
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

const std::vector<BenchModel>& BenchModels() {
  static const std::vector<BenchModel> models = {{"oscillator", 1.0}, {"chain50", 10.0}};
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
  throw std::logic_error("benchmark model '" + key + "' has no builder");
}

double DefaultEndTime(const std::string& name) { return Find(name).defaultEndTime; }

}  // namespace mbsweep::bench
