/// @file ObjectConnectorCoordinate.h
/// The item ObjectConnectorCoordinate: its fields (Exudyn's names, defaults and rules), its
/// equation with its Jacobian, and its residual.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"
#include "common/time_function.h"

namespace mbsweep {

/// Coordinate constraint: factor1 * q_m1 - q_m0 - offset * f(t) = 0 (velocities with
/// velocityLevel). f is the built-in offsetTimeFunction (constant 1 by default).
struct ObjectConnectorCoordinate {
  static constexpr const char* typeName = "ObjectConnectorCoordinate";
  static constexpr const char* shortName = "CoordinateConstraint";  ///< Exudyn's short name
  /// field names of Exudyn before 1.12.258, read as the current ones
  static constexpr FieldAlias fieldAliases[] = {{"factorValue1", "factor1"}};
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Displacement, OutputVariableType::Velocity,
                                                   OutputVariableType::Force, OutputVariableType::ConstraintEquation};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real offset = 0;
  Real factor1 = 1;
  bool velocityLevel = false;
  TimeFunction offsetTimeFunction;
  bool activeConnector = true;
  /// The equation: k1 q1 - q0 - offset(t), or on velocity level (velocityLevel, or index 2 with
  /// the offset's rate by central differences) k1 v1 - v0 - rate. p: offset, factor1, the
  /// time function's parameters; extra[3..5]: velocityLevel, time function type and data
  /// (table length; program offset).
  MBS_HD_INLINE static Real Equation(const ConstraintAccess& c, const Real* p) {
    const ObjectRecord& o = c.o;
    Real q0, v0, q1, v1;
    MarkerCoordinate(c.L, c.q, c.v, nullptr, o.extra[0], q0, v0);
    MarkerCoordinate(c.L, c.q, c.v, nullptr, o.extra[1], q1, v1);
    const Real offset = p[0] * EvalTimeFunction(o.extra[4], o.extra[5], p + 2, c.t, &c.L);
    const Real k1 = p[1];
    if (o.extra[3] != 0) return k1 * v1 - v0 - offset;
    if (c.index2) {
      const Real dt = 1e-7 * (c.t > 1 ? c.t : 1);
      const Real offT = p[0] *
                        (EvalTimeFunction(o.extra[4], o.extra[5], p + 2, c.t + dt, &c.L) -
                         EvalTimeFunction(o.extra[4], o.extra[5], p + 2, c.t - dt, &c.L)) /
                        (2 * dt);
      return k1 * v1 - v0 - offT;
    }
    return k1 * q1 - q0 - offset;
  }
  /// Equation and C_q: -1 over marker 0's coordinate, factor1 over marker 1's.
  MBS_HD_FORCEINLINE static void Equations(const ConstraintAccess& c, const Real* p, ConstraintEval& e) {
    e.velocity = c.index2 || c.o.extra[3] != 0;
    e.C[0] = Equation(c, p);
    const int n0 = GetMarkerRecord(c.L, c.o.extra[0]).nCoords;
    if (n0) e.Cq[0] = -1;
    if (GetMarkerRecord(c.L, c.o.extra[1]).nCoords) e.Cq[n0] = p[1];
  }
  /// Residual with the values of Equations, without the C_q arrays.
  MBS_HD_INLINE static bool Residual(const ConstraintAccess& c, const Real* p, const Real* lambda, AngleCache&, Real* f,
                                     Real* ae) {
    const ObjectRecord& o = c.o;
    const Real lam = lambda[o.aeBegin];
    if (o.extra[2] == 0) {  // inactive: lambda = 0
      ae[o.aeBegin] = lam;
      return true;
    }
    ae[o.aeBegin] = Equation(c, p);
    const int n0 = GetMarkerRecord(c.L, o.extra[0]).nCoords;
    if (n0) f[o.ltgODE2[0]] -= -lam;
    if (GetMarkerRecord(c.L, o.extra[1]).nCoords) f[o.ltgODE2[n0]] -= p[1] * lam;
    return true;
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("offset", offset, Rule::Real);
    v("factor1", factor1, Rule::Real);
    v("velocityLevel", velocityLevel);
    v("offsetTimeFunction", offsetTimeFunction);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
