/// @file ObjectRotationalMass1D.h
/// The item ObjectRotationalMass1D: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Rotor turning about the local z-axis of a reference frame, on a Node1D (angle).
struct ObjectRotationalMass1D {
  static constexpr const char* typeName = "ObjectRotationalMass1D";
  static constexpr ObjectCategory category = ObjectCategory::Body;
  std::string name;
  Real physicsInertia = 0;
  NodeIndex nodeNumber;
  Vector3D referencePosition{};
  Matrix3D referenceRotation{};
  template <class V> void Fields(V& v) {
    v("physicsInertia", physicsInertia, Rule::UReal);
    v("nodeNumber", nodeNumber);
    v("referencePosition", referencePosition, Rule::Real);
    v("referenceRotation", referenceRotation);
  }
};

}  // namespace mbsweep
