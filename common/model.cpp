#include "common/model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "common/constraints.h"
#include "common/expression_compiler.h"
#include "common/item_dispatch.h"

namespace mbsweep {

namespace {

template <class T, class = void> struct HasNodeNumber : std::false_type {};
template <class T> struct HasNodeNumber<T, std::void_t<decltype(std::declval<T>().nodeNumber)>> : std::true_type {};

template <class Item> std::string TypeNameOf(const Item& v) {
  return std::visit([](const auto& x) { return std::string(std::decay_t<decltype(x)>::typeName); }, v);
}
template <class Item> std::string GivenName(const Item& v) {
  return std::visit([](const auto& x) { return x.name; }, v);
}

std::string Describe(const std::string& type, const std::string& name, const char* category, int index) {
  return type + " '" + name + "' (" + category + " " + std::to_string(index) + ")";
}

/// A load's user function: LoadCoordinate's loadUserFunction (one value), the others'
/// loadVectorUserFunction (three).
struct LoadUserFunctionField {
  const UserFunction& f;
  const char* field;
  const char* args;
  int components;
};
template <class T> LoadUserFunctionField LoadUserFunction(const T& x) {
  if constexpr (std::is_same_v<T, LoadCoordinate>)
    return {x.loadUserFunction, "loadUserFunction", LoadCoordinate::loadUserFunctionArgs, 1};
  else return {x.loadVectorUserFunction, "loadVectorUserFunction", kLoadVectorUserFunctionArgs, 3};
}

/// The rule of Layout::eliminationRefusal (what Exudyn's explicit solver can eliminate).
constexpr const char* kEliminationRule =
    "an explicit solver with eliminateConstraints eliminates only ObjectConnectorCoordinate constraints between a "
    "MarkerNodeCoordinate on a NodePointGround and a MarkerNodeCoordinate on a node with ODE2 coordinates; use "
    "GeneralizedAlpha";

// ---------------------------------------------------------------------------------------
// Field rules: every Real/index field is checked against its rule.
// ---------------------------------------------------------------------------------------
struct FieldValidator {
  std::string desc;
  const Model& model;

  [[noreturn]] void Fail(const std::string& field, const std::string& msg) const {
    throw ValidationError(desc + ": " + field + " " + msg);
  }
  void CheckReal(const std::string& field, Real x, Rule r) const {
    if (!SatisfiesRule(x, r))
      Fail(field, "= " + FormatReal(x) + " violates " + RuleName(r) + " (" + RuleCondition(r) + ")");
  }
  void operator()(const char* n, Real& x, Rule r) { CheckReal(n, x, r); }
  template <size_t N> void operator()(const char* n, std::array<Real, N>& a, Rule r) {
    for (size_t i = 0; i < N; ++i) CheckReal(std::string(n) + "[" + std::to_string(i) + "]", a[i], r);
  }
  void operator()(const char* n, Vector& a, Rule r) {
    for (size_t i = 0; i < a.size(); ++i) CheckReal(std::string(n) + "[" + std::to_string(i) + "]", a[i], r);
  }
  void operator()(const char* n, Matrix3D& m) {
    for (int i = 0; i < 9; ++i)
      CheckReal(std::string(n) + "[" + std::to_string(i / 3) + "][" + std::to_string(i % 3) + "]", m.data[i],
                Rule::Real);
  }
  void operator()(const char* n, Matrix6D& m) {
    for (int i = 0; i < 36; ++i)
      CheckReal(std::string(n) + "[" + std::to_string(i / 6) + "][" + std::to_string(i % 6) + "]", m.data[i],
                Rule::Real);
  }
  void operator()(const char* n, Matrix& m) {
    if (m.rows < 0 || m.cols < 0 || static_cast<size_t>(m.rows) * static_cast<size_t>(m.cols) != m.data.size())
      Fail(n, "has " + std::to_string(m.data.size()) + " entries, which does not match its size " +
                  std::to_string(m.rows) + "x" + std::to_string(m.cols) + " (Matrix)");
    for (size_t i = 0; i < m.data.size(); ++i)
      CheckReal(std::string(n) + "[" + std::to_string(i / static_cast<size_t>(std::max(m.cols, 1))) + "][" +
                    std::to_string(i % static_cast<size_t>(std::max(m.cols, 1))) + "]",
                m.data[i], Rule::Real);
  }
  void operator()(const char* n, TimeFunction& f) {
    const std::string p = std::string(n) + ".";
    switch (f.type) {
      case TimeFunctionType::Constant: break;
      case TimeFunctionType::Harmonic:
        CheckReal(p + "amplitude", f.amplitude, Rule::Real);
        CheckReal(p + "angularFrequency", f.angularFrequency, Rule::Real);
        CheckReal(p + "phase", f.phase, Rule::Real);
        CheckReal(p + "offset", f.offset, Rule::Real);
        break;
      case TimeFunctionType::Sweep:
        CheckReal(p + "amplitude", f.amplitude, Rule::Real);
        CheckReal(p + "startFrequency", f.startFrequency, Rule::UReal);
        CheckReal(p + "endFrequency", f.endFrequency, Rule::UReal);
        CheckReal(p + "duration", f.duration, Rule::PReal);
        break;
      case TimeFunctionType::Ramp:
        CheckReal(p + "startTime", f.startTime, Rule::Real);
        CheckReal(p + "endTime", f.endTime, Rule::Real);
        CheckReal(p + "startValue", f.startValue, Rule::Real);
        CheckReal(p + "endValue", f.endValue, Rule::Real);
        if (f.endTime < f.startTime)
          Fail(p + "endTime", "= " + FormatReal(f.endTime) + " must be >= startTime = " + FormatReal(f.startTime));
        break;
      case TimeFunctionType::Table:
        if (f.times.empty() || f.times.size() != f.values.size())
          Fail(p + "times", "and values must be non-empty and of equal length (got " + std::to_string(f.times.size()) +
                                " and " + std::to_string(f.values.size()) + ")");
        for (size_t i = 0; i < f.times.size(); ++i) {
          CheckReal(p + "times[" + std::to_string(i) + "]", f.times[i], Rule::Real);
          CheckReal(p + "values[" + std::to_string(i) + "]", f.values[i], Rule::Real);
          if (i > 0 && !(f.times[i] > f.times[i - 1]))
            Fail(p + "times[" + std::to_string(i) + "]",
                 "= " + FormatReal(f.times[i]) + " must be greater than times[" + std::to_string(i - 1) + "]");
        }
        break;
      case TimeFunctionType::Expression: CheckExpression(p, f.expression, f.parameters, {"t"}); break;
    }
  }
  /// An expression's parameters (named values) and text of `components` values; `p` is
  /// "<field>.".
  void CheckExpression(const std::string& p, const std::string& text,
                       const std::vector<std::pair<std::string, Real>>& parameters,
                       const std::vector<std::string>& args, int components = 1) const {
    std::vector<std::string> names;
    for (size_t i = 0; i < parameters.size(); ++i) {
      const std::string& name = parameters[i].first;
      const std::string field = p + "parameters[" + std::to_string(i) + "]";
      const bool reserved = name == "_pi" || name == "_e" || std::find(args.begin(), args.end(), name) != args.end();
      if (!IsExpressionName(name) || reserved)
        Fail(field, "= '" + name + "' is not a parameter name (an identifier other than " + JoinArgs(args) +
                        ", _pi and _e)");
      if (std::find(names.begin(), names.end(), name) != names.end()) Fail(field, "= '" + name + "' is given twice");
      names.push_back(name);
      CheckReal(p + name, parameters[i].second, Rule::Real);
    }
    try {
      CompileExpressions(text, args, names, components);
    } catch (const ExpressionError& e) {
      Fail(p + "expression", "= '" + text + "': " + e.what() + " (" +
                                  (components == 1 ? std::string("a muParser expression")
                                                   : std::to_string(components) + " muParser expressions, separated by commas,") +
                                  " of " + JoinArgs(args) + " and its parameters)");
    }
  }
  static std::string JoinArgs(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args) s += (s.empty() ? "" : ", ") + a;
    return s;
  }
  void operator()(const char* n, UserFunction& f, const char* args, int components = 1) {
    if (!f.expression.empty())
      CheckExpression(std::string(n) + ".", f.expression, f.parameters, UserFunctionArgs(args), components);
  }
  template <size_t N> void operator()(const char* n, std::array<int, N>& a) {
    for (size_t i = 0; i < N; ++i)
      if (a[i] != 0 && a[i] != 1)
        Fail(std::string(n) + "[" + std::to_string(i) + "]",
             "= " + std::to_string(a[i]) + " must be 0 (free) or 1 (constrained)");
  }
  void operator()(const char*, bool&) {}
  void operator()(const char*, std::string&) {}
  void operator()(const char* n, OutputVariableType& t) {
    if (static_cast<int>(t) < 0 || t >= OutputVariableType::Count)
      Fail(n, "= " + std::to_string(static_cast<int>(t)) + " is not an OutputVariableType");
  }
  void operator()(const char* n, int& x, Rule r) { CheckReal(n, x, r); }
  void CheckIndex(const std::string& field, int v, size_t count, const char* typeName, const char* plural) const {
    if (v < 0 || static_cast<size_t>(v) >= count)
      Fail(field, "= " + std::to_string(v) + " is not a valid " + typeName + " (the model has " +
                      std::to_string(count) + " " + plural + ")");
  }
  void operator()(const char* n, NodeIndex& i) { CheckIndex(n, i.value, model.Nodes().size(), "NodeIndex", "nodes"); }
  void operator()(const char* n, ObjectIndex& i) {
    CheckIndex(n, i.value, model.Objects().size(), "ObjectIndex", "objects");
  }
  void operator()(const char* n, MarkerIndex& i) {
    CheckIndex(n, i.value, model.Markers().size(), "MarkerIndex", "markers");
  }
  void operator()(const char* n, LoadIndex& i) { CheckIndex(n, i.value, model.Loads().size(), "LoadIndex", "loads"); }
  void operator()(const char* n, std::vector<NodeIndex>& v) {
    if (v.empty()) Fail(n, "must not be empty");
    for (size_t k = 0; k < v.size(); ++k)
      CheckIndex(std::string(n) + "[" + std::to_string(k) + "]", v[k].value, model.Nodes().size(), "NodeIndex",
                 "nodes");
  }
  void operator()(const char* n, std::array<MarkerIndex, 2>& v) {
    for (size_t k = 0; k < 2; ++k)
      CheckIndex(std::string(n) + "[" + std::to_string(k) + "]", v[k].value, model.Markers().size(), "MarkerIndex",
                 "markers");
  }
};

// ---------------------------------------------------------------------------------------
// Theta builder: appends every Real field with its path.
// ---------------------------------------------------------------------------------------
struct ThetaBuilder {
  std::string prefix;  // "itemName."
  std::vector<Real>* values;
  std::vector<std::string>* paths;
  std::vector<Rule>* rules = nullptr;

