/// @file NodeRigidBody2D.h
/// The item NodeRigidBody2D: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Planar rigid-body node: x, y, rotation angle theta about z.
struct NodeRigidBody2D {
  static constexpr const char* typeName = "NodeRigidBody2D";
  static constexpr const char* shortName = "Rigid2D";  ///< Exudyn's short name
  std::string name;
  Vector3D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};

}  // namespace mbsweep
