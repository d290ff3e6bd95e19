// Tests of parameter rules and item validation (common/rules.h, Model::Add*, Model::Compile):
// every rule rejects what it should, with the exact message the user sees.
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

#include "common/model.h"
#include "common/system.h"

namespace mbsweep {
namespace {

// Typed indices must not convert into each other nor from/to int (types.h).
static_assert(!std::is_convertible_v<NodeIndex, MarkerIndex>, "NodeIndex must not convert to MarkerIndex");
static_assert(!std::is_convertible_v<MarkerIndex, NodeIndex>, "MarkerIndex must not convert to NodeIndex");
static_assert(!std::is_convertible_v<int, NodeIndex>, "int must not convert implicitly to NodeIndex");
static_assert(!std::is_convertible_v<NodeIndex, int>, "NodeIndex must not convert to int");
static_assert(!std::is_convertible_v<int, MarkerIndex>, "int must not convert implicitly to MarkerIndex");
static_assert(!std::is_convertible_v<MarkerIndex, int>, "MarkerIndex must not convert to int");
static_assert(!std::is_convertible_v<ObjectIndex, NodeIndex>, "ObjectIndex must not convert to NodeIndex");
static_assert(std::is_constructible_v<NodeIndex, int>, "NodeIndex is explicitly constructible from int");

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Message of the ValidationError thrown by f, or a marker string if none was thrown.
template <class F> std::string ErrorOf(F&& f) {
  try {
    f();
  } catch (const ValidationError& e) {
    return e.what();
  }
  return "<no ValidationError thrown>";
}

::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

NodePoint MakeNodePoint(Vector3D ref = {0, 0, 0}) {
  NodePoint n;
  n.referenceCoordinates = ref;
  return n;
}
ObjectMassPoint MakeMassPoint(Real m, int node, std::string name = "") {
  ObjectMassPoint o;
  o.name = std::move(name);
  o.mass = m;
  o.nodeNumber = NodeIndex(node);
  return o;
}
MarkerNodePosition MakeNodePositionMarker(int node) {
  MarkerNodePosition mk;
  mk.nodeNumber = NodeIndex(node);
  return mk;
}
MarkerNodeCoordinate MakeCoordinateMarker(int node, int coordinate) {
  MarkerNodeCoordinate mk;
  mk.nodeNumber = NodeIndex(node);
  mk.coordinate = coordinate;
  return mk;
}
LoadCoordinate MakeLoadCoordinate(int marker, Real load, TimeFunction f = {}) {
  LoadCoordinate l;
  l.markerNumber = MarkerIndex(marker);
  l.load = load;
  l.timeFunction = std::move(f);
  return l;
}

/// node0 NodePoint, node1 Node1D; object0 ground, object1 mass point on node0;
/// marker0 ground position, marker1 node0 position, marker2 node1 coordinate 0, marker3 node0 coordinate 2.
Model BaseModel() {
  Model m;
  m.AddNode(MakeNodePoint({1, 0, 0}));
  m.AddNode(Node1D{});
  m.AddObject(ObjectGround{});
  m.AddObject(MakeMassPoint(2, 0));
  MarkerBodyPosition g;
  g.bodyNumber = ObjectIndex(0);
  m.AddMarker(g);
  m.AddMarker(MakeNodePositionMarker(0));
  m.AddMarker(MakeCoordinateMarker(1, 0));
  m.AddMarker(MakeCoordinateMarker(0, 2));
  return m;
}

// ------------------------------------------ rules ------------------------------------------

// RuleName/RuleCondition/SatisfiesRule against Exudyn's notation (rules.h).
TEST(Rules, NamesConditionsAndPredicates) {
  EXPECT_STREQ(RuleName(Rule::UReal), "UReal");
  EXPECT_STREQ(RuleName(Rule::PReal), "PReal");
  EXPECT_STREQ(RuleName(Rule::PInt), "PInt");
  EXPECT_STREQ(RuleCondition(Rule::UReal), "must be >= 0");
  EXPECT_STREQ(RuleCondition(Rule::PReal), "must be > 0");
  EXPECT_STREQ(RuleCondition(Rule::Real), "must be finite");
  EXPECT_STREQ(RuleCondition(Rule::UInt), "must be an integer >= 0");
  EXPECT_TRUE(SatisfiesRule(0.0, Rule::UReal));
  EXPECT_TRUE(SatisfiesRule(-0.0, Rule::UReal));
  EXPECT_FALSE(SatisfiesRule(-1e-300, Rule::UReal));
  EXPECT_FALSE(SatisfiesRule(0.0, Rule::PReal));
  EXPECT_TRUE(SatisfiesRule(1e-300, Rule::PReal));
  EXPECT_FALSE(SatisfiesRule(kInf, Rule::PReal));
  EXPECT_FALSE(SatisfiesRule(kNaN, Rule::Real));
  EXPECT_FALSE(SatisfiesRule(-kInf, Rule::Real));
  EXPECT_TRUE(SatisfiesRule(-1e300, Rule::Real));
  EXPECT_FALSE(SatisfiesRule(1.5, Rule::PInt));
  EXPECT_FALSE(SatisfiesRule(0, Rule::PInt));
  EXPECT_TRUE(SatisfiesRule(0, Rule::UInt));
  EXPECT_FALSE(SatisfiesRule(-1, Rule::UInt));
  EXPECT_TRUE(SatisfiesRule(-7, Rule::Int));
  EXPECT_FALSE(SatisfiesRule(-7.5, Rule::Int));
}

// FormatReal prints the shortest round-trip form (rules.h).
TEST(Rules, FormatRealShortestRoundTrip) {
  EXPECT_EQ(FormatReal(-1.6), "-1.6");
  EXPECT_EQ(FormatReal(0.1), "0.1");
  EXPECT_EQ(FormatReal(0), "0");
  EXPECT_EQ(FormatReal(12), "12");
  EXPECT_EQ(FormatReal(1e-20), "1e-20");
  EXPECT_EQ(FormatReal(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(FormatReal(kNaN), "nan");
  EXPECT_EQ(FormatReal(kInf), "inf");
  EXPECT_EQ(FormatReal(-kInf), "-inf");
  for (double x : {0.1 + 0.2, 6.67430e-11, -123456.789, 2.0 / 7.0})
    EXPECT_EQ(std::strtod(FormatReal(x).c_str(), nullptr), x) << FormatReal(x);
}

// ------------------------------------------ UReal ------------------------------------------

// The reference message of the brief: negative mass of a named object 3.
TEST(ValidationUReal, NegativeMassExactMessage) {
  Model m;
  m.AddNode(MakeNodePoint());
  for (int i = 0; i < 3; ++i) m.AddObject(ObjectGround{});
  EXPECT_EQ(ErrorOf([&] { m.AddObject(MakeMassPoint(-1.6, 0, "mass")); }),
            "ObjectMassPoint 'mass' (object 3): mass = -1.6 violates UReal (must be >= 0)");
  EXPECT_EQ(m.Objects().size(), 3u);  // the rejected item was not added
  EXPECT_EQ(m.AddObject(MakeMassPoint(0, 0, "mass")).value, 3);  // 0 satisfies UReal
}

// UReal inside a fixed-size vector field names the component.
TEST(ValidationUReal, NegativeStiffnessComponentOfCartesianSpringDamper) {
  Model m = BaseModel();
  ObjectConnectorCartesianSpringDamper c;
  c.name = "cart";
  c.markerNumbers = {MarkerIndex(0), MarkerIndex(1)};
  c.stiffness = {10, -5, 30};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(c); }),
            "ObjectConnectorCartesianSpringDamper 'cart' (object 2): stiffness[1] = -5 violates UReal (must be >= 0)");
  c.stiffness = {10, 5, 30};
  c.damping = {0, 0, -0.25};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(c); }),
            "ObjectConnectorCartesianSpringDamper 'cart' (object 2): damping[2] = -0.25 violates UReal (must be >= 0)");
  c.damping = {0, 0, 0.25};
  c.offset = {-1, -2, -3};  // offset is Real: negative is fine
  EXPECT_EQ(m.AddObject(c).value, 2);
}

