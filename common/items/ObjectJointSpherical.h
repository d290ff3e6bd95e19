/// @file ObjectJointSpherical.h
/// The item ObjectJointSpherical: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Spherical joint: the global position components of the two markers given by
/// constrainedAxes coincide (3 equations; an unconstrained axis has the equation lambda = 0).
struct ObjectJointSpherical {
  static constexpr const char* typeName = "ObjectJointSpherical";
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  std::array<int, 3> constrainedAxes{1, 1, 1};
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("constrainedAxes", constrainedAxes);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
