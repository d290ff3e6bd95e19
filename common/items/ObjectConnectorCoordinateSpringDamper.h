/// @file ObjectConnectorCoordinateSpringDamper.h
/// The item ObjectConnectorCoordinateSpringDamper: its fields (Exudyn's names, defaults and
/// rules), its typed parameters, its force law and its outputs.
#pragma once

#include "common/expression.h"
#include "common/item_physics.h"
#include "common/item_types.h"
#include "common/layout.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorCoordinateSpringDamper, in Fields() order (its theta slots).
struct ObjectConnectorCoordinateSpringDamperParams {
  Real stiffness = 0, damping = 0, offset = 0;
};

/// Spring-damper between two coordinates: f = k(q1 - q0 - offset) + d(v1 - v0), or the value of
/// springForceUserFunction, an expression of t, u = q1 - q0, v = v1 - v0, k, d and offset
/// (Exudyn's springForceUserFunction(mbs, t, itemNumber, u, v, k, d, offset)), whose Jacobian is
/// then taken by forward differences.
struct ObjectConnectorCoordinateSpringDamper : ObjectConnectorCoordinateSpringDamperParams {
  using Params = ObjectConnectorCoordinateSpringDamperParams;
  static constexpr const char* typeName = "ObjectConnectorCoordinateSpringDamper";
  static constexpr const char* shortName = "CoordinateSpringDamper";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::CoordinateConnector;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Displacement, OutputVariableType::Velocity,
                                                   OutputVariableType::Force};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  UserFunction springForceUserFunction;
  static constexpr const char* springForceArgs = "t, u, v, k, d, offset";  ///< its arguments
  /// The force for the coordinate difference dq = q1 - q0 and velocity difference dv.
  MBS_HD_INLINE static Real Force(const Params& p, Real dq, Real dv) {
    return p.stiffness * (dq - p.offset) + p.damping * dv;
  }
  /// The force's derivatives with respect to dq and dv (constant: stiffness, damping).
  MBS_HD_INLINE static void ForceDerivatives(const Params& p, Real& dFdq, Real& dFdv) {
    dFdq = p.stiffness;
    dFdv = p.damping;
  }
  /// The force with the user function whose program starts at L.ints[program] (>= 0; its
  /// parameters follow the Params in theta), or the built-in law (program < 0). p: the item's theta.
  MBS_HD_INLINE static Real ForceAt(const LayoutView& L, int program, const Real* p, Real t, Real dq, Real dv) {
    const Params& P = ParamsAt<ObjectConnectorCoordinateSpringDamper>(p);
    if (program < 0) return Force(P, dq, dv);
    const Real args[6] = {t, dq, dv, P.stiffness, P.damping, P.offset};
    return EvalExpression(L.ints + program, args, p + sizeof(Params) / sizeof(Real), L.expressionHost);
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("offset", offset, Rule::Real);
    v("activeConnector", activeConnector);
    v("springForceUserFunction", springForceUserFunction, springForceArgs);
  }
};

}  // namespace mbsweep