// UReal on scalar fields of the spring-damper and gravity connectors.
TEST(ValidationUReal, SpringDamperAndGravityScalars) {
  Model m = BaseModel();
  ObjectConnectorSpringDamper s;
  s.markerNumbers = {MarkerIndex(0), MarkerIndex(1)};
  s.referenceLength = -0.5;
  EXPECT_EQ(ErrorOf([&] { m.AddObject(s); }),
            "ObjectConnectorSpringDamper 'object2' (object 2): referenceLength = -0.5 violates UReal (must be >= 0)");
  ObjectConnectorGravity g;
  g.name = "grav";
  g.markerNumbers = {MarkerIndex(0), MarkerIndex(1)};
  g.minDistanceRegularization = -1e-3;
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectConnectorGravity 'grav' (object 2): minDistanceRegularization = -0.001 violates UReal (must be >= 0)");
}

// ------------------------------------------ PReal ------------------------------------------

// Sweep duration must be > 0 (zero and negative rejected, tiny positive accepted).
TEST(ValidationPReal, SweepDuration) {
  Model m = BaseModel();
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Sweep(1, 0.5, 5, 0))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.duration = 0 violates PReal (must be > 0)");
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Sweep(1, 0.5, 5, -2))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.duration = -2 violates PReal (must be > 0)");
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Sweep(1, -0.5, 5, 1))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.startFrequency = -0.5 violates UReal (must be >= 0)");
  EXPECT_EQ(m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Sweep(1, 0.5, 5, 1e-9))).value, 0);
}

