/// @file ObjectJointRevolute2D.h
/// The item ObjectJointRevolute2D: its fields (Exudyn's names, defaults and rules), its
/// equations with their Jacobian, and its residual between planar markers.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Planar revolute joint: the x and y positions of both markers coincide (2 equations).
struct ObjectJointRevolute2D {
  static constexpr const char* typeName = "ObjectJointRevolute2D";
  static constexpr const char* shortName = "RevoluteJoint2D";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Force, OutputVariableType::ConstraintEquation};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  /// x and y of p1 - p0 (velocity level: v1 - v0), C_q rows = [-Jpos0, Jpos1].
  MBS_HD_FORCEINLINE static void Equations(const ConstraintAccess& c, const Real*, ConstraintEval& e) {
    const JointMarkers m(c);
    for (int r = 0; r < 2; ++r) {
      e.C[r] = c.index2 ? m.dv[r] : m.dp[r];
      AddRowGlobalPos(e, r, m.k0, m.k1, r);
    }
  }
  /// Residual between planar markers (PlanarMarkerKinematics): the two equations into ae and the
  /// reactions into f, with the values of Equations (sums over the equations in order), but
  /// without 3D kinematics and C_q. Returns false (nothing written) for other markers.
  MBS_HD_FORCEINLINE static bool Residual(const ConstraintAccess& c, const Real*, const Real* lambda,
                                          AngleCache& angles, Real* f, Real* ae) {
    const ObjectRecord& o = c.o;
    PlanarPoint P0, P1;
    if (!PlanarMarkerKinematics(c.L, c.theta, c.q, c.v, o.extra[0], P0, angles) ||
        !PlanarMarkerKinematics(c.L, c.theta, c.q, c.v, o.extra[1], P1, angles))
      return false;
    const Real* lam = lambda + o.aeBegin;
    const bool active = o.extra[2] != 0;
    for (int r = 0; r < 2; ++r)
      ae[o.aeBegin + r] = !active ? lam[r] : c.index2 ? P1.vel[r] - P0.vel[r] : P1.pos[r] - P0.pos[r];
    if (!active) return true;
    SubtractPlanarReaction(P0, o.ltgODE2, -1, lam, f);
    SubtractPlanarReaction(P1, o.ltgODE2 + P0.n, 1, lam, f);
    return true;
  }
  /// f -= sign J^T lam over a planar point's node coordinates ltg[0..n) (J: the unit matrix over
  /// x and y, Jphi for a rotation coordinate). The products with the unit entries are left out;
  /// up to the sign of a zero they change nothing.
  MBS_HD_FORCEINLINE static void SubtractPlanarReaction(const PlanarPoint& P, const int* ltg, Real sign,
                                                        const Real* lam, Real* f) {
    if (P.n == 0) return;
    f[ltg[0]] -= sign * lam[0];
    f[ltg[1]] -= sign * lam[1];
    if (P.n > 2) f[ltg[2]] -= sign * (P.Jphi[0] * lam[0] + P.Jphi[1] * lam[1]);
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