  void Add(const std::string& path, Real x, Rule r = Rule::Real) {
    if (values) values->push_back(x);
    if (paths) paths->push_back(prefix + path);
    if (rules) rules->push_back(r);
  }
  void operator()(const char* n, Real& x, Rule r) { Add(n, x, r); }
  template <size_t N> void operator()(const char* n, std::array<Real, N>& a, Rule r) {
    for (size_t i = 0; i < N; ++i) Add(std::string(n) + "[" + std::to_string(i) + "]", a[i], r);
  }
  void operator()(const char* n, Vector& a, Rule r) {
    for (size_t i = 0; i < a.size(); ++i) Add(std::string(n) + "[" + std::to_string(i) + "]", a[i], r);
  }
  void AddMatrix(const char* n, const Real* d, int rows, int cols) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        Add(std::string(n) + "[" + std::to_string(i) + "][" + std::to_string(j) + "]", d[i * cols + j]);
  }
  void operator()(const char* n, Matrix3D& m) { AddMatrix(n, m.data.data(), 3, 3); }
  void operator()(const char* n, Matrix6D& m) { AddMatrix(n, m.data.data(), 6, 6); }
  void operator()(const char* n, Matrix& m) { AddMatrix(n, m.data.data(), m.rows, m.cols); }
  void operator()(const char* n, TimeFunction& f) {
    const std::string p = std::string(n) + ".";
    switch (f.type) {
      case TimeFunctionType::Constant: break;
      case TimeFunctionType::Harmonic:
        Add(p + "amplitude", f.amplitude);
        Add(p + "angularFrequency", f.angularFrequency);
        Add(p + "phase", f.phase);
        Add(p + "offset", f.offset);
        break;
      case TimeFunctionType::Sweep:
        Add(p + "amplitude", f.amplitude);
        Add(p + "startFrequency", f.startFrequency, Rule::UReal);
        Add(p + "endFrequency", f.endFrequency, Rule::UReal);
        Add(p + "duration", f.duration, Rule::PReal);
        break;
      case TimeFunctionType::Ramp:
        Add(p + "startTime", f.startTime);
        Add(p + "endTime", f.endTime);
        Add(p + "startValue", f.startValue);
        Add(p + "endValue", f.endValue);
        break;
      case TimeFunctionType::Table:
        for (size_t i = 0; i < f.times.size(); ++i) Add(p + "times[" + std::to_string(i) + "]", f.times[i]);
        for (size_t i = 0; i < f.values.size(); ++i) Add(p + "values[" + std::to_string(i) + "]", f.values[i]);
        break;
      case TimeFunctionType::Expression:
        for (auto& [name, value] : f.parameters) Add(p + name, value);
        break;
    }
  }
  void operator()(const char* n, UserFunction& f, const char*, int = 1) {
    if (f.expression.empty()) return;
    for (auto& [name, value] : f.parameters) Add(std::string(n) + "." + name, value);
  }
  template <class T> void operator()(const char*, T&) {}
  template <class T> void operator()(const char*, T&, Rule) {}
};

template <class Item>
void AppendTheta(Item item, const std::string& name, std::vector<Real>* values, std::vector<std::string>* paths,
                 std::vector<Rule>* rules = nullptr) {
  ThetaBuilder b{name + ".", values, paths, rules};
  std::visit([&](auto& x) { x.Fields(b); }, item);
}

// ----------------------------------- capabilities ---------------------------------------
bool NodeHasPosition(NodeKind k) {
  return k == NodeKind::Point || k == NodeKind::Point2D || k == NodeKind::RigidBody2D || k == NodeKind::PointGround ||
         k == NodeKind::RigidBodyEP || k == NodeKind::RigidBodyRxyz;
}
bool NodeHasOrientation(NodeKind k) {
  return k == NodeKind::RigidBody2D || k == NodeKind::RigidBodyEP || k == NodeKind::RigidBodyRxyz;
}
/// Calls f(ItemTag<Item>{}) for the item of object kind k (host side: the item's traits).
template <class T> struct ItemTag { using type = T; };
template <class F> auto WithObjectItem(ObjectKind k, F&& f) {
  switch (k) {
#define MBS_ITEM_CASE(Type, Kind) \
  case ObjectKind::Kind: return f(ItemTag<Type>{});
    MBS_OBJECT_ITEMS(MBS_ITEM_CASE)
#undef MBS_ITEM_CASE
    default: throw std::logic_error("object kind outside the item list");
  }
}
bool IsBody(ObjectKind k) { return IsBodyCategory(CategoryOf(k)); }
bool BodyHasOrientation(ObjectKind k) {
  return WithObjectItem(k, [](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (IsBodyCategory(T::category)) return T::hasOrientation;
    else return false;
  });
}
bool BodyHasMass(ObjectKind k) {
  return WithObjectItem(k, [](auto tag) { return detail::HasMassAndCenter<typename decltype(tag)::type>::value; });
}
bool MarkerHasPosition(MarkerKind k) {
  return k == MarkerKind::BodyPosition || k == MarkerKind::BodyRigid || k == MarkerKind::NodePosition ||
         k == MarkerKind::NodeRigid;
}
bool MarkerHasOrientation(MarkerKind k) { return k == MarkerKind::BodyRigid || k == MarkerKind::NodeRigid; }

