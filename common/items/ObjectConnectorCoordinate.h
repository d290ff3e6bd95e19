/// @file ObjectConnectorCoordinate.h
/// The item ObjectConnectorCoordinate: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Coordinate constraint: factorValue1 * q_m1 - q_m0 - offset * f(t) = 0 (velocities with
/// velocityLevel). f is the built-in offsetTimeFunction (constant 1 by default).
struct ObjectConnectorCoordinate {
  static constexpr const char* typeName = "ObjectConnectorCoordinate";
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real offset = 0;
  Real factorValue1 = 1;
  bool velocityLevel = false;
  TimeFunction offsetTimeFunction;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("offset", offset, Rule::Real);
    v("factorValue1", factorValue1, Rule::Real);
    v("velocityLevel", velocityLevel);
    v("offsetTimeFunction", offsetTimeFunction);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
