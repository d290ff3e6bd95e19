/// @file model.h
/// Host-side model builder. Items are validated when they are added: a wrong value throws
/// ValidationError naming the item (type, name, index), the field, the value and the rule.
/// Compile() turns the model into the immutable Layout plus theta0 (every Real parameter).
#pragma once

#include <string>
#include <vector>

#include "common/items.h"
#include "common/layout.h"

namespace mbsweep {

/// A multibody model (Exudyn's MainSystem vocabulary).
class Model {
 public:
  /// Adds a node and returns its index. Throws ValidationError for invalid fields.
  NodeIndex AddNode(NodeItem item);
  /// Adds an object (body, connector, constraint) and returns its index. Referenced nodes
  /// and markers must already exist and be of a kind the object accepts.
  ObjectIndex AddObject(ObjectItem item);
  /// Adds a marker; its body or node must exist and provide what the marker needs.
  MarkerIndex AddMarker(MarkerItem item);
  /// Adds a load on an existing marker of a suitable kind.
  LoadIndex AddLoad(LoadItem item);
  /// Adds a sensor; the output variable type must be one its target can compute.
  SensorIndex AddSensor(SensorItem item);
  /// Redirects a sensor's output (file name, writeToFile, storeInternal); e.g. a command
  /// line run writing every sensor into one output folder. Throws std::out_of_range.
  void SetSensorOutput(SensorIndex i, const std::string& fileName, bool writeToFile, bool storeInternal);

  const std::vector<NodeItem>& Nodes() const { return nodes_; }
  const std::vector<ObjectItem>& Objects() const { return objects_; }
  const std::vector<MarkerItem>& Markers() const { return markers_; }
  const std::vector<LoadItem>& Loads() const { return loads_; }
  const std::vector<SensorItem>& Sensors() const { return sensors_; }

  const NodeItem& GetNode(NodeIndex i) const { return nodes_.at(static_cast<size_t>(i.value)); }
  const ObjectItem& GetObject(ObjectIndex i) const { return objects_.at(static_cast<size_t>(i.value)); }
  const MarkerItem& GetMarker(MarkerIndex i) const { return markers_.at(static_cast<size_t>(i.value)); }
  const LoadItem& GetLoad(LoadIndex i) const { return loads_.at(static_cast<size_t>(i.value)); }
  const SensorItem& GetSensor(SensorIndex i) const { return sensors_.at(static_cast<size_t>(i.value)); }

  /// Item names: the given name, or Exudyn's default ("node0", "object3", "marker1", ...).
  std::string NodeName(int i) const;
  std::string ObjectName(int i) const;
  std::string MarkerName(int i) const;
  std::string LoadName(int i) const;
  std::string SensorName(int i) const;

  /// Compiles the model: assigns ODE2/ODE1/AE coordinates, builds the flat structure and
  /// the theta paths. Throws ValidationError if the model has no coordinates.
  Layout Compile() const;
  /// Theta row of the model as built (every Real parameter, in Layout::thetaPaths order).
  std::vector<Real> Theta0() const;

 private:
  /// Number of coordinates behind a marker (0 for markers on ground).
  int MarkerCoordinateCount(int marker) const;
  std::vector<NodeItem> nodes_;
  std::vector<ObjectItem> objects_;
  std::vector<MarkerItem> markers_;
  std::vector<LoadItem> loads_;
  std::vector<SensorItem> sensors_;
};

/// Number of ODE2 coordinates of a node item.
int NodeODE2Count(const NodeItem& n);
/// Number of ODE1 coordinates of a node item.
int NodeODE1Count(const NodeItem& n);
/// Node kind of a node item.
NodeKind KindOf(const NodeItem& n);
ObjectKind KindOf(const ObjectItem& o);
MarkerKind KindOf(const MarkerItem& m);
LoadKind KindOf(const LoadItem& l);
SensorKind KindOf(const SensorItem& s);

}  // namespace mbsweep
