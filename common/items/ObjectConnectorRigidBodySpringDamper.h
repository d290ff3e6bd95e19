/// @file ObjectConnectorRigidBodySpringDamper.h
/// The item ObjectConnectorRigidBodySpringDamper: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// 6D spring-damper between two Position+Orientation markers, acting in the joint frame J0
/// (A0 rotationMarker0). With d = J0-components of p1 - p0, theta = Tait-Bryan xyz angles of
/// the relative rotation (A0 R0)^T (A1 R1) (each angle above pi shifted by -2 pi), and
/// relative velocity / angular velocity in J0:  [f; m] = stiffness ([d; theta] - offset) +
/// damping [d_t; omega_rel]. f and m act on marker 1 (and negated on marker 0) after
/// transformation to global coordinates. (Exudyn's intrinsicFormulation is not provided.)
struct ObjectConnectorRigidBodySpringDamper {
  static constexpr const char* typeName = "ObjectConnectorRigidBodySpringDamper";
  static constexpr ObjectCategory category = ObjectCategory::RigidConnector;
  static constexpr OutputVariableType outputs[] = {
      OutputVariableType::DisplacementLocal,    OutputVariableType::VelocityLocal, OutputVariableType::Rotation,
      OutputVariableType::AngularVelocityLocal, OutputVariableType::ForceLocal,    OutputVariableType::TorqueLocal};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Matrix6D stiffness, damping;
  Matrix3D rotationMarker0, rotationMarker1;
  Vector6D offset{};
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness);
    v("damping", damping);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("offset", offset, Rule::Real);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
