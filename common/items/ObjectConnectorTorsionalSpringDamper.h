/// @file ObjectConnectorTorsionalSpringDamper.h
/// The item ObjectConnectorTorsionalSpringDamper: its fields (Exudyn's names, defaults and rules),
/// its typed parameters, its torque law and its outputs.
#pragma once

#include "common/expression.h"
#include "common/item_physics.h"
#include "common/item_types.h"
#include "common/layout.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorTorsionalSpringDamper, in Fields() order (its theta slots).
struct ObjectConnectorTorsionalSpringDamperParams {
  Real stiffness = 0, damping = 0;
  Matrix3D rotationMarker0, rotationMarker1;
  Real offset = 0, velocityOffset = 0, torque = 0;
};

/// Torsional spring-damper about the z-axis of the joint frame J0 = A0 rotationMarker0 between
/// two Orientation markers: the angle is the third Tait-Bryan xyz angle of the relative
/// rotation (A0 R0)^T (A1 R1), i.e. atan2 of its (1,0) and (0,0) entries, in (-pi, pi]; the
/// angular velocity is the J0 z-component of omega1 - omega0;
/// torque = stiffness (angle - offset) + damping (omega - velocityOffset) + torque, about the
/// global J0 z-axis, restoring on marker 1 and opposite on marker 0; or the value of
/// springTorqueUserFunction, an expression of t, rotation (the angle), angularVelocity,
/// stiffness, damping and offset (Exudyn's springTorqueUserFunction(mbs, t, itemNumber,
/// rotation, angularVelocity, stiffness, damping, offset)), evaluated only while active.
struct ObjectConnectorTorsionalSpringDamper : ObjectConnectorTorsionalSpringDamperParams {
  using Params = ObjectConnectorTorsionalSpringDamperParams;
  static constexpr const char* typeName = "ObjectConnectorTorsionalSpringDamper";
  static constexpr const char* shortName = "TorsionalSpringDamper";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::RigidConnector;
  static constexpr OutputVariableType outputs[] = {
      OutputVariableType::Rotation, OutputVariableType::AngularVelocityLocal, OutputVariableType::TorqueLocal};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  UserFunction springTorqueUserFunction;
  static constexpr const char* springTorqueArgs = "t, rotation, angularVelocity, stiffness, damping, offset";
  /// Joint-frame kinematics; the torque stiffness (angle - offset) + damping (angle_t -
  /// velocityOffset) + torque about the J0 z-axis in torqueLocal[2].
  MBS_HD_INLINE static void Evaluate(const Params& p, RigidConnectorState& s, bool active) {
    Kinematics(p, s);
    if (active)
      s.torqueLocal[2] = p.stiffness * (s.scalar - p.offset) + p.damping * (s.scalar_t - p.velocityOffset) + p.torque;
  }
  /// Evaluate with the user function whose program starts at L.ints[program] (its parameters
  /// follow the Params in theta; p: the item's theta) at time t. Inactive: no torque.
  MBS_HD_INLINE static void EvaluateUser(const LayoutView& L, int program, const Real* p, Real t,
                                         RigidConnectorState& s, bool active) {
    const Params& P = ParamsAt<ObjectConnectorTorsionalSpringDamper>(p);
    Kinematics(P, s);
    if (!active) return;
    const Real args[6] = {t, s.scalar, s.scalar_t, P.stiffness, P.damping, P.offset};
    s.torqueLocal[2] = EvalExpression(L.ints + program, args, p + sizeof(Params) / sizeof(Real), L.expressionHost);
  }
  /// The joint frame J0, the relative rotation and angular velocity; the angle and its rate
  /// into s.scalar and s.scalar_t.
  MBS_HD_INLINE static void Kinematics(const Params& p, RigidConnectorState& s) {
    s.A0all = s.k0.A * ToMat3(p.rotationMarker0);
    s.JointFrameKinematics(s.k1.A * ToMat3(p.rotationMarker1));
    s.scalar = s.rotLocal[2];
    s.scalar_t = s.angVelLocal[2];
  }
  /// The torque (global) on marker 0, its negative on marker 1.
  MBS_HD_INLINE static void LocalRHS(const RigidConnectorState& s, Real* fLoc) {
    const Vec3 m = s.A0all * s.torqueLocal;
    AddTorque(s.k0, m, fLoc, 0);
    AddTorque(s.k1, -m, fLoc, s.k0.n);
  }
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
    v("springTorqueUserFunction", springTorqueUserFunction, springTorqueArgs);
  }
};

}  // namespace mbsweep
