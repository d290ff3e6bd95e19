/// @file ObjectConnectorTorsionalSpringDamper.h
/// The item ObjectConnectorTorsionalSpringDamper: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Torsional spring-damper about the z-axis of the joint frame J0 = A0 rotationMarker0 between
/// two Orientation markers: the angle is the third Tait-Bryan xyz angle of the relative
/// rotation (A0 R0)^T (A1 R1), i.e. atan2 of its (1,0) and (0,0) entries, in (-pi, pi]; the
/// angular velocity is the J0 z-component of omega1 - omega0;
/// torque = stiffness (angle - offset) + damping (omega - velocityOffset) + torque, about the
/// global J0 z-axis, restoring on marker 1 and opposite on marker 0.
struct ObjectConnectorTorsionalSpringDamper {
  static constexpr const char* typeName = "ObjectConnectorTorsionalSpringDamper";
  static constexpr ObjectCategory category = ObjectCategory::RigidConnector;
  static constexpr OutputVariableType outputs[] = {
      OutputVariableType::Rotation, OutputVariableType::AngularVelocityLocal, OutputVariableType::TorqueLocal};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real stiffness = 0, damping = 0;
  Matrix3D rotationMarker0, rotationMarker1;
  Real offset = 0, velocityOffset = 0, torque = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::Real);
    v("damping", damping, Rule::Real);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("offset", offset, Rule::Real);
    v("velocityOffset", velocityOffset, Rule::Real);
    v("torque", torque, Rule::Real);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