// ------------------------------------------ Real -------------------------------------------

// NaN and +-inf are rejected in reference coordinates and matrices.
TEST(ValidationReal, NonFiniteValues) {
  Model m;
  EXPECT_EQ(ErrorOf([&] { m.AddNode(MakeNodePoint({0, kNaN, 0})); }),
            "NodePoint 'node0' (node 0): referenceCoordinates[1] = nan violates Real (must be finite)");
  EXPECT_EQ(ErrorOf([&] { m.AddNode(MakeNodePoint({kInf, 0, 0})); }),
            "NodePoint 'node0' (node 0): referenceCoordinates[0] = inf violates Real (must be finite)");
  NodePoint2D p2;
  p2.name = "p";
  p2.initialVelocities = {0, -kInf};
  EXPECT_EQ(ErrorOf([&] { m.AddNode(p2); }),
            "NodePoint2D 'p' (node 0): initialVelocities[1] = -inf violates Real (must be finite)");
  EXPECT_TRUE(m.Nodes().empty());
  m.AddNode(MakeNodePoint());
  ObjectGround g;
  g.referenceRotation.data[5] = kInf;  // row 1, column 2
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGround 'object0' (object 0): referenceRotation[1][2] = inf violates Real (must be finite)");
}

// ------------------------------------------ PInt / UInt -------------------------------------

// numberOfODE2Coordinates is PInt; vector lengths must match it.
TEST(ValidationPInt, GenericODE2NumberOfCoordinates) {
  Model m;
  NodeGenericODE2 n;
  n.numberOfODE2Coordinates = 0;
  EXPECT_EQ(ErrorOf([&] { m.AddNode(n); }),
            "NodeGenericODE2 'node0' (node 0): numberOfODE2Coordinates = 0 violates PInt (must be an integer > 0)");
  n.numberOfODE2Coordinates = -3;
  EXPECT_EQ(ErrorOf([&] { m.AddNode(n); }),
            "NodeGenericODE2 'node0' (node 0): numberOfODE2Coordinates = -3 violates PInt (must be an integer > 0)");
  n.numberOfODE2Coordinates = 2;
  n.referenceCoordinates = {1, 2, 3};
  EXPECT_EQ(ErrorOf([&] { m.AddNode(n); }),
            "NodeGenericODE2 'node0' (node 0): referenceCoordinates has length 3 but numberOfODE2Coordinates = 2");
  NodeGenericODE1 n1;
  n1.numberOfODE1Coordinates = 0;
  EXPECT_EQ(ErrorOf([&] { m.AddNode(n1); }),
            "NodeGenericODE1 'node0' (node 0): numberOfODE1Coordinates = 0 violates PInt (must be an integer > 0)");
}

// MarkerNodeCoordinate.coordinate is UInt and must be inside the node.
TEST(ValidationUInt, MarkerNodeCoordinate) {
  Model m;
  m.AddNode(MakeNodePoint());
  EXPECT_EQ(ErrorOf([&] { m.AddMarker(MakeCoordinateMarker(0, -1)); }),
            "MarkerNodeCoordinate 'marker0' (marker 0): coordinate = -1 violates UInt (must be an integer >= 0)");
  EXPECT_EQ(ErrorOf([&] { m.AddMarker(MakeCoordinateMarker(0, 3)); }),
            "MarkerNodeCoordinate 'marker0' (marker 0): coordinate = 3 is out of range: NodePoint 'node0' has 3 "
            "coordinates");
  EXPECT_EQ(m.AddMarker(MakeCoordinateMarker(0, 2)).value, 0);
}

