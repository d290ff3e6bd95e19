/// @file NodePoint.h
/// The item NodePoint: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Point node in 3D: 3 ODE2 displacement coordinates.
struct NodePoint {
  static constexpr const char* typeName = "NodePoint";
  static constexpr const char* shortName = "Point";  ///< Exudyn's short name
  std::string name;
  Vector3D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};

}  // namespace mbsweep
