/// @file ObjectConnectorSpringDamper.h
/// The item ObjectConnectorSpringDamper: its fields (Exudyn's names, defaults and rules), its typed parameters, its
/// force law and its outputs.
#pragma once

#include "common/expression.h"
#include "common/item_physics.h"
#include "common/item_types.h"
#include "common/layout.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorSpringDamper, in Fields() order (its theta slots).
struct ObjectConnectorSpringDamperParams {
  Real referenceLength = 0, stiffness = 0, damping = 0, force = 0, velocityOffset = 0;
};

/// Spring-damper between two position markers:
/// f = k(L - L0) + d(L_t - velocityOffset) + force, along the unit vector; or the value of
/// springForceUserFunction, an expression of t, deltaL = L - L0, deltaL_t = L_t - velocityOffset,
/// stiffness, damping and force (Exudyn's springForceUserFunction(mbs, t, itemNumber, deltaL,
/// deltaL_t, stiffness, damping, force)), evaluated only while the connector is active.
struct ObjectConnectorSpringDamper : ObjectConnectorSpringDamperParams {
  using Params = ObjectConnectorSpringDamperParams;
  static constexpr const char* typeName = "ObjectConnectorSpringDamper";
  static constexpr const char* shortName = "SpringDamper";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::PositionConnector;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  UserFunction springForceUserFunction;
  static constexpr const char* springForceArgs = "t, deltaL, deltaL_t, stiffness, damping, force";  ///< its arguments
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Distance, OutputVariableType::Displacement,
                                                   OutputVariableType::Velocity, OutputVariableType::Force,
                                                   OutputVariableType::ForceLocal};
  MBS_HD_INLINE static void Evaluate(const Params& p, PositionConnectorState& s, bool active) {
    const Vec3 u = Geometry(s);
    s.scalarForce =
        p.stiffness * (s.distance - p.referenceLength) + p.damping * (Dot(u, s.velocity) - p.velocityOffset) + p.force;
    if (active) s.force = s.scalarForce * u;
  }
  /// Evaluate with the user function whose program starts at L.ints[program] (its parameters
  /// follow the Params in theta; p: the item's theta) at time t. Inactive: no force.
  MBS_HD_INLINE static void EvaluateUser(const LayoutView& L, int program, const Real* p, Real t,
                                         PositionConnectorState& s, bool active) {
    const Params& P = ParamsAt<ObjectConnectorSpringDamper>(p);
    const Vec3 u = Geometry(s);
    if (!active) return;
    const Real args[6] = {t, s.distance - P.referenceLength, Dot(u, s.velocity) - P.velocityOffset,
                          P.stiffness, P.damping, P.force};
    s.scalarForce = EvalExpression(L.ints + program, args, p + sizeof(Params) / sizeof(Real), L.expressionHost);
    s.force = s.scalarForce * u;
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("referenceLength", referenceLength, Rule::UReal);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("force", force, Rule::Real);
    v("velocityOffset", velocityOffset, Rule::Real);
    v("activeConnector", activeConnector);
    v("springForceUserFunction", springForceUserFunction, springForceArgs);
  }

  /// Distance, displacement and relative velocity into s; returns the unit vector from marker 0
  /// to marker 1 (x if they coincide).
  MBS_HD_INLINE static Vec3 Geometry(PositionConnectorState& s) {
    s.displacement = s.k1.pos - s.k0.pos;
    s.velocity = s.k1.vel - s.k0.vel;
    s.distance = Norm(s.displacement);
    return s.distance > 0 ? (1. / s.distance) * s.displacement : MakeVec3(1, 0, 0);
  }
};

}  // namespace mbsweep