// ------------------------------------------ names ------------------------------------------

// Unnamed items are reported with Exudyn's default names (node0, object3, marker1, load0, sensor0).
TEST(ValidationNames, DefaultNamesInMessages) {
  Model m;
  m.AddNode(MakeNodePoint());
  for (int i = 0; i < 3; ++i) m.AddObject(ObjectGround{});
  EXPECT_EQ(ErrorOf([&] { m.AddObject(MakeMassPoint(-1.6, 0)); }),
            "ObjectMassPoint 'object3' (object 3): mass = -1.6 violates UReal (must be >= 0)");
  m.AddMarker(MakeNodePositionMarker(0));
  EXPECT_EQ(ErrorOf([&] { m.AddMarker(MakeCoordinateMarker(0, -2)); }),
            "MarkerNodeCoordinate 'marker1' (marker 1): coordinate = -2 violates UInt (must be an integer >= 0)");
  LoadForceVector f;
  f.markerNumber = MarkerIndex(0);
  f.loadVector = {0, kNaN, 0};
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(f); }),
            "LoadForceVector 'load0' (load 0): loadVector[1] = nan violates Real (must be finite)");
  SensorBody sb;
  sb.bodyNumber = ObjectIndex(0);
  sb.localPosition = {kInf, 0, 0};
  EXPECT_EQ(ErrorOf([&] { m.AddSensor(sb); }),
            "SensorBody 'sensor0' (sensor 0): localPosition[0] = inf violates Real (must be finite)");
  EXPECT_EQ(m.NodeName(0), "node0");
  EXPECT_EQ(m.ObjectName(2), "object2");
  EXPECT_EQ(m.MarkerName(0), "marker0");
}

// ------------------------------------------ indices ----------------------------------------

// Dangling and unset item indices name the index type and the current item count.
TEST(ValidationIndex, DanglingIndices) {
  Model m;
  m.AddNode(MakeNodePoint());
  m.AddNode(MakeNodePoint());
  EXPECT_EQ(ErrorOf([&] { m.AddObject(MakeMassPoint(1, 5)); }),
            "ObjectMassPoint 'object0' (object 0): nodeNumber = 5 is not a valid NodeIndex (the model has 2 nodes)");
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddObject(MakeMassPoint(1, 2)); }),
                       "is not a valid NodeIndex (the model has 2 nodes)"));
  ObjectMassPoint unset;  // nodeNumber left at -1
  unset.mass = 1;
  EXPECT_EQ(ErrorOf([&] { m.AddObject(unset); }),
            "ObjectMassPoint 'object0' (object 0): nodeNumber = -1 is not a valid NodeIndex (the model has 2 nodes)");
  m.AddMarker(MakeNodePositionMarker(0));
  m.AddMarker(MakeNodePositionMarker(1));
  ObjectConnectorSpringDamper s;
  s.markerNumbers = {MarkerIndex(0), MarkerIndex(7)};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(s); }),
            "ObjectConnectorSpringDamper 'object0' (object 0): markerNumbers[1] = 7 is not a valid MarkerIndex (the "
            "model has 2 markers)");
  ObjectGenericODE2 g;
  g.nodeNumbers = {NodeIndex(0), NodeIndex(3)};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGenericODE2 'object0' (object 0): nodeNumbers[1] = 3 is not a valid NodeIndex (the model has 2 "
            "nodes)");
  g.nodeNumbers.clear();
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }), "ObjectGenericODE2 'object0' (object 0): nodeNumbers must not be empty");
  MarkerBodyPosition bp;
  bp.bodyNumber = ObjectIndex(0);
  EXPECT_EQ(ErrorOf([&] { m.AddMarker(bp); }),
            "MarkerBodyPosition 'marker2' (marker 2): bodyNumber = 0 is not a valid ObjectIndex (the model has 0 "
            "objects)");
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(9, 1)); }),
            "LoadCoordinate 'load0' (load 0): markerNumber = 9 is not a valid MarkerIndex (the model has 2 markers)");
  SensorLoad sl;
  sl.loadNumber = LoadIndex(0);
  EXPECT_EQ(ErrorOf([&] { m.AddSensor(sl); }),
            "SensorLoad 'sensor0' (sensor 0): loadNumber = 0 is not a valid LoadIndex (the model has 0 loads)");
}

// ------------------------------------------ item kinds -------------------------------------