using OVT = OutputVariableType;
std::vector<OVT> NodeOutputs(NodeKind k) {
  switch (k) {
    case NodeKind::Point:
    case NodeKind::Point2D:
      return {OVT::Position,    OVT::Displacement,  OVT::Velocity,       OVT::Acceleration,
              OVT::Coordinates, OVT::Coordinates_t, OVT::Coordinates_tt, OVT::CoordinatesTotal};
    case NodeKind::RigidBody2D:
    case NodeKind::RigidBodyEP:
    case NodeKind::RigidBodyRxyz:
      return {OVT::Position,           OVT::Displacement,  OVT::Velocity,        OVT::Acceleration,
              OVT::Coordinates,        OVT::Coordinates_t, OVT::Coordinates_tt,  OVT::CoordinatesTotal,
              OVT::RotationMatrix,     OVT::Rotation,      OVT::AngularVelocity, OVT::AngularVelocityLocal,
              OVT::AngularAcceleration};
    case NodeKind::Node1D:
    case NodeKind::GenericODE2:
      return {OVT::Coordinates, OVT::Coordinates_t, OVT::Coordinates_tt, OVT::CoordinatesTotal};
    case NodeKind::GenericODE1: return {OVT::Coordinates, OVT::Coordinates_t, OVT::CoordinatesTotal};
    case NodeKind::PointGround: return {OVT::Position};
    default: return {};
  }
}
/// What a SensorBody may ask of a body (its item's bodyOutputs).
std::vector<OVT> BodyOutputs(ObjectKind k) {
  return WithObjectItem(k, [](auto tag) -> std::vector<OVT> {
    using T = typename decltype(tag)::type;
    if constexpr (IsBodyCategory(T::category)) return {std::begin(T::bodyOutputs), std::end(T::bodyOutputs)};
    else return {};
  });
}
/// What a SensorObject may ask of an object (its item's outputs; bodies have none).
std::vector<OVT> ObjectOutputs(ObjectKind k) {
  return WithObjectItem(k, [](auto tag) -> std::vector<OVT> {
    using T = typename decltype(tag)::type;
    if constexpr (IsBodyCategory(T::category)) return {};
    else return {std::begin(T::outputs), std::end(T::outputs)};
  });
}
std::vector<OVT> MarkerOutputs(MarkerKind k) {
  if (k == MarkerKind::NodeCoordinate) return {OVT::Coordinates, OVT::Coordinates_t};
  if (k == MarkerKind::BodyMass) return {OVT::Position};
  std::vector<OVT> v{OVT::Position, OVT::Velocity};
  if (MarkerHasOrientation(k))
    v.insert(v.end(), {OVT::RotationMatrix, OVT::AngularVelocity, OVT::AngularVelocityLocal});
  return v;
}

std::string OutputList(const std::vector<OVT>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += std::string(i ? ", " : "") + OutputVariableTypeName(v[i]);
  return s.empty() ? "none" : s;
}

}  // namespace

// --------------------------------------- kinds -----------------------------------------
// The variants and the kinds come from the same generated item list, in the same order.
NodeKind KindOf(const NodeItem& n) { return static_cast<NodeKind>(n.index()); }
ObjectKind KindOf(const ObjectItem& o) { return static_cast<ObjectKind>(o.index()); }
MarkerKind KindOf(const MarkerItem& m) { return static_cast<MarkerKind>(m.index()); }
LoadKind KindOf(const LoadItem& l) { return static_cast<LoadKind>(l.index()); }
SensorKind KindOf(const SensorItem& s) { return static_cast<SensorKind>(s.index()); }
static_assert(std::variant_size_v<NodeItem> == static_cast<size_t>(NodeKind::Count), "node list out of sync");
static_assert(std::variant_size_v<ObjectItem> == static_cast<size_t>(ObjectKind::Count), "object list out of sync");
static_assert(std::variant_size_v<MarkerItem> == static_cast<size_t>(MarkerKind::Count), "marker list out of sync");
static_assert(std::variant_size_v<LoadItem> == static_cast<size_t>(LoadKind::Count), "load list out of sync");
static_assert(std::variant_size_v<SensorItem> == static_cast<size_t>(SensorKind::Count), "sensor list out of sync");

int NodeODE2Count(const NodeItem& n) {
  switch (KindOf(n)) {
    case NodeKind::Point: return 3;
    case NodeKind::Point2D: return 2;
    case NodeKind::RigidBody2D: return 3;
    case NodeKind::Node1D: return 1;
    case NodeKind::GenericODE2: return std::get<NodeGenericODE2>(n).numberOfODE2Coordinates;
    case NodeKind::RigidBodyEP: return 7;
    case NodeKind::RigidBodyRxyz: return 6;
    default: return 0;
  }
}
int NodeODE1Count(const NodeItem& n) {
  return KindOf(n) == NodeKind::GenericODE1 ? std::get<NodeGenericODE1>(n).numberOfODE1Coordinates : 0;
}

// --------------------------------------- names -----------------------------------------
std::string Model::NodeName(int i) const {
  const auto n = GivenName(nodes_.at(static_cast<size_t>(i)));
  return n.empty() ? "node" + std::to_string(i) : n;
}
std::string Model::ObjectName(int i) const {
  const auto n = GivenName(objects_.at(static_cast<size_t>(i)));
  return n.empty() ? "object" + std::to_string(i) : n;
}
std::string Model::MarkerName(int i) const {
  const auto n = GivenName(markers_.at(static_cast<size_t>(i)));
  return n.empty() ? "marker" + std::to_string(i) : n;
}
std::string Model::LoadName(int i) const {
  const auto n = GivenName(loads_.at(static_cast<size_t>(i)));
  return n.empty() ? "load" + std::to_string(i) : n;
}
std::string Model::SensorName(int i) const {
  const auto n = GivenName(sensors_.at(static_cast<size_t>(i)));
  return n.empty() ? "sensor" + std::to_string(i) : n;
}

int Model::MarkerCoordinateCount(int marker) const {
  return std::visit(
      [&](const auto& x) -> int {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, MarkerBodyPosition> || std::is_same_v<T, MarkerBodyRigid> ||
                      std::is_same_v<T, MarkerBodyMass>) {
          const int node = std::visit(
              [](const auto& o) -> int {
                if constexpr (HasNodeNumber<std::decay_t<decltype(o)>>::value) return o.nodeNumber.value;
                else return -1;
              },
              objects_[static_cast<size_t>(x.bodyNumber.value)]);
          return node < 0 ? 0 : NodeODE2Count(nodes_[static_cast<size_t>(node)]);
        } else {
          const auto& nd = nodes_[static_cast<size_t>(x.nodeNumber.value)];
          const int n = NodeODE2Count(nd) + NodeODE1Count(nd);
          if constexpr (std::is_same_v<T, MarkerNodeCoordinate>) return n > 0 ? 1 : 0;
          return n;
        }
      },
      markers_[static_cast<size_t>(marker)]);
}

// ------------------------------------- AddNode ------------------------------------------
NodeIndex Model::AddNode(NodeItem item) {
  const int idx = static_cast<int>(nodes_.size());
  const std::string given = GivenName(item);
  const std::string desc =
      Describe(TypeNameOf(item), given.empty() ? "node" + std::to_string(idx) : given, "node", idx);
  FieldValidator v{desc, *this};
  std::visit([&](auto& x) { x.Fields(v); }, item);
  auto checkLen = [&](const char* field, size_t len, size_t n, const char* countField) {
    if (len != n) v.Fail(field, "has length " + std::to_string(len) + " but " + countField + " = " + std::to_string(n));
  };
  if (auto* g = std::get_if<NodeGenericODE2>(&item)) {
    const size_t n = static_cast<size_t>(g->numberOfODE2Coordinates);
    if (g->referenceCoordinates.empty()) g->referenceCoordinates.assign(n, 0.);
    if (g->initialCoordinates.empty()) g->initialCoordinates.assign(n, 0.);
    if (g->initialCoordinates_t.empty()) g->initialCoordinates_t.assign(n, 0.);
    checkLen("referenceCoordinates", g->referenceCoordinates.size(), n, "numberOfODE2Coordinates");
    checkLen("initialCoordinates", g->initialCoordinates.size(), n, "numberOfODE2Coordinates");
    checkLen("initialCoordinates_t", g->initialCoordinates_t.size(), n, "numberOfODE2Coordinates");
  }
  if (auto* g = std::get_if<NodeGenericODE1>(&item)) {
    const size_t n = static_cast<size_t>(g->numberOfODE1Coordinates);
    if (g->referenceCoordinates.empty()) g->referenceCoordinates.assign(n, 0.);
    if (g->initialCoordinates.empty()) g->initialCoordinates.assign(n, 0.);
    checkLen("referenceCoordinates", g->referenceCoordinates.size(), n, "numberOfODE1Coordinates");
    checkLen("initialCoordinates", g->initialCoordinates.size(), n, "numberOfODE1Coordinates");
  }
  nodes_.push_back(std::move(item));
  return NodeIndex(idx);
}

