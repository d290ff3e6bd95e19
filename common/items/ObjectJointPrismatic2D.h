/// @file ObjectJointPrismatic2D.h
/// The item ObjectJointPrismatic2D: its fields (Exudyn's names, defaults and rules), its typed
/// parameters, its equations with their Jacobian, and its residual between planar markers.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectJointPrismatic2D, in Fields() order (its theta slots).
struct ObjectJointPrismatic2DParams {
  Vector3D axisMarker0{1, 0, 0};
  Vector3D normalMarker1{0, 1, 0};
};

/// Planar prismatic joint: marker 1 slides along axisMarker0 (marker-0 frame):
/// (A1 normalMarker1) . (p1 - p0) = 0 and, with constrainRotation,
/// (A0 axisMarker0) . (A1 normalMarker1) = 0.
struct ObjectJointPrismatic2D : ObjectJointPrismatic2DParams {
  using Params = ObjectJointPrismatic2DParams;
  static constexpr const char* typeName = "ObjectJointPrismatic2D";
  static constexpr const char* shortName = "PrismaticJoint2D";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Force, OutputVariableType::ConstraintEquation};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool constrainRotation = true;
  bool activeConnector = true;
  /// C0 = (p1 - p0) . n and, with constrainRotation (nAE = 2), C1 = a . n, for a = A0 axisMarker0
  /// and n = A1 normalMarker1; velocity level: C_t = C_q q_t.
  MBS_HD_FORCEINLINE static void Equations(const ConstraintAccess& c, const Params& p, ConstraintEval& e) {
    const JointMarkers m(c);
    const Kinematics &k0 = m.k0, &k1 = m.k1;
    const int off1 = k0.n;
    const Vec3 a = k0.A * ToVec3(p.axisMarker0);
    const Vec3 n = k1.A * ToVec3(p.normalMarker1);
    // dC0 = n . (dp1 - dp0) + (n x dp) . dOmega1
    AddRowPos(e, 0, k0, n, 0, -1);
    AddRowPos(e, 0, k1, n, off1, 1);
    AddRowRot(e, 0, k1, Cross(n, m.dp), off1, 1);
    if (e.nAE > 1) {  // dC1 = (a x n) . dOmega0 + (n x a) . dOmega1
      AddRowRot(e, 1, k0, Cross(a, n), 0, 1);
      AddRowRot(e, 1, k1, Cross(n, a), off1, 1);
    }
    if (c.index2) {
      for (int r = 0; r < e.nAE; ++r) {
        Real s = 0;
        for (int j = 0; j < k0.n; ++j) s += e.Cq[r * e.nLocal + j] * c.v[c.o.ltgODE2[j]];
        for (int j = 0; j < k1.n; ++j) s += e.Cq[r * e.nLocal + off1 + j] * c.v[c.o.ltgODE2[off1 + j]];
        e.C[r] = s;
      }
    } else {
      e.C[0] = Dot(m.dp, n);
      if (e.nAE > 1) e.C[1] = Dot(a, n);
    }
  }
  /// Residual between markers on planar rigid bodies or nodes (PlanarMarkerFrame), with the values
  /// of Equations: C_q's rows as Equations accumulates them, without the products with the zero
  /// rows of planar Jacobians. Returns false (nothing written) for other markers.
  MBS_HD_FORCEINLINE static bool Residual(const ConstraintAccess& c, const Params& p, const Real* lambda,
                                          AngleCache& angles, Real* f, Real* ae) {
    const ObjectRecord& o = c.o;
    PlanarFrame F0, F1;
    if (!PlanarMarkerFrame(c.L, c.theta, c.q, o.extra[0], F0, angles) ||
        !PlanarMarkerFrame(c.L, c.theta, c.q, o.extra[1], F1, angles))
      return false;
    const int nAE = o.nAE;
    const Vec3 a = F0.A * ToVec3(p.axisMarker0);
    const Vec3 nv = F1.A * ToVec3(p.normalMarker1);
    const Vec3 dp = LoadVec3(F1.pos) - LoadVec3(F0.pos);
    // C_q rows over [marker 0's node coordinates x, y, phi, marker 1's]; a rotation coordinate's
    // rotation Jacobian is the z axis. The products with the unit entries of the position
    // Jacobians are left out (up to the sign of a zero they change nothing).
    Real cq[2][6] = {{-nv[0], -nv[1], -(nv[0] * F0.Jphi[0] + nv[1] * F0.Jphi[1]), nv[0], nv[1],
                      nv[0] * F1.Jphi[0] + nv[1] * F1.Jphi[1]},
                     {0, 0, 0, 0, 0, 0}};
    cq[0][5] += Cross(nv, dp)[2];
    if (nAE > 1) {
      cq[1][2] += Cross(a, nv)[2];
      cq[1][5] += Cross(nv, a)[2];
    }
    const Real* lam = lambda + o.aeBegin;
    const bool active = o.extra[2] != 0;
    for (int r = 0; r < nAE; ++r) {
      Real C;
      if (!active) {
        C = lam[r];
      } else if (c.index2) {  // C_t = C_q q_t
        C = 0;
        for (int j = 0; j < 6; ++j) C += cq[r][j] * c.v[o.ltgODE2[j]];
      } else {
        C = r == 0 ? Dot(dp, nv) : Dot(a, nv);
      }
      ae[o.aeBegin + r] = C;
    }
    if (!active) return true;
    for (int j = 0; j < 6; ++j) {
      Real s = cq[0][j] * lam[0];
      if (nAE > 1) s += cq[1][j] * lam[1];
      f[o.ltgODE2[j]] -= s;
    }
    return true;
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("axisMarker0", axisMarker0, Rule::Real);
    v("normalMarker1", normalMarker1, Rule::Real);
    v("constrainRotation", constrainRotation);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
