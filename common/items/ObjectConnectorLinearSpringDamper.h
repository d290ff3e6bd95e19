/// @file ObjectConnectorLinearSpringDamper.h
/// The item ObjectConnectorLinearSpringDamper: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Linear spring-damper along axisMarker0 (co-moving with marker 0) between two
/// Position+Orientation markers: with a = A0 axisMarker0, x = a . (p1 - p0), x_t = a . (v1 - v0),
/// f = stiffness (x - offset) + damping (x_t - velocityOffset) + force, applied as the force
/// -f a on marker 1 and f a on marker 0 (no torque from the moving axis).
struct ObjectConnectorLinearSpringDamper {
  static constexpr const char* typeName = "ObjectConnectorLinearSpringDamper";
  static constexpr ObjectCategory category = ObjectCategory::RigidConnector;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::DisplacementLocal,
                                                   OutputVariableType::VelocityLocal, OutputVariableType::ForceLocal};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real stiffness = 0, damping = 0;
  Vector3D axisMarker0{1, 0, 0};
  Real offset = 0, velocityOffset = 0, force = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::Real);
    v("damping", damping, Rule::Real);
    v("axisMarker0", axisMarker0, Rule::Real);
    v("offset", offset, Rule::Real);
    v("velocityOffset", velocityOffset, Rule::Real);
    v("force", force, Rule::Real);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
