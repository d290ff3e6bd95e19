/// @file ObjectConnectorDistance.h
/// The item ObjectConnectorDistance: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Distance constraint between two position markers: |p1 - p0| - distance = 0.
struct ObjectConnectorDistance {
  static constexpr const char* typeName = "ObjectConnectorDistance";
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real distance = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("distance", distance, Rule::PReal);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
