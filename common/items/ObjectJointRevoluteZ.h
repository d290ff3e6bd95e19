/// @file ObjectJointRevoluteZ.h
/// The item ObjectJointRevoluteZ: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Revolute joint about the z-axis of the joint frame J0 = A0 rotationMarker0 (5 equations):
/// p1 - p0 = 0 (global) and z0 . x1 = z0 . y1 = 0 with z0 the J0 z-axis and x1, y1 the axes of
/// J1 = A1 rotationMarker1.
struct ObjectJointRevoluteZ {
  static constexpr const char* typeName = "ObjectJointRevoluteZ";
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Matrix3D rotationMarker0, rotationMarker1;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
