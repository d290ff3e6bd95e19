/// @file ObjectJointGeneric.h
/// The item ObjectJointGeneric: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Generic joint with 6 equations, one per axis of constrainedAxes = [x, y, z, rx, ry, rz]
/// (1: locked, 0: free; a free axis has the equation lambda = 0). Translations: p1 - p0 in
/// global coordinates if all three are locked, otherwise its J0 components. Rotations (J0, J1
/// as for ObjectJointRevoluteZ): all locked: z0.y1, z0.x1, x0.y1; one free axis f (others
/// l1 < l2): f0.l1_1 = f0.l2_1 = 0 in rows l1, l2; one locked axis l (free f1 < f2):
/// f1_0 . f2_1 = 0 in row l.
struct ObjectJointGeneric {
  static constexpr const char* typeName = "ObjectJointGeneric";
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  std::array<int, 6> constrainedAxes{1, 1, 1, 1, 1, 1};
  Matrix3D rotationMarker0, rotationMarker1;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("constrainedAxes", constrainedAxes);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