// ------------------------------------ AddObject -----------------------------------------
namespace {
/// Checks what an object refers to (nodes, markers) against what its type requires.
struct ObjectReferenceCheck {
  const Model& model;
  const FieldValidator& v;
  const std::string& type;
  std::function<int(int)> markerCoordinates;  // Model::MarkerCoordinateCount

  const NodeItem& Node(int i) const { return model.Nodes()[static_cast<size_t>(i)]; }
  const MarkerItem& Marker(int i) const { return model.Markers()[static_cast<size_t>(i)]; }
  static std::string Entry(const char* field, int k) { return std::string(field) + "[" + std::to_string(k) + "]"; }

  void RequireNode(const std::string& field, NodeIndex n, std::initializer_list<NodeKind> kinds,
                   const char* what) const {
    const NodeKind k = KindOf(Node(n.value));
    if (std::find(kinds.begin(), kinds.end(), k) == kinds.end())
      v.Fail(field, "= " + std::to_string(n.value) + " refers to " + TypeNameOf(Node(n.value)) + " '" +
                        model.NodeName(n.value) + "', but " + type + " requires " + what);
  }
  void RequireDistinct(const std::array<MarkerIndex, 2>& m) const {
    if (m[0] == m[1]) v.Fail("markerNumbers", "connects marker " + std::to_string(m[0].value) + " with itself");
  }
  /// Two Position markers, or two Coordinate markers on ODE2 coordinates (or ground).
  void RequireMarkers(const std::array<MarkerIndex, 2>& m, bool position) const {
    for (int k = 0; k < 2; ++k) {
      const int mi = m[static_cast<size_t>(k)].value;
      const MarkerKind mk = KindOf(Marker(mi));
      const bool ok = position ? MarkerHasPosition(mk) : mk == MarkerKind::NodeCoordinate;
      if (ok && mk == MarkerKind::NodeCoordinate) {  // ODE2 coordinates (or ground) only
        const auto& mc = std::get<MarkerNodeCoordinate>(Marker(mi));
        if (NodeODE1Count(Node(mc.nodeNumber.value)) > 0)
          v.Fail(Entry("markerNumbers", k), "= " + std::to_string(mi) + " refers to a coordinate of NodeGenericODE1 '" +
                                                model.NodeName(mc.nodeNumber.value) + "', but " + type +
                                                " requires an ODE2 (or ground) coordinate");
      }
      if (!ok)
        v.Fail(Entry("markerNumbers", k), "= " + std::to_string(mi) + " refers to " + TypeNameOf(Marker(mi)) + " '" +
                                              model.MarkerName(mi) + "', but " + type + " requires a " +
                                              (position ? "Position" : "Coordinate") + " marker");
    }
    RequireDistinct(m);
  }
  /// Two markers with orientation (MarkerBodyRigid, MarkerNodeRigid).
  void RequireOrientation(const std::array<MarkerIndex, 2>& m, const char* what) const {
    for (int k = 0; k < 2; ++k) {
      const int mi = m[static_cast<size_t>(k)].value;
      if (!MarkerHasOrientation(KindOf(Marker(mi))))
        v.Fail(Entry("markerNumbers", k), "= " + std::to_string(mi) + " refers to " + TypeNameOf(Marker(mi)) + " '" +
                                              model.MarkerName(mi) + "', but " + type + " requires " + what +
                                              " markers (MarkerBodyRigid or MarkerNodeRigid)");
    }
    RequireDistinct(m);
  }
  void RequireSize(const char* field, const Matrix& m, int n, const char* coordinates) const {
    if (!m.data.empty() && (m.rows != n || m.cols != n))
      v.Fail(field, "is " + std::to_string(m.rows) + "x" + std::to_string(m.cols) + " but the nodes have " +
                        std::to_string(n) + " " + coordinates + " coordinates");
  }
  void RequireLength(const char* field, const Vector& x, int n, const char* coordinates) const {
    if (!x.empty() && static_cast<int>(x.size()) != n)
      v.Fail(field, "has length " + std::to_string(x.size()) + " but the nodes have " + std::to_string(n) + " " +
                        coordinates + " coordinates");
  }
  void CheckGeneric(const ObjectGenericODE2& x) const {
    int n = 0;
    for (size_t k = 0; k < x.nodeNumbers.size(); ++k) {
      const int ni = x.nodeNumbers[k].value;
      if (NodeODE2Count(Node(ni)) == 0)
        v.Fail(Entry("nodeNumbers", static_cast<int>(k)),
               "= " + std::to_string(ni) + " refers to " + TypeNameOf(Node(ni)) + " '" + model.NodeName(ni) +
                   "', but " + type + " requires nodes with ODE2 coordinates");
      n += NodeODE2Count(Node(ni));
    }
    RequireSize("massMatrix", x.massMatrix, n, "ODE2");
    RequireSize("stiffnessMatrix", x.stiffnessMatrix, n, "ODE2");
    RequireSize("dampingMatrix", x.dampingMatrix, n, "ODE2");
    RequireLength("forceVector", x.forceVector, n, "ODE2");
  }
  void CheckGeneric(const ObjectGenericODE1& x) const {
    int n = 0;
    for (size_t k = 0; k < x.nodeNumbers.size(); ++k) {
      RequireNode(Entry("nodeNumbers", static_cast<int>(k)), x.nodeNumbers[k], {NodeKind::GenericODE1},
                  "a NodeGenericODE1");
      n += NodeODE1Count(Node(x.nodeNumbers[k].value));
    }
    RequireSize("systemMatrix", x.systemMatrix, n, "ODE1");
    RequireLength("rhsVector", x.rhsVector, n, "ODE1");
  }
  /// A constraint between two markers without coordinates can never be satisfied by the solver.
  void RequireCoordinates(const std::array<MarkerIndex, 2>& m) const {
    if (markerCoordinates(m[0].value) == 0 && markerCoordinates(m[1].value) == 0)
      v.Fail("markerNumbers", "= [" + std::to_string(m[0].value) + ", " + std::to_string(m[1].value) +
                                  "] both refer to ground (no coordinates); the constraint equations would be "
                                  "singular");
  }
  template <class T> void CheckBody(const T& x) const {
    if constexpr (std::is_same_v<T, ObjectMassPoint>)
      RequireNode("nodeNumber", x.nodeNumber, {NodeKind::Point}, "a NodePoint");
    else if constexpr (std::is_same_v<T, ObjectMassPoint2D>)
      RequireNode("nodeNumber", x.nodeNumber, {NodeKind::Point2D}, "a NodePoint2D");
    else if constexpr (std::is_same_v<T, ObjectMass1D> || std::is_same_v<T, ObjectRotationalMass1D>)
      RequireNode("nodeNumber", x.nodeNumber, {NodeKind::Node1D}, "a Node1D");
    else if constexpr (std::is_same_v<T, ObjectRigidBody2D>)
      RequireNode("nodeNumber", x.nodeNumber, {NodeKind::RigidBody2D}, "a NodeRigidBody2D");
    else if constexpr (std::is_same_v<T, ObjectRigidBody>)
      RequireNode("nodeNumber", x.nodeNumber, {NodeKind::RigidBodyEP, NodeKind::RigidBodyRxyz},
                  "a NodeRigidBodyEP or NodeRigidBodyRxyz");
  }
  template <class T> void operator()(const T& x) const {
    if constexpr (T::category == ObjectCategory::Body) CheckBody(x);
    else if constexpr (T::category == ObjectCategory::Generic) CheckGeneric(x);
    else if constexpr (std::is_same_v<T, ObjectConnectorTorsionalSpringDamper>)
      RequireOrientation(x.markerNumbers, "Orientation");
    else if constexpr (T::category == ObjectCategory::RigidConnector || std::is_same_v<T, ObjectJointRevoluteZ> ||
                       std::is_same_v<T, ObjectJointPrismaticX> || std::is_same_v<T, ObjectJointGeneric> ||
                       std::is_same_v<T, ObjectJointPrismatic2D>)
      RequireOrientation(x.markerNumbers, "Position and Orientation");
    else if constexpr (T::category == ObjectCategory::CoordinateConnector ||
                       std::is_same_v<T, ObjectConnectorCoordinate>)
      RequireMarkers(x.markerNumbers, false);
    else if constexpr (T::category != ObjectCategory::Ground)  // position connectors, distance, spherical, revolute 2D
      RequireMarkers(x.markerNumbers, true);
    if constexpr (T::category == ObjectCategory::Constraint) RequireCoordinates(x.markerNumbers);
  }
};
}  // namespace

