/// @file ObjectMass1D.h
/// The item ObjectMass1D: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Mass moving along the local x-axis of a reference frame, on a Node1D.
struct ObjectMass1D {
  static constexpr const char* typeName = "ObjectMass1D";
  static constexpr ObjectCategory category = ObjectCategory::Body;
  std::string name;
  Real physicsMass = 0;
  NodeIndex nodeNumber;
  Vector3D referencePosition{};
  Matrix3D referenceRotation{};
  template <class V> void Fields(V& v) {
    v("physicsMass", physicsMass, Rule::UReal);
    v("nodeNumber", nodeNumber);
    v("referencePosition", referencePosition, Rule::Real);
    v("referenceRotation", referenceRotation);
  }
};

}  // namespace mbsweep