// Bodies require their node kind.
TEST(ValidationKinds, BodyOnWrongNodeKind) {
  Model m;
  m.AddNode(NodePoint2D{});
  m.AddNode(MakeNodePoint());
  EXPECT_EQ(ErrorOf([&] { m.AddObject(MakeMassPoint(1, 0)); }),
            "ObjectMassPoint 'object0' (object 0): nodeNumber = 0 refers to NodePoint2D 'node0', but ObjectMassPoint "
            "requires a NodePoint");
  ObjectMassPoint2D p2;
  p2.nodeNumber = NodeIndex(1);
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddObject(p2); }), "requires a NodePoint2D"));
  ObjectRigidBody2D rb;
  rb.nodeNumber = NodeIndex(1);
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddObject(rb); }),
                       "nodeNumber = 1 refers to NodePoint 'node1', but ObjectRigidBody2D requires a NodeRigidBody2D"));
  ObjectMass1D m1;
  m1.nodeNumber = NodeIndex(0);
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddObject(m1); }), "requires a Node1D"));
  EXPECT_EQ(m.AddObject(MakeMassPoint(1, 1)).value, 0);
}

// Markers require a target that provides what they need.
TEST(ValidationKinds, MarkerTargets) {
  Model m = BaseModel();  // object0 ground, object1 mass point, node1 Node1D
  MarkerBodyRigid br;
  br.bodyNumber = ObjectIndex(1);
  EXPECT_EQ(ErrorOf([&] { m.AddMarker(br); }),
            "MarkerBodyRigid 'marker4' (marker 4): bodyNumber = 1 refers to ObjectMassPoint 'object1', but "
            "MarkerBodyRigid requires a body with orientation");
  MarkerBodyMass bm;
  bm.bodyNumber = ObjectIndex(0);
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddMarker(bm); }),
                       "refers to ObjectGround 'object0', but MarkerBodyMass requires a body with mass"));
  MarkerNodeRigid nr;
  nr.nodeNumber = NodeIndex(0);
  EXPECT_EQ(ErrorOf([&] { m.AddMarker(nr); }),
            "MarkerNodeRigid 'marker4' (marker 4): nodeNumber = 0 refers to NodePoint 'node0', but MarkerNodeRigid "
            "requires a rigid-body node");
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddMarker(MakeNodePositionMarker(1)); }),
                       "refers to Node1D 'node1', but MarkerNodePosition requires a node with a position"));
  ObjectConnectorSpringDamper s;
  s.markerNumbers = {MarkerIndex(0), MarkerIndex(1)};
  m.AddObject(s);  // object2: a connector, not a body
  MarkerBodyPosition bp;
  bp.bodyNumber = ObjectIndex(2);
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddMarker(bp); }),
                       "bodyNumber = 2 refers to ObjectConnectorSpringDamper 'object2', but MarkerBodyPosition "
                       "requires a body"));
}

// Loads require a marker kind matching the load.
TEST(ValidationKinds, LoadMarkerKinds) {
  Model m = BaseModel();  // marker1 node position, marker2 coordinate
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(1, 1)); }),
            "LoadCoordinate 'load0' (load 0): markerNumber = 1 refers to MarkerNodePosition 'marker1', but "
            "LoadCoordinate requires a Coordinate marker (MarkerNodeCoordinate)");
  LoadForceVector f;
  f.markerNumber = MarkerIndex(2);
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(f); }),
            "LoadForceVector 'load0' (load 0): markerNumber = 2 refers to MarkerNodeCoordinate 'marker2', but "
            "LoadForceVector requires a Position marker");
  LoadTorqueVector tq;
  tq.markerNumber = MarkerIndex(1);
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddLoad(tq); }), "LoadTorqueVector requires an Orientation marker"));
  LoadMassProportional g;
  g.markerNumber = MarkerIndex(1);
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddLoad(g); }),
                       "refers to MarkerNodePosition 'marker1', but LoadMassProportional requires a BodyMass marker "
                       "(MarkerBodyMass)"));
  EXPECT_TRUE(m.Loads().empty());
  EXPECT_EQ(m.AddLoad(MakeLoadCoordinate(2, 1)).value, 0);
}

