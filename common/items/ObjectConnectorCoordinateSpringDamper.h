/// @file ObjectConnectorCoordinateSpringDamper.h
/// The item ObjectConnectorCoordinateSpringDamper: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Spring-damper between two coordinates: f = k(q1 - q0 - offset) + d(v1 - v0).
struct ObjectConnectorCoordinateSpringDamper {
  static constexpr const char* typeName = "ObjectConnectorCoordinateSpringDamper";
  static constexpr ObjectCategory category = ObjectCategory::CoordinateConnector;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Displacement, OutputVariableType::Velocity,
                                                   OutputVariableType::Force};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real stiffness = 0, damping = 0, offset = 0;
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
