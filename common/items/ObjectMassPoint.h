/// @file ObjectMassPoint.h
/// The item ObjectMassPoint: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Point mass on a NodePoint; M = m*I3.
struct ObjectMassPoint {
  static constexpr const char* typeName = "ObjectMassPoint";
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
