/// @file ObjectConnectorLinearSpringDamper.h
/// The item ObjectConnectorLinearSpringDamper: its fields (Exudyn's names, defaults and rules), its
/// typed parameters, its force law and its outputs.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorLinearSpringDamper, in Fields() order (its theta slots).
struct ObjectConnectorLinearSpringDamperParams {
  Real stiffness = 0, damping = 0;
  Vector3D axisMarker0{1, 0, 0};
  Real offset = 0, velocityOffset = 0, force = 0;
};

/// Linear spring-damper along axisMarker0 (co-moving with marker 0) between two
/// Position+Orientation markers: with a = A0 axisMarker0, x = a . (p1 - p0), x_t = a . (v1 - v0),
/// f = stiffness (x - offset) + damping (x_t - velocityOffset) + force, applied as the force
/// -f a on marker 1 and f a on marker 0 (no torque from the moving axis).
struct ObjectConnectorLinearSpringDamper : ObjectConnectorLinearSpringDamperParams {
  using Params = ObjectConnectorLinearSpringDamperParams;
  static constexpr const char* typeName = "ObjectConnectorLinearSpringDamper";
  static constexpr const char* shortName = "LinearSpringDamper";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::RigidConnector;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::DisplacementLocal,
                                                   OutputVariableType::VelocityLocal, OutputVariableType::ForceLocal};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  /// Displacement and velocity along the axis a = A0 axisMarker0 and the scalar force
  /// stiffness (x - offset) + damping (x_t - velocityOffset) + force in forceLocal[0].
  MBS_HD_INLINE static void Evaluate(const Params& p, RigidConnectorState& s, bool active) {
    const Vec3 dp = s.k1.pos - s.k0.pos;
    const Vec3 dv = s.k1.vel - s.k0.vel;
    s.A0all = s.k0.A;
    s.axis = s.k0.A * ToVec3(p.axisMarker0);
    s.scalar = Dot(s.axis, dp);
    s.scalar_t = Dot(s.axis, dv);
    s.dispLocal = MultT(s.A0all, dp);
    s.velLocal = MultT(s.A0all, dv);
    s.rotLocal = s.angVelLocal = MakeVec3(0, 0, 0);
    if (active)
      s.forceLocal[0] = p.stiffness * (s.scalar - p.offset) + p.damping * (s.scalar_t - p.velocityOffset) + p.force;
  }
  /// The force along the axis on marker 0, its negative on marker 1.
  MBS_HD_INLINE static void LocalRHS(const RigidConnectorState& s, Real* fLoc) {
    const Vec3 f = s.forceLocal[0] * s.axis;
    AddPositionForce(s.k0, f, fLoc, 0);
    AddPositionForce(s.k1, -f, fLoc, s.k0.n);
  }
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
