/// @file ObjectConnectorCartesianSpringDamper.h
/// The item ObjectConnectorCartesianSpringDamper: its fields (Exudyn's names, defaults and rules), its typed parameters, its
/// force law and its outputs.
#pragma once

#include "common/expression.h"
#include "common/item_physics.h"
#include "common/item_types.h"
#include "common/layout.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorCartesianSpringDamper, in Fields() order (its theta slots).
struct ObjectConnectorCartesianSpringDamperParams {
  Vector3D stiffness{}, damping{}, offset{};
};

/// Component-wise spring-damper in global x, y, z: f = diag(k)(dp - offset) + diag(d) dv; or the
/// values of springForceUserFunction, three expressions of t, displacement[0..2] = dp - offset,
/// velocity[0..2] = dv, stiffness[0..2], damping[0..2] and offset[0..2] (Exudyn's
/// springForceUserFunction(mbs, t, itemNumber, displacement, velocity, stiffness, damping,
/// offset)), evaluated only while the connector is active.
struct ObjectConnectorCartesianSpringDamper : ObjectConnectorCartesianSpringDamperParams {
  using Params = ObjectConnectorCartesianSpringDamperParams;
  static constexpr const char* typeName = "ObjectConnectorCartesianSpringDamper";
  static constexpr const char* shortName = "CartesianSpringDamper";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::PositionConnector;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  UserFunction springForceUserFunction;
  static constexpr const char* springForceArgs =  ///< its arguments
      "t, displacement[0], displacement[1], displacement[2], velocity[0], velocity[1], velocity[2], stiffness[0], "
      "stiffness[1], stiffness[2], damping[0], damping[1], damping[2], offset[0], offset[1], offset[2]";
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Distance, OutputVariableType::Displacement,
                                                   OutputVariableType::Velocity, OutputVariableType::Force};
  MBS_HD_INLINE static void Evaluate(const Params& p, PositionConnectorState& s, bool active) {
    Geometry(p, s);
    const Vec3& dp = s.displacement;
    const Vec3& dv = s.velocity;
    const Vec3 f = MakeVec3(p.stiffness[0] * dp[0] + p.damping[0] * dv[0], p.stiffness[1] * dp[1] + p.damping[1] * dv[1],
                            p.stiffness[2] * dp[2] + p.damping[2] * dv[2]);
    if (active) s.force = f;
  }
  /// Evaluate with the user function whose three programs start at L.ints[program] (its
  /// parameters follow the Params in theta; p: the item's theta) at time t. Inactive: no force.
  MBS_HD_INLINE static void EvaluateUser(const LayoutView& L, int program, const Real* p, Real t,
                                         PositionConnectorState& s, bool active) {
    const Params& P = ParamsAt<ObjectConnectorCartesianSpringDamper>(p);
    Geometry(P, s);
    if (!active) return;
    Real args[16] = {t};
    for (int i = 0; i < 3; ++i) {
      args[1 + i] = s.displacement[i];
      args[4 + i] = s.velocity[i];
      args[7 + i] = P.stiffness[i];
      args[10 + i] = P.damping[i];
      args[13 + i] = P.offset[i];
    }
    const int* c = L.ints + program;
    for (int i = 0; i < 3; ++i, c += 1 + c[0])
      s.force[i] = EvalExpression(c, args, p + sizeof(Params) / sizeof(Real), L.expressionHost);
  }
  /// Displacement dp - offset, its norm and the relative velocity into s.
  MBS_HD_INLINE static void Geometry(const Params& p, PositionConnectorState& s) {
    s.displacement = (s.k1.pos - s.k0.pos) - ToVec3(p.offset);
    s.velocity = s.k1.vel - s.k0.vel;
    s.distance = Norm(s.displacement);
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("offset", offset, Rule::Real);
    v("activeConnector", activeConnector);
    v("springForceUserFunction", springForceUserFunction, springForceArgs, 3);
  }
};

}  // namespace mbsweep
