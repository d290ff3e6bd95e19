/// @file ObjectConnectorRigidBodySpringDamper.h
/// The item ObjectConnectorRigidBodySpringDamper: its fields (Exudyn's names, defaults and
/// rules), its typed parameters, its force and torque law and its outputs.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorRigidBodySpringDamper, in Fields() order (its theta slots).
struct ObjectConnectorRigidBodySpringDamperParams {
  Matrix6D stiffness, damping;
  Matrix3D rotationMarker0, rotationMarker1;
  Vector6D offset{};
};

/// 6D spring-damper between two Position+Orientation markers, acting in the joint frame J0
/// (A0 rotationMarker0). With d = J0-components of p1 - p0, theta = Tait-Bryan xyz angles of
/// the relative rotation (A0 R0)^T (A1 R1) (each angle above pi shifted by -2 pi), and
/// relative velocity / angular velocity in J0:  [f; m] = stiffness ([d; theta] - offset) +
/// damping [d_t; omega_rel]. f and m act on marker 1 (and negated on marker 0) after
/// transformation to global coordinates. (Exudyn's intrinsicFormulation is not provided.)
struct ObjectConnectorRigidBodySpringDamper : ObjectConnectorRigidBodySpringDamperParams {
  using Params = ObjectConnectorRigidBodySpringDamperParams;
  static constexpr const char* typeName = "ObjectConnectorRigidBodySpringDamper";
  static constexpr const char* shortName = "RigidBodySpringDamper";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::RigidConnector;
  static constexpr OutputVariableType outputs[] = {
      OutputVariableType::DisplacementLocal,    OutputVariableType::VelocityLocal, OutputVariableType::Rotation,
      OutputVariableType::AngularVelocityLocal, OutputVariableType::ForceLocal,    OutputVariableType::TorqueLocal};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  /// Joint-frame kinematics; [forceLocal, torqueLocal] = stiffness (u - offset) + damping u_t
  /// for u = [dispLocal, rotLocal], u_t = [velLocal, angVelLocal].
  MBS_HD_INLINE static void Evaluate(const Params& p, RigidConnectorState& s, bool active) {
    s.A0all = s.k0.A * ToMat3(p.rotationMarker0);
    s.JointFrameKinematics(s.k1.A * ToMat3(p.rotationMarker1));
    if (!active) return;
    const Real u[6] = {s.dispLocal[0] - p.offset[0], s.dispLocal[1] - p.offset[1], s.dispLocal[2] - p.offset[2],
                       s.rotLocal[0] - p.offset[3],  s.rotLocal[1] - p.offset[4],  s.rotLocal[2] - p.offset[5]};
    const Real w[6] = {s.velLocal[0],    s.velLocal[1],    s.velLocal[2],
                       s.angVelLocal[0], s.angVelLocal[1], s.angVelLocal[2]};
    for (int i = 0; i < 6; ++i) {
      Real f = 0;
      for (int j = 0; j < 6; ++j) f += p.stiffness.data[i * 6 + j] * u[j] + p.damping.data[i * 6 + j] * w[j];
      if (i < 3) s.forceLocal[i] = f;
      else s.torqueLocal[i - 3] = f;
    }
  }
  /// The force and torque (global) on marker 0, their negatives on marker 1.
  MBS_HD_INLINE static void LocalRHS(const RigidConnectorState& s, Real* fLoc) {
    const Vec3 f = s.A0all * s.forceLocal, m = s.A0all * s.torqueLocal;
    AddPositionForce(s.k0, f, fLoc, 0);
    AddPositionForce(s.k1, -f, fLoc, s.k0.n);
    AddTorque(s.k0, m, fLoc, 0);
    AddTorque(s.k1, -m, fLoc, s.k0.n);
  }
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
