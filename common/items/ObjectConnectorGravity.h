/// @file ObjectConnectorGravity.h
/// The item ObjectConnectorGravity: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Newtonian gravitational attraction between two position markers.
struct ObjectConnectorGravity {
  static constexpr const char* typeName = "ObjectConnectorGravity";
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real gravitationalConstant = 6.67430e-11, mass0 = 0, mass1 = 0, minDistanceRegularization = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("gravitationalConstant", gravitationalConstant, Rule::Real);
    v("mass0", mass0, Rule::UReal);
    v("mass1", mass1, Rule::UReal);
    v("minDistanceRegularization", minDistanceRegularization, Rule::UReal);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
