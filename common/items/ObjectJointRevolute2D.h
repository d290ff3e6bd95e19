/// @file ObjectJointRevolute2D.h
/// The item ObjectJointRevolute2D: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Planar revolute joint: the x and y positions of both markers coincide (2 equations).
struct ObjectJointRevolute2D {
  static constexpr const char* typeName = "ObjectJointRevolute2D";
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
