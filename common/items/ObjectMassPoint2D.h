/// @file ObjectMassPoint2D.h
/// The item ObjectMassPoint2D: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Point mass on a NodePoint2D; M = m*I2.
struct ObjectMassPoint2D {
  static constexpr const char* typeName = "ObjectMassPoint2D";
  static constexpr ObjectCategory category = ObjectCategory::Body;
  std::string name;
  Real physicsMass = 0;
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) {
    v("physicsMass", physicsMass, Rule::UReal);
    v("nodeNumber", nodeNumber);
  }
};

}  // namespace mbsweep
