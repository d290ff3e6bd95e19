/// @file NodePoint2D.h
/// The item NodePoint2D: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Point node in the x-y plane: 2 ODE2 coordinates.
struct NodePoint2D {
  static constexpr const char* typeName = "NodePoint2D";
  static constexpr const char* shortName = "Point2D";  ///< Exudyn's short name
  std::string name;
  Vector2D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};

}  // namespace mbsweep