ObjectIndex Model::AddObject(ObjectItem item) {
  const int idx = static_cast<int>(objects_.size());
  const std::string given = GivenName(item);
  const std::string type = TypeNameOf(item);
  const std::string desc = Describe(type, given.empty() ? "object" + std::to_string(idx) : given, "object", idx);
  FieldValidator v{desc, *this};
  std::visit([&](auto& x) { x.Fields(v); }, item);

  std::visit(ObjectReferenceCheck{*this, v, type, [this](int m) { return MarkerCoordinateCount(m); }}, item);
  objects_.push_back(std::move(item));
  return ObjectIndex(idx);
}

// ------------------------------------ AddMarker -----------------------------------------
MarkerIndex Model::AddMarker(MarkerItem item) {
  const int idx = static_cast<int>(markers_.size());
  const std::string given = GivenName(item);
  const std::string type = TypeNameOf(item);
  const std::string desc = Describe(type, given.empty() ? "marker" + std::to_string(idx) : given, "marker", idx);
  FieldValidator v{desc, *this};
  std::visit([&](auto& x) { x.Fields(v); }, item);
  const MarkerKind mk = KindOf(item);
  std::visit(
      [&](auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, MarkerBodyPosition> || std::is_same_v<T, MarkerBodyRigid> ||
                      std::is_same_v<T, MarkerBodyMass>) {
          const auto& ob = objects_[static_cast<size_t>(x.bodyNumber.value)];
          const ObjectKind ok = KindOf(ob);
          const char* need = nullptr;
          if (!IsBody(ok)) need = "a body";
          else if (mk == MarkerKind::BodyRigid && !BodyHasOrientation(ok)) need = "a body with orientation";
          else if (mk == MarkerKind::BodyMass && !BodyHasMass(ok)) need = "a body with mass";
          if (need)
            v.Fail("bodyNumber", "= " + std::to_string(x.bodyNumber.value) + " refers to " + TypeNameOf(ob) + " '" +
                                     ObjectName(x.bodyNumber.value) + "', but " + type + " requires " + need);
        } else {
          const auto& nd = nodes_[static_cast<size_t>(x.nodeNumber.value)];
          const NodeKind nk = KindOf(nd);
          std::string need;
          if (mk == MarkerKind::NodePosition && !NodeHasPosition(nk)) need = "a node with a position";
          if (mk == MarkerKind::NodeRigid && !NodeHasOrientation(nk)) need = "a rigid-body node";
          if (!need.empty())
            v.Fail("nodeNumber", "= " + std::to_string(x.nodeNumber.value) + " refers to " + TypeNameOf(nd) + " '" +
                                     NodeName(x.nodeNumber.value) + "', but " + type + " requires " + need);
          if constexpr (std::is_same_v<T, MarkerNodeCoordinate>) {
            const int n = nk == NodeKind::PointGround ? 3 : std::max(NodeODE2Count(nd), NodeODE1Count(nd));
            if (x.coordinate >= n)
              v.Fail("coordinate", "= " + std::to_string(x.coordinate) + " is out of range: " + TypeNameOf(nd) + " '" +
                                       NodeName(x.nodeNumber.value) + "' has " + std::to_string(n) + " coordinates");
          }
        }
      },
      item);
  markers_.push_back(std::move(item));
  return MarkerIndex(idx);
}

// -------------------------------------- AddLoad -----------------------------------------
LoadIndex Model::AddLoad(LoadItem item) {
  const int idx = static_cast<int>(loads_.size());
  const std::string given = GivenName(item);
  const std::string type = TypeNameOf(item);
  const std::string desc = Describe(type, given.empty() ? "load" + std::to_string(idx) : given, "load", idx);
  FieldValidator v{desc, *this};
  std::visit([&](auto& x) { x.Fields(v); }, item);
  const LoadKind lk = KindOf(item);
  const int m = std::visit([](const auto& x) { return x.markerNumber.value; }, item);
  const MarkerKind mk = KindOf(markers_[static_cast<size_t>(m)]);
  const char* need = nullptr;
  if (lk == LoadKind::Coordinate && mk != MarkerKind::NodeCoordinate)
    need = "a Coordinate marker (MarkerNodeCoordinate)";
  if (lk == LoadKind::Coordinate && mk == MarkerKind::NodeCoordinate &&
      NodeODE1Count(nodes_[static_cast<size_t>(
          std::get<MarkerNodeCoordinate>(markers_[static_cast<size_t>(m)]).nodeNumber.value)]) > 0)
    need =
        "a Coordinate marker on an ODE2 coordinate (loads on ODE1 coordinates belong in ObjectGenericODE1's rhsVector)";
  if (lk == LoadKind::ForceVector && !MarkerHasPosition(mk)) need = "a Position marker";
  if (lk == LoadKind::TorqueVector && !MarkerHasOrientation(mk)) need = "an Orientation marker";
  if (lk == LoadKind::MassProportional && mk != MarkerKind::BodyMass) need = "a BodyMass marker (MarkerBodyMass)";
  if (need)
    v.Fail("markerNumber", "= " + std::to_string(m) + " refers to " + TypeNameOf(markers_[static_cast<size_t>(m)]) +
                               " '" + MarkerName(m) + "', but " + type + " requires " + need);
  std::visit(
      [&](const auto& x) {
        const LoadUserFunctionField u = LoadUserFunction(x);
        if (!u.f.expression.empty() && x.timeFunction.type != TimeFunctionType::Constant)
          v.Fail("timeFunction", std::string("is given beside ") + u.field +
                                     ", which gives the load's value itself; give one of them");
      },
      item);
  loads_.push_back(std::move(item));
  return LoadIndex(idx);
}

// ------------------------------------- AddSensor ----------------------------------------
SensorIndex Model::AddSensor(SensorItem item) {
  const int idx = static_cast<int>(sensors_.size());
  const std::string given = GivenName(item);
  const std::string type = TypeNameOf(item);
  const std::string desc = Describe(type, given.empty() ? "sensor" + std::to_string(idx) : given, "sensor", idx);
  FieldValidator v{desc, *this};
  std::visit([&](auto& x) { x.Fields(v); }, item);
  std::visit(
      [&](auto& x) {
        using T = std::decay_t<decltype(x)>;
        std::vector<OVT> allowed;
        std::string target;
        if constexpr (std::is_same_v<T, SensorNode>) {
          allowed = NodeOutputs(KindOf(nodes_[static_cast<size_t>(x.nodeNumber.value)]));
          target =
              TypeNameOf(nodes_[static_cast<size_t>(x.nodeNumber.value)]) + " '" + NodeName(x.nodeNumber.value) + "'";
        } else if constexpr (std::is_same_v<T, SensorBody>) {
          const auto& ob = objects_[static_cast<size_t>(x.bodyNumber.value)];
          if (!IsBody(KindOf(ob)))
            v.Fail("bodyNumber", "= " + std::to_string(x.bodyNumber.value) + " refers to " + TypeNameOf(ob) + " '" +
                                     ObjectName(x.bodyNumber.value) + "', but SensorBody requires a body");
          allowed = BodyOutputs(KindOf(ob));
          target = TypeNameOf(ob) + " '" + ObjectName(x.bodyNumber.value) + "'";
        } else if constexpr (std::is_same_v<T, SensorObject>) {
          const auto& ob = objects_[static_cast<size_t>(x.objectNumber.value)];
          allowed = ObjectOutputs(KindOf(ob));
          target = TypeNameOf(ob) + " '" + ObjectName(x.objectNumber.value) + "'";
        } else if constexpr (std::is_same_v<T, SensorMarker>) {
          allowed = MarkerOutputs(KindOf(markers_[static_cast<size_t>(x.markerNumber.value)]));
          target = TypeNameOf(markers_[static_cast<size_t>(x.markerNumber.value)]) + " '" +
                   MarkerName(x.markerNumber.value) + "'";
        }
        if constexpr (!std::is_same_v<T, SensorLoad>) {
          if (std::find(allowed.begin(), allowed.end(), x.outputVariableType) == allowed.end())
            v.Fail("outputVariableType", std::string("= ") + OutputVariableTypeName(x.outputVariableType) +
                                             " cannot be computed by " + target +
                                             "; available: " + OutputList(allowed));
        }
      },
      item);
  sensors_.push_back(std::move(item));
  return SensorIndex(idx);
}

