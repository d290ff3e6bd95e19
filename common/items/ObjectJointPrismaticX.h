/// @file ObjectJointPrismaticX.h
/// The item ObjectJointPrismaticX: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Prismatic joint along the x-axis of the joint frame J0 = A0 rotationMarker0 (5 equations):
/// the J0 y and z components of p1 - p0 vanish, and z0 . y1 = z0 . x1 = x0 . y1 = 0 (J0 and
/// J1 = A1 rotationMarker1 keep their relative orientation).
struct ObjectJointPrismaticX {
  static constexpr const char* typeName = "ObjectJointPrismaticX";
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
