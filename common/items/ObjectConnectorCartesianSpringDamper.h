/// @file ObjectConnectorCartesianSpringDamper.h
/// The item ObjectConnectorCartesianSpringDamper: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Component-wise spring-damper in global x, y, z: f = diag(k)(dp - offset) + diag(d) dv.
struct ObjectConnectorCartesianSpringDamper {
  static constexpr const char* typeName = "ObjectConnectorCartesianSpringDamper";
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Vector3D stiffness{}, damping{}, offset{};
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("offset", offset, Rule::Real);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