// Connectors require position markers (spring-damper family) or coordinate markers (coordinate spring-damper).
TEST(ValidationKinds, ConnectorMarkerKinds) {
  Model m = BaseModel();  // marker1 node position, marker2 and marker3 coordinates
  ObjectConnectorSpringDamper s;
  s.markerNumbers = {MarkerIndex(2), MarkerIndex(3)};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(s); }),
            "ObjectConnectorSpringDamper 'object2' (object 2): markerNumbers[0] = 2 refers to MarkerNodeCoordinate "
            "'marker2', but ObjectConnectorSpringDamper requires a Position marker");
  s.markerNumbers = {MarkerIndex(0), MarkerIndex(3)};
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddObject(s); }), "markerNumbers[1] = 3 refers to MarkerNodeCoordinate"));
  ObjectConnectorGravity g;
  g.markerNumbers = {MarkerIndex(2), MarkerIndex(1)};
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddObject(g); }), "ObjectConnectorGravity requires a Position marker"));
  ObjectConnectorCoordinateSpringDamper c;
  c.markerNumbers = {MarkerIndex(1), MarkerIndex(2)};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(c); }),
            "ObjectConnectorCoordinateSpringDamper 'object2' (object 2): markerNumbers[0] = 1 refers to "
            "MarkerNodePosition 'marker1', but ObjectConnectorCoordinateSpringDamper requires a Coordinate marker");
  c.markerNumbers = {MarkerIndex(2), MarkerIndex(3)};
  EXPECT_EQ(m.AddObject(c).value, 2);
}

// A connector may not connect a marker with itself.
TEST(ValidationConnector, SameMarkerTwice) {
  Model m = BaseModel();
  ObjectConnectorSpringDamper s;
  s.name = "spring";
  s.markerNumbers = {MarkerIndex(1), MarkerIndex(1)};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(s); }),
            "ObjectConnectorSpringDamper 'spring' (object 2): markerNumbers connects marker 1 with itself");
  ObjectConnectorCoordinateSpringDamper c;
  c.markerNumbers = {MarkerIndex(3), MarkerIndex(3)};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(c); }),
            "ObjectConnectorCoordinateSpringDamper 'object2' (object 2): markerNumbers connects marker 3 with itself");
}

// ------------------------------------------ generic objects --------------------------------

// GenericODE2 matrices and vectors must match the nodes' ODE2 coordinates.
TEST(ValidationGeneric, ODE2Sizes) {
  Model m;
  m.AddNode(MakeNodePoint());  // 3 ODE2 coordinates
  NodeGenericODE1 y;
  y.numberOfODE1Coordinates = 2;
  m.AddNode(y);
  ObjectGenericODE2 g;
  g.name = "gen";
  g.nodeNumbers = {NodeIndex(0)};
  g.massMatrix = Matrix(2, 2, {1, 0, 0, 1});
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGenericODE2 'gen' (object 0): massMatrix is 2x2 but the nodes have 3 ODE2 coordinates");
  g.massMatrix = Matrix(3, 3, {1, 0, 0, 0, 1, 0, 0, 0});
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGenericODE2 'gen' (object 0): massMatrix has 8 entries, which does not match its size 3x3 (Matrix)");
  g.massMatrix = Matrix(3, 3, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  g.stiffnessMatrix = Matrix(3, 2, {1, 0, 0, 1, 0, 0});
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGenericODE2 'gen' (object 0): stiffnessMatrix is 3x2 but the nodes have 3 ODE2 coordinates");
  g.stiffnessMatrix = Matrix();
  g.forceVector = {1, 2};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGenericODE2 'gen' (object 0): forceVector has length 2 but the nodes have 3 ODE2 coordinates");
  g.forceVector = {1, 2, 3};
  g.nodeNumbers = {NodeIndex(0), NodeIndex(1)};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGenericODE2 'gen' (object 0): nodeNumbers[1] = 1 refers to NodeGenericODE1 'node1', but "
            "ObjectGenericODE2 requires nodes with ODE2 coordinates");
  g.nodeNumbers = {NodeIndex(0)};
  EXPECT_EQ(m.AddObject(g).value, 0);
}