// -------------------------------------- Compile -----------------------------------------
void Model::SetSensorOutput(SensorIndex i, const std::string& fileName, bool writeToFile, bool storeInternal) {
  std::visit(
      [&](auto& s) {
        s.fileName = fileName;
        s.writeToFile = writeToFile;
        s.storeInternal = storeInternal;
      },
      sensors_.at(static_cast<size_t>(i.value)));
}

namespace {
// ---------------------------------------------------------------------------------------
// Compilation, stage by stage (each appends its records to L.ints and its theta paths).
// ---------------------------------------------------------------------------------------
int ThetaNow(const Layout& L) { return static_cast<int>(L.thetaPaths.size()); }

/// Nodes: coordinates and the nodes' algebraic equations.
std::vector<NodeRecord> CompileNodes(const Model& model, Layout& L) {
  const auto& nodes = model.Nodes();
  std::vector<NodeRecord> nrec(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const int n2 = NodeODE2Count(nodes[i]), n1 = NodeODE1Count(nodes[i]);
    // the Euler-parameter norm of an EP node is an algebraic equation owned by the node; node
    // equations are numbered before the object equations (as Exudyn assigns node coordinates first)
    const auto* ep = std::get_if<NodeRigidBodyEP>(&nodes[i]);
    const int nAE = ep && ep->addConstraintEquation ? 1 : 0;
    nrec[i] = NodeRecord{n2, n2 ? L.nODE2 : -1, n1, n1 ? L.nODE1 : -1, nAE, nAE ? L.nAE : -1};
    L.nODE2 += n2;
    L.nODE1 += n1;
    L.nAE += nAE;
    for (int k = 0; k < nAE; ++k) {
      L.aeOwnerObject.push_back(-1);
      L.aeOwnerNode.push_back(static_cast<int>(i));
    }
    L.nodeNames.push_back(model.NodeName(static_cast<int>(i)));
    L.nodes.push_back(ItemRec{static_cast<int>(KindOf(nodes[i])), static_cast<int>(L.ints.size()), ThetaNow(L)});
    L.ints.insert(L.ints.end(),
                  {nrec[i].nODE2, nrec[i].ode2Begin, nrec[i].nODE1, nrec[i].ode1Begin, nrec[i].nAE, nrec[i].aeBegin});
    AppendTheta(nodes[i], L.nodeNames.back(), nullptr, &L.thetaPaths, &L.thetaRules);
  }
  if (L.nODE2 + L.nODE1 == 0)
    throw ValidationError("model has no coordinates: add a node with ODE2 or ODE1 coordinates");
  return nrec;
}

/// The node of a body object (-1 for ground and objects without a node).
int BodyNode(const ObjectItem& object) {
  return std::visit(
      [](const auto& x) -> int {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, ObjectGround>) return -1;
        else if constexpr (HasNodeNumber<std::decay_t<decltype(x)>>::value) return x.nodeNumber.value;
        else return -1;
      },
      object);
}

/// Markers: their node and coordinate set resolved.
std::vector<MarkerRecord> CompileMarkers(const Model& model, const std::vector<NodeRecord>& nrec, Layout& L) {
  const auto& markers = model.Markers();
  std::vector<MarkerRecord> mrec(markers.size());
  for (size_t i = 0; i < markers.size(); ++i) {
    const MarkerKind mk = KindOf(markers[i]);
    MarkerRecord r{-1, -1, 0, 0};
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, MarkerBodyPosition> || std::is_same_v<T, MarkerBodyRigid> ||
                        std::is_same_v<T, MarkerBodyMass>) {
            r.target = x.bodyNumber.value;
            r.node = BodyNode(model.Objects()[static_cast<size_t>(r.target)]);
          } else {
            r.target = x.nodeNumber.value;
            r.node = x.nodeNumber.value;
          }
          if constexpr (std::is_same_v<T, MarkerNodeCoordinate>) r.coordinate = x.coordinate;
        },
        markers[i]);
    if (r.node >= 0) {
      const NodeRecord& nr = nrec[static_cast<size_t>(r.node)];
      r.nCoords = mk == MarkerKind::NodeCoordinate ? ((nr.nODE2 > 0 || nr.nODE1 > 0) ? 1 : 0) : nr.nODE2;
    }
    mrec[i] = r;
    L.markerNames.push_back(model.MarkerName(static_cast<int>(i)));
    L.markers.push_back(ItemRec{static_cast<int>(mk), static_cast<int>(L.ints.size()), ThetaNow(L)});
    L.ints.insert(L.ints.end(), {r.target, r.node, r.coordinate, r.nCoords});
    AppendTheta(markers[i], L.markerNames.back(), nullptr, &L.thetaPaths, &L.thetaRules);
  }
  return mrec;
}

/// The structure of one object: its global coordinates, algebraic equations and extra ints.
struct ObjectStructure {
  std::vector<int> ltg2, ltg1, extra;
  int nAE = 0;
};

struct ObjectStructureBuilder {
  const Model& model;
  const std::vector<NodeRecord>& nrec;
  const std::vector<MarkerRecord>& mrec;
  ObjectStructure& out;

  /// Global coordinate indices of a marker's coordinates.
  void AddMarkerCoordinates(int m) const {
    const MarkerRecord& r = mrec[static_cast<size_t>(m)];
    if (r.node < 0 || r.nCoords == 0) return;
    const NodeRecord& nr = nrec[static_cast<size_t>(r.node)];
    if (KindOf(model.Markers()[static_cast<size_t>(m)]) == MarkerKind::NodeCoordinate) {
      if (nr.nODE2 > 0) out.ltg2.push_back(nr.ode2Begin + r.coordinate);
      else out.ltg1.push_back(nr.ode1Begin + r.coordinate);
    } else {
      for (int k = 0; k < nr.nODE2; ++k) out.ltg2.push_back(nr.ode2Begin + k);
    }
  }
  void AddNodeCoordinates(NodeIndex n, bool ode1) const {
    const NodeRecord& nr = nrec[static_cast<size_t>(n.value)];
    if (ode1)
      for (int k = 0; k < nr.nODE1; ++k) out.ltg1.push_back(nr.ode1Begin + k);
    else
      for (int k = 0; k < nr.nODE2; ++k) out.ltg2.push_back(nr.ode2Begin + k);
  }
  /// Algebraic equations and extra ints of a constraint beyond [marker0, marker1, active].
  template <class T> void AddConstraint(const T& x) const {
    if constexpr (std::is_same_v<T, ObjectConnectorCoordinate>) {
      out.nAE = 1;
      out.extra.insert(out.extra.end(), {x.velocityLevel ? 1 : 0, static_cast<int>(x.offsetTimeFunction.type),
                                         static_cast<int>(x.offsetTimeFunction.times.size())});
    } else if constexpr (std::is_same_v<T, ObjectConnectorDistance>) {
      out.nAE = 1;
    } else if constexpr (std::is_same_v<T, ObjectJointRevolute2D>) {
      out.nAE = 2;
    } else if constexpr (std::is_same_v<T, ObjectJointPrismatic2D>) {
      out.nAE = x.constrainRotation ? 2 : 1;
      out.extra.push_back(x.constrainRotation ? 1 : 0);
    } else if constexpr (std::is_same_v<T, ObjectJointSpherical>) {
      out.nAE = 3;
      out.extra.insert(out.extra.end(), x.constrainedAxes.begin(), x.constrainedAxes.end());
    } else if constexpr (std::is_same_v<T, ObjectJointRevoluteZ> || std::is_same_v<T, ObjectJointPrismaticX>) {
      out.nAE = 5;
    } else if constexpr (std::is_same_v<T, ObjectJointGeneric>) {
      out.nAE = 6;
      out.extra.insert(out.extra.end(), x.constrainedAxes.begin(), x.constrainedAxes.end());
    }
  }
  template <class T> void operator()(const T& x) const {
    if constexpr (std::is_same_v<T, ObjectGround>) {
    } else if constexpr (std::is_same_v<T, ObjectGenericODE2>) {
      for (auto n : x.nodeNumbers) AddNodeCoordinates(n, false);
      out.extra = {!x.massMatrix.data.empty(), !x.stiffnessMatrix.data.empty(), !x.dampingMatrix.data.empty(),
                   !x.forceVector.empty()};
    } else if constexpr (std::is_same_v<T, ObjectGenericODE1>) {
      for (auto n : x.nodeNumbers) AddNodeCoordinates(n, true);
      out.extra = {!x.systemMatrix.data.empty(), !x.rhsVector.empty()};
    } else if constexpr (HasNodeNumber<T>::value) {
      AddNodeCoordinates(x.nodeNumber, false);
      out.extra = {x.nodeNumber.value};
    } else {  // connectors and constraints
      AddMarkerCoordinates(x.markerNumbers[0].value);
      AddMarkerCoordinates(x.markerNumbers[1].value);
      out.extra = {x.markerNumbers[0].value, x.markerNumbers[1].value, x.activeConnector ? 1 : 0};
      AddConstraint(x);
    }
  }
};

