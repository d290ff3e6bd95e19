/// @file ObjectJointPrismatic2D.h
/// The item ObjectJointPrismatic2D: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Planar prismatic joint: marker 1 slides along axisMarker0 (marker-0 frame):
/// (A1 normalMarker1) . (p1 - p0) = 0 and, with constrainRotation,
/// (A0 axisMarker0) . (A1 normalMarker1) = 0.
struct ObjectJointPrismatic2D {
  static constexpr const char* typeName = "ObjectJointPrismatic2D";
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Vector3D axisMarker0{1, 0, 0};
  Vector3D normalMarker1{0, 1, 0};
  bool constrainRotation = true;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("axisMarker0", axisMarker0, Rule::Real);
    v("normalMarker1", normalMarker1, Rule::Real);
    v("constrainRotation", constrainRotation);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