// GenericODE1 requires NodeGenericODE1 nodes and matching sizes.
TEST(ValidationGeneric, ODE1NodesAndSizes) {
  Model m;
  m.AddNode(MakeNodePoint());
  NodeGenericODE1 y;
  y.numberOfODE1Coordinates = 2;
  m.AddNode(y);
  ObjectGenericODE1 g;
  g.nodeNumbers = {NodeIndex(0)};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGenericODE1 'object0' (object 0): nodeNumbers[0] = 0 refers to NodePoint 'node0', but "
            "ObjectGenericODE1 requires a NodeGenericODE1");
  g.nodeNumbers = {NodeIndex(1)};
  g.systemMatrix = Matrix(3, 3, std::vector<Real>(9, 0.));
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGenericODE1 'object0' (object 0): systemMatrix is 3x3 but the nodes have 2 ODE1 coordinates");
  g.systemMatrix = Matrix(2, 2, {0, 1, -1, 0});
  g.rhsVector = {1};
  EXPECT_EQ(ErrorOf([&] { m.AddObject(g); }),
            "ObjectGenericODE1 'object0' (object 0): rhsVector has length 1 but the nodes have 2 ODE1 coordinates");
  g.rhsVector = {1, 0};
  EXPECT_EQ(m.AddObject(g).value, 0);
}

// ------------------------------------------ sensors ----------------------------------------

// A sensor output its target cannot compute is rejected with the list of available outputs.
TEST(ValidationSensor, OutputTypeNotSupported) {
  Model m = BaseModel();
  SensorNode sn;
  sn.nodeNumber = NodeIndex(0);
  sn.outputVariableType = OutputVariableType::Rotation;
  EXPECT_EQ(ErrorOf([&] { m.AddSensor(sn); }),
            "SensorNode 'sensor0' (sensor 0): outputVariableType = Rotation cannot be computed by NodePoint 'node0'; "
            "available: Position, Displacement, Velocity, Acceleration, Coordinates, Coordinates_t, Coordinates_tt, "
            "CoordinatesTotal");
  sn.outputVariableType = OutputVariableType::_None;  // default: must be chosen
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddSensor(sn); }), "outputVariableType = _None cannot be computed"));
  ObjectConnectorCoordinateSpringDamper c;
  c.name = "csd";
  c.markerNumbers = {MarkerIndex(2), MarkerIndex(3)};
  m.AddObject(c);
  SensorObject so;
  so.objectNumber = ObjectIndex(2);
  so.outputVariableType = OutputVariableType::Distance;
  EXPECT_EQ(ErrorOf([&] { m.AddSensor(so); }),
            "SensorObject 'sensor0' (sensor 0): outputVariableType = Distance cannot be computed by "
            "ObjectConnectorCoordinateSpringDamper 'csd'; available: Displacement, Velocity, Force");
  so.objectNumber = ObjectIndex(1);  // a mass point has no object outputs
  so.outputVariableType = OutputVariableType::Force;
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddSensor(so); }), "ObjectMassPoint 'object1'; available: none"));
  SensorMarker sm;
  sm.markerNumber = MarkerIndex(2);
  sm.outputVariableType = OutputVariableType::Position;
  EXPECT_TRUE(Contains(ErrorOf([&] { m.AddSensor(sm); }),
                       "cannot be computed by MarkerNodeCoordinate 'marker2'; available: Coordinates, Coordinates_t"));
  SensorBody sb;
  sb.bodyNumber = ObjectIndex(2);
  sb.outputVariableType = OutputVariableType::Position;
  EXPECT_EQ(ErrorOf([&] { m.AddSensor(sb); }),
            "SensorBody 'sensor0' (sensor 0): bodyNumber = 2 refers to ObjectConnectorCoordinateSpringDamper 'csd', "
            "but SensorBody requires a body");
  EXPECT_TRUE(m.Sensors().empty());
  sn.outputVariableType = OutputVariableType::Displacement;
  EXPECT_EQ(m.AddSensor(sn).value, 0);
}

// Unknown output variable names list every valid name (items.h).
TEST(ValidationSensor, ParseOutputVariableType) {
  EXPECT_EQ(ParseOutputVariableType("Force"), OutputVariableType::Force);
  EXPECT_STREQ(OutputVariableTypeName(OutputVariableType::Coordinates_tt), "Coordinates_tt");
  const std::string msg = ErrorOf([] { ParseOutputVariableType("Forse"); });
  EXPECT_TRUE(Contains(msg, "unknown OutputVariableType 'Forse'; valid: Distance, Position, Displacement,"));
  EXPECT_TRUE(Contains(msg, ", KineticEnergy, PotentialEnergy"));
  EXPECT_FALSE(Contains(msg, "_None"));
}

// ------------------------------------------ time functions ---------------------------------