/// Appends the programs of a function of `components` values to L.ints, one after the other, and
/// records each; returns the offset of the first.
int AppendExpressions(Layout& L, const std::string& owner, const std::string& text,
                      const std::vector<std::string>& args, const std::vector<std::pair<std::string, Real>>& parameters,
                      int components = 1) {
  std::vector<std::string> params;
  for (const auto& p : parameters) params.push_back(p.first);
  const int first = static_cast<int>(L.ints.size());
  const std::vector<ExpressionComponent> compiled = CompileExpressions(text, args, params, components);
  for (size_t c = 0; c < compiled.size(); ++c) {
    ExpressionInfo e;
    e.program = static_cast<int>(L.ints.size());
    e.owner = components == 1 ? owner : owner + "[" + std::to_string(c) + "]";
    e.text = compiled[c].text;
    e.args = args;
    e.params = params;
    L.ints.insert(L.ints.end(), compiled[c].program.begin(), compiled[c].program.end());
    L.expressions.push_back(std::move(e));
  }
  return first;
}

/// The int a record keeps for a time function beside its type: a Table's length; an
/// Expression's program, appended to L.ints here; 0 for the others.
int TimeFunctionData(const TimeFunction& f, const std::string& owner, Layout& L) {
  if (f.type == TimeFunctionType::Table) return static_cast<int>(f.times.size());
  if (f.type != TimeFunctionType::Expression) return 0;
  return AppendExpressions(L, owner, f.expression, {"t"}, f.parameters);
}

/// An object's user function (its one UserFunction field, if it has one), compiled into L:
/// `program` is its first program, or -1 where no expression is given.
struct ObjectUserFunction {
  Layout& L;
  const std::string& owner;
  bool has = false;
  int program = -1;
  void operator()(const char* n, UserFunction& f, const char* args, int components = 1) {
    has = true;
    if (!f.expression.empty())
      program = AppendExpressions(L, owner + "." + n, f.expression, UserFunctionArgs(args), f.parameters, components);
  }
  template <class... A> void operator()(const char*, A&&...) {}
};

/// Objects: coordinates, algebraic equations and extra ints.
void CompileObjects(const Model& model, const std::vector<NodeRecord>& nrec, const std::vector<MarkerRecord>& mrec,
                    Layout& L) {
  const auto& objects = model.Objects();
  for (size_t i = 0; i < objects.size(); ++i) {
    const ObjectKind ok = KindOf(objects[i]);
    ObjectStructure o;
    std::visit(ObjectStructureBuilder{model, nrec, mrec, o}, objects[i]);
    // the planar rigid body's mass matrix depends on the angle when its centre of mass is
    // offset (a theta parameter a study may vary, so never assume constancy); the 3D rigid
    // body's depends on its rotation parameters
    if (CoordinateDependentMass(ok)) L.constantMassMatrix = false;
    const int aeBegin = o.nAE ? L.nAE : -1;
    for (int k = 0; k < o.nAE; ++k) {
      L.aeOwnerObject.push_back(static_cast<int>(i));
      L.aeOwnerNode.push_back(-1);
    }
    L.nAE += o.nAE;
    L.maxLocalODE2 = std::max(L.maxLocalODE2, static_cast<int>(o.ltg2.size()));
    L.objectNames.push_back(model.ObjectName(static_cast<int>(i)));
    if (const auto* c = std::get_if<ObjectConnectorCoordinate>(&objects[i]))  // extra: [..., type, data]
      o.extra.back() = TimeFunctionData(c->offsetTimeFunction, L.objectNames.back() + ".offsetTimeFunction", L);
    std::visit(
        [&](auto x) {
          ObjectUserFunction u{L, L.objectNames.back()};
          x.Fields(u);
          if (u.has) o.extra.push_back(u.program);  // extra[3] of the spring-dampers
        },
        objects[i]);
    L.objects.push_back(ItemRec{static_cast<int>(ok), static_cast<int>(L.ints.size()), ThetaNow(L)});
    L.ints.insert(L.ints.end(), {static_cast<int>(o.ltg2.size()), static_cast<int>(o.ltg1.size()), o.nAE, aeBegin});
    L.ints.insert(L.ints.end(), o.ltg2.begin(), o.ltg2.end());
    L.ints.insert(L.ints.end(), o.ltg1.begin(), o.ltg1.end());
    L.ints.insert(L.ints.end(), o.extra.begin(), o.extra.end());
    AppendTheta(objects[i], L.objectNames.back(), nullptr, &L.thetaPaths, &L.thetaRules);
  }
}

/// Loads: [marker, bodyFixed, timeFunctionType, timeFunctionData, userFunction].
void CompileLoads(const Model& model, Layout& L) {
  const auto& loads = model.Loads();
  for (size_t i = 0; i < loads.size(); ++i) {
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          int bodyFixed = 0;
          if constexpr (std::is_same_v<T, LoadForceVector> || std::is_same_v<T, LoadTorqueVector>)
            bodyFixed = x.bodyFixed;
          L.loadNames.push_back(model.LoadName(static_cast<int>(i)));
          const int data = TimeFunctionData(x.timeFunction, L.loadNames.back() + ".timeFunction", L);
          const LoadUserFunctionField u = LoadUserFunction(x);
          const int user = u.f.expression.empty()
                               ? -1
                               : AppendExpressions(L, L.loadNames.back() + "." + u.field, u.f.expression,
                                                   UserFunctionArgs(u.args), u.f.parameters, u.components);
          L.loads.push_back(ItemRec{static_cast<int>(KindOf(loads[i])), static_cast<int>(L.ints.size()), ThetaNow(L)});
          L.ints.insert(L.ints.end(),
                        {x.markerNumber.value, bodyFixed, static_cast<int>(x.timeFunction.type), data, user});
        },
        loads[i]);
    AppendTheta(loads[i], L.loadNames.back(), nullptr, &L.thetaPaths, &L.thetaRules);
  }
}

/// Sensors: [target, outputVariableType].
void CompileSensors(const Model& model, Layout& L) {
  const auto& sensors = model.Sensors();
  for (size_t i = 0; i < sensors.size(); ++i) {
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          int target = -1, ovt = 0;
          if constexpr (std::is_same_v<T, SensorNode>) target = x.nodeNumber.value;
          if constexpr (std::is_same_v<T, SensorBody>) target = x.bodyNumber.value;
          if constexpr (std::is_same_v<T, SensorObject>) target = x.objectNumber.value;
          if constexpr (std::is_same_v<T, SensorMarker>) target = x.markerNumber.value;
          if constexpr (std::is_same_v<T, SensorLoad>) target = x.loadNumber.value;
          if constexpr (!std::is_same_v<T, SensorLoad>) ovt = static_cast<int>(x.outputVariableType);
          L.sensorNames.push_back(model.SensorName(static_cast<int>(i)));
          L.sensors.push_back(
              ItemRec{static_cast<int>(KindOf(sensors[i])), static_cast<int>(L.ints.size()), ThetaNow(L)});
          L.ints.insert(L.ints.end(), {target, ovt});
        },
        sensors[i]);
    AppendTheta(sensors[i], L.sensorNames.back(), nullptr, &L.thetaPaths, &L.thetaRules);
  }
}

/// The ODE2 force list, split once more into its constant and variable entries.
void CompileForceLists(Layout& L) {
  std::vector<int>& ints = L.ints;
  const std::vector<int> forces = BuildForceList(L.View());
  L.forceList = static_cast<int>(ints.size());
  L.nForces = static_cast<int>(forces.size()) / kForceEntryInts;
  ints.insert(ints.end(), forces.begin(), forces.end());
  // the same entries split into the constant loads and the others (generalized-alpha sums the
  // constant loads once per run)
  std::vector<int> constant, variable;
  SplitForceList(L.View(), forces, constant, variable);
  L.constantForceList = static_cast<int>(ints.size());
  L.nConstantForces = static_cast<int>(constant.size()) / kForceEntryInts;
  ints.insert(ints.end(), constant.begin(), constant.end());
  L.variableForceList = static_cast<int>(ints.size());
  L.nVariableForces = static_cast<int>(variable.size()) / kForceEntryInts;
  ints.insert(ints.end(), variable.begin(), variable.end());
}

/// The constraint list: nodes with algebraic equations, then constraint objects.
void CompileConstraintList(const std::vector<NodeRecord>& nrec, Layout& L) {
  L.constraintList = static_cast<int>(L.ints.size());
  for (size_t i = 0; i < L.nodes.size(); ++i)
    if (nrec[i].nAE > 0) {
      L.ints.push_back(static_cast<int>(i));
      ++L.nConstraintNodes;
    }
  for (size_t i = 0; i < L.objects.size(); ++i)
    if (IsConstraint(static_cast<ObjectKind>(L.objects[i].kind))) {
      L.ints.push_back(static_cast<int>(i));
      ++L.nConstraintObjects;
    }
}

/// Why constraint object i cannot be eliminated by the explicit solvers ("" if it can; then
/// ode2 is its constrained coordinate).
std::string EliminationRefusal(const Model& model, const std::vector<NodeRecord>& nrec, const Layout& L, size_t i,
                               int& ode2) {
  const auto& objects = model.Objects();
  const std::string desc = Describe(TypeNameOf(objects[i]), L.objectNames[i], "object", static_cast<int>(i));
  ode2 = -1;
  const auto* cc = std::get_if<ObjectConnectorCoordinate>(&objects[i]);
  if (!cc) return desc + " cannot be eliminated: " + kEliminationRule;
  // the marker on the ground node and the one on a node with ODE2 coordinates
  int onGround = 0;
  for (const MarkerIndex mi : cc->markerNumbers) {
    const auto* mc = std::get_if<MarkerNodeCoordinate>(&model.Markers()[static_cast<size_t>(mi.value)]);
    if (!mc) continue;
    const size_t n = static_cast<size_t>(mc->nodeNumber.value);
    if (std::holds_alternative<NodePointGround>(model.Nodes()[n])) ++onGround;
    else if (nrec[n].nODE2 > 0) ode2 = nrec[n].ode2Begin + mc->coordinate;
  }
  if (onGround != 1 || ode2 < 0)
    return desc + ": markerNumbers = [" + std::to_string(cc->markerNumbers[0].value) + ", " +
           std::to_string(cc->markerNumbers[1].value) + "] cannot be eliminated: " + kEliminationRule;
  if (cc->velocityLevel)
    return desc +
           ": velocityLevel = true cannot be eliminated: the elimination sets the coordinate and its "
           "velocity to 0 (position level); use GeneralizedAlpha";
  return "";
}

/// The elimination table of the explicit solvers (eliminateConstraints): structure, decided
/// here once, so that the batch path and the device only read it.
void CompileEliminationTable(const Model& model, const std::vector<NodeRecord>& nrec, Layout& L) {
  L.eliminationTable = static_cast<int>(L.ints.size());
  L.constraintsEliminable = L.nConstraintNodes == 0;
  for (size_t i = 0; i < model.Objects().size(); ++i) {
    if (!IsConstraint(static_cast<ObjectKind>(L.objects[i].kind))) continue;
    int ode2 = -1;
    const std::string refusal = EliminationRefusal(model, nrec, L, i, ode2);
    if (!refusal.empty()) {
      if (L.constraintsEliminable) L.eliminationRefusal = refusal;
      L.constraintsEliminable = false;
      continue;
    }
    if (!std::get<ObjectConnectorCoordinate>(model.Objects()[i]).activeConnector) continue;  // lambda = 0: stays free
    L.ints.insert(L.ints.end(), {ode2, static_cast<int>(i)});
    ++L.nEliminated;
  }
}
}  // namespace

Layout Model::Compile() const {
  Layout L;
  const std::vector<NodeRecord> nrec = CompileNodes(*this, L);
  const std::vector<MarkerRecord> mrec = CompileMarkers(*this, nrec, L);
  CompileObjects(*this, nrec, mrec, L);
  CompileLoads(*this, L);
  CompileSensors(*this, L);
  CompileForceLists(L);
  CompileConstraintList(nrec, L);
  const std::vector<int> planar = BuildPlanarMarkerTable(L.View());
  L.planarMarkers = static_cast<int>(L.ints.size());
  L.ints.insert(L.ints.end(), planar.begin(), planar.end());
  CompileEliminationTable(*this, nrec, L);
  return L;
}

std::vector<Real> Model::Theta0() const {
  std::vector<Real> theta;
  for (size_t i = 0; i < nodes_.size(); ++i) AppendTheta(nodes_[i], "", &theta, nullptr);
  for (size_t i = 0; i < markers_.size(); ++i) AppendTheta(markers_[i], "", &theta, nullptr);
  for (size_t i = 0; i < objects_.size(); ++i) AppendTheta(objects_[i], "", &theta, nullptr);
  for (size_t i = 0; i < loads_.size(); ++i) AppendTheta(loads_[i], "", &theta, nullptr);
  for (size_t i = 0; i < sensors_.size(); ++i) AppendTheta(sensors_[i], "", &theta, nullptr);
  return theta;
}

// --------------------------------------- Layout -----------------------------------------
LayoutView Layout::View() const {
  LayoutView v;
  v.nODE2 = nODE2;
  v.nODE1 = nODE1;
  v.nAE = nAE;
  v.nTheta = ThetaSize();
  v.nNodes = static_cast<int>(nodes.size());
  v.nObjects = static_cast<int>(objects.size());
  v.nMarkers = static_cast<int>(markers.size());
  v.nLoads = static_cast<int>(loads.size());
  v.nSensors = static_cast<int>(sensors.size());
  v.node = nodes.data();
  v.object = objects.data();
  v.marker = markers.data();
  v.load = loads.data();
  v.sensor = sensors.data();
  v.ints = ints.data();
  v.constantMassMatrix = constantMassMatrix ? 1 : 0;
  v.maxLocalODE2 = maxLocalODE2;
  v.forceList = forceList;
  v.nForces = nForces;
  v.constantForceList = constantForceList;
  v.nConstantForces = nConstantForces;
  v.variableForceList = variableForceList;
  v.nVariableForces = nVariableForces;
  v.constraintList = constraintList;
  v.nConstraintNodes = nConstraintNodes;
  v.nConstraintObjects = nConstraintObjects;
  v.planarMarkers = planarMarkers;
  v.eliminationTable = eliminationTable;
  v.nEliminated = nEliminated;
  v.constraintsEliminable = constraintsEliminable ? 1 : 0;
  return v;
}

int Layout::ThetaIndex(const std::string& path) const {
  for (size_t i = 0; i < thetaPaths.size(); ++i)
    if (thetaPaths[i] == path) return static_cast<int>(i);
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& p : thetaPaths) scored.emplace_back(EditDistance(path, p), p);
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string near;
  for (size_t i = 0; i < scored.size() && i < 3; ++i) near += std::string(i ? ", " : "") + "'" + scored[i].second + "'";
  throw ValidationError("unknown parameter path '" + path + "'" + (near.empty() ? "" : "; did you mean " + near + "?"));
}

}  // namespace mbsweep