// Table times must be strictly increasing; times and values non-empty and of equal length.
TEST(ValidationTimeFunction, Table) {
  Model m = BaseModel();
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Table({0, 1, 1}, {0, 1, 2}))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.times[2] = 1 must be greater than times[1]");
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Table({0, 2, 1.5}, {0, 1, 2}))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.times[2] = 1.5 must be greater than times[1]");
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Table({0, 1}, {0}))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.times and values must be non-empty and of equal length "
            "(got 2 and 1)");
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Table({}, {}))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.times and values must be non-empty and of equal length "
            "(got 0 and 0)");
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Table({0, 1}, {0, kNaN}))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.values[1] = nan violates Real (must be finite)");
  EXPECT_EQ(m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Table({0}, {3}))).value, 0);
}

// Ramp endTime must not precede startTime; equal times (a step) are allowed.
TEST(ValidationTimeFunction, Ramp) {
  Model m = BaseModel();
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Ramp(2, 1))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.endTime = 1 must be >= startTime = 2");
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Ramp(0, 1, kInf, 1))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.startValue = inf violates Real (must be finite)");
  EXPECT_EQ(m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Step(0.5))).value, 0);
  EXPECT_EQ(m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Ramp(-1, 1))).value, 1);
}

// Harmonic parameters must be finite.
TEST(ValidationTimeFunction, Harmonic) {
  Model m = BaseModel();
  EXPECT_EQ(ErrorOf([&] { m.AddLoad(MakeLoadCoordinate(2, 1, TimeFunction::Harmonic(1, kNaN))); }),
            "LoadCoordinate 'load0' (load 0): timeFunction.angularFrequency = nan violates Real (must be finite)");
}

// ------------------------------------------ compile ----------------------------------------

// A model without ODE2/ODE1 coordinates cannot be compiled.
TEST(ValidationCompile, NoCoordinates) {
  const std::string msg = "model has no coordinates: add a node with ODE2 or ODE1 coordinates";
  Model empty;
  EXPECT_EQ(ErrorOf([&] { empty.Compile(); }), msg);
  Model ground;
  ground.AddNode(NodePointGround{});
  ground.AddObject(ObjectGround{});
  MarkerNodePosition mk;
  mk.nodeNumber = NodeIndex(0);
  ground.AddMarker(mk);
  EXPECT_EQ(ErrorOf([&] { ground.Compile(); }), msg);
  Model ode1;
  NodeGenericODE1 y;
  y.numberOfODE1Coordinates = 1;
  ode1.AddNode(y);
  EXPECT_EQ(ode1.Compile().nODE1, 1);
}

// ------------------------------------------ known bugs -------------------------------------

// Coordinate connectors act on ODE2 (or ground) coordinates; ODE1 coordinates are rejected.
TEST(Validation, CoordinateSpringDamperOnODE1CoordinatesIsRejected) {
  Model m;
  NodeGenericODE1 y;
  y.numberOfODE1Coordinates = 2;
  m.AddNode(y);
  m.AddMarker(MakeCoordinateMarker(0, 0));
  m.AddMarker(MakeCoordinateMarker(0, 1));
  ObjectConnectorCoordinateSpringDamper c;
  c.markerNumbers = {MarkerIndex(0), MarkerIndex(1)};
  c.stiffness = 1;
  EXPECT_THROW(m.AddObject(c), ValidationError);
}

// A LoadCoordinate on an ODE1 coordinate is rejected (it would have no effect).
TEST(Validation, LoadCoordinateOnODE1CoordinateIsRejected) {
  Model m;
  NodeGenericODE1 y;
  y.numberOfODE1Coordinates = 2;
  m.AddNode(y);
  m.AddMarker(MakeCoordinateMarker(0, 1));
  EXPECT_THROW(m.AddLoad(MakeLoadCoordinate(0, 5)), ValidationError);
}

// FormatReal prints the shortest round-trip form without needless exponents.
TEST(Validation, FormatRealPrintsIntegersWithoutExponent) {
  EXPECT_EQ(FormatReal(100), "100");
  EXPECT_EQ(FormatReal(-250), "-250");
  Model m = BaseModel();
  ObjectConnectorSpringDamper s;
  s.markerNumbers = {MarkerIndex(0), MarkerIndex(1)};
  s.stiffness = -100;
  EXPECT_EQ(ErrorOf([&] { m.AddObject(s); }),
            "ObjectConnectorSpringDamper 'object2' (object 2): stiffness = -100 violates UReal (must be >= 0)");
}

}  // namespace
}  // namespace mbsweep
