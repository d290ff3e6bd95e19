/// @file constraints.h
/// Host/device constraint equations C(q, t) = 0 (or velocity-level equations) and their
/// Jacobians C_q, for the generalized-alpha DAE integrator and the static solver.
///
/// Each constraint object owns nAE algebraic variables (Lagrange multipliers) starting at
/// ObjectRecord::aeBegin; a NodeRigidBodyEP with addConstraintEquation owns one (the
/// Euler-parameter norm) at NodeRecord::aeBegin. The reaction forces enter the ODE2 equations
/// as  -C_q^T lambda  on the right-hand side. An inactive constraint (activeConnector = false)
/// has the equations lambda = 0, as have the free axes of ObjectJointSpherical and
/// ObjectJointGeneric.
///
/// C_q of the 3D joints is analytic, built from the marker Jacobians: a body-fixed vector u
/// of marker k changes with the marker's angular velocity (du = omega_k x u), so
/// d(u . w)/dq = (u x w)^T Jrot_0 + (w x u)^T Jrot_1 for u fixed to marker 0 and w to marker 1.
#pragma once

#include "common/system.h"

namespace mbsweep {

/// Largest number of equations of one constraint object.
constexpr int kMaxConstraintEquations = 6;

MBS_HD_INLINE bool IsConstraint(ObjectKind k) {
  return k == ObjectKind::ConnectorCoordinate || k == ObjectKind::ConnectorDistance ||
         k == ObjectKind::JointRevolute2D || k == ObjectKind::JointPrismatic2D || k == ObjectKind::JointSpherical ||
         k == ObjectKind::JointRevoluteZ || k == ObjectKind::JointPrismaticX || k == ObjectKind::JointGeneric;
}

/// Result of one constraint object's evaluation.
struct ConstraintEval {
  int nAE;          ///< number of equations
  int nLocal;       ///< number of local ODE2 coordinates (columns of Cq)
  bool active;      ///< false: equations are lambda = 0
  bool velocity;    ///< true: the equations are on velocity level (Jacobian factor gamma')
  int lambdaRows;   ///< bit r set: equation r is lambda_r = 0 (a free axis of a joint)
  Real C[kMaxConstraintEquations];
  Real Cq[kMaxConstraintEquations * kMaxConnectorCoords];  ///< row-major nAE x nLocal
};

/// True if equation r is lambda_r = 0 (inactive constraint or free axis).
MBS_HD_INLINE bool IsLambdaRow(const ConstraintEval& e, int r) { return !e.active || ((e.lambdaRows >> r) & 1); }

namespace detail {
MBS_HD_INLINE void ZeroCq(ConstraintEval& e) {
  for (int i = 0; i < e.nAE * e.nLocal; ++i) e.Cq[i] = 0;
}
/// Cq row r += w^T * Jpos of a marker at local column offset off (sign s).
MBS_HD_INLINE void AddRowPos(ConstraintEval& e, int r, const Kinematics& k, const Vec3& w, int off, Real s) {
  for (int j = 0; j < k.n; ++j)
    e.Cq[r * e.nLocal + off + j] += s * (w[0] * k.Jpos[0][j] + w[1] * k.Jpos[1][j] + w[2] * k.Jpos[2][j]);
}
MBS_HD_INLINE void AddRowRot(ConstraintEval& e, int r, const Kinematics& k, const Vec3& w, int off, Real s) {
  for (int j = 0; j < k.n; ++j)
    e.Cq[r * e.nLocal + off + j] += s * (w[0] * k.Jrot[0][j] + w[1] * k.Jrot[1][j] + w[2] * k.Jrot[2][j]);
}
/// Row r for C = u . w with u fixed to marker 0 and w fixed to marker 1 (global vectors).
MBS_HD_INLINE void AddRowDot(ConstraintEval& e, int r, const Kinematics& k0, const Kinematics& k1, const Vec3& u,
                             const Vec3& w) {
  AddRowRot(e, r, k0, Cross(u, w), 0, 1);
  AddRowRot(e, r, k1, Cross(w, u), k0.n, 1);
}
/// Row r for C = a . (p1 - p0) with a fixed to marker 0 (d/dt a = omega0 x a).
MBS_HD_INLINE void AddRowLocalPos(ConstraintEval& e, int r, const Kinematics& k0, const Kinematics& k1, const Vec3& a,
                                  const Vec3& dp) {
  AddRowPos(e, r, k0, a, 0, -1);
  AddRowPos(e, r, k1, a, k0.n, 1);
  AddRowRot(e, r, k0, Cross(a, dp), 0, 1);
}
/// Row r for C = (p1 - p0)[axis] (global component): the axis row of each position Jacobian,
/// copied instead of formed as a product with a unit vector (same values).
MBS_HD_INLINE void AddRowGlobalPos(ConstraintEval& e, int r, const Kinematics& k0, const Kinematics& k1, int axis) {
  Real* row = e.Cq + r * e.nLocal;
  for (int j = 0; j < k0.n; ++j) row[j] -= k0.Jpos[axis][j];
  for (int j = 0; j < k1.n; ++j) row[k0.n + j] += k1.Jpos[axis][j];
}
MBS_HD_INLINE Vec3 Column(const Mat3& A, int j) { return MakeVec3(A(0, j), A(1, j), A(2, j)); }

/// f[ltg[j]] -= (C_q^T lambda)[j] of one constraint; each sum runs over the equations in
/// order, accumulated row by row (contiguous rows of Cq, no strided column walk).
MBS_HD_INLINE void SubtractReactions(const ConstraintEval& e, const int* ltg, const Real* lambda, Real* f) {
  if (e.nAE == 0) return;
  Real s[kMaxConnectorCoords];
  for (int j = 0; j < e.nLocal; ++j) s[j] = e.Cq[j] * lambda[0];
  for (int r = 1; r < e.nAE; ++r) {
    const Real* row = e.Cq + r * e.nLocal;
    for (int j = 0; j < e.nLocal; ++j) s[j] += row[j] * lambda[r];
  }
  for (int j = 0; j < e.nLocal; ++j) f[ltg[j]] -= s[j];
}

/// Joint frames J0 = A0 rotationMarker0 and J1 = A1 rotationMarker1 of a 3D joint; index2 selects
/// the velocity-level form of the equations, with the axis rates A_k (omegaLocal_k x R_k e_j) as
/// Exudyn computes them.
struct JointFrames {
  const Kinematics& k0;
  const Kinematics& k1;
  Mat3 R0, R1, A0all, A1all;
  bool index2;
  MBS_HD_INLINE Vec3 Axis0(int j) const { return Column(A0all, j); }
  MBS_HD_INLINE Vec3 Axis1(int j) const { return Column(A1all, j); }
  MBS_HD_INLINE Vec3 Rate0(int j) const { return BodyVectorRate(k0, Column(R0, j)); }
  MBS_HD_INLINE Vec3 Rate1(int j) const { return BodyVectorRate(k1, Column(R1, j)); }
};

/// Row r: C = (J0 axis i) . (J1 axis j) (velocity level: its time derivative).
MBS_HD_INLINE void AxisDotRow(ConstraintEval& e, int r, const JointFrames& J, int i, int j) {
  const Vec3 u = J.Axis0(i), w = J.Axis1(j);
  e.C[r] = J.index2 ? Dot(J.Rate0(i), w) + Dot(u, J.Rate1(j)) : Dot(u, w);
  AddRowDot(e, r, J.k0, J.k1, u, w);
}

/// Row r: C = (J0 axis i) . (p1 - p0); velocity level: a . (v1 - v0), plus a_t . (p1 - p0) if
/// withRate (ObjectJointPrismaticX does, ObjectJointGeneric does not, as in Exudyn).
MBS_HD_INLINE void LocalPositionRow(ConstraintEval& e, int r, const JointFrames& J, int i, const Vec3& dp,
                                    const Vec3& dv, bool withRate) {
  const Vec3 a = J.Axis0(i);
  e.C[r] = J.index2 ? Dot(a, dv) + (withRate ? Dot(J.Rate0(i), dp) : 0) : Dot(a, dp);
  AddRowLocalPos(e, r, J.k0, J.k1, a, dp);
}

/// Rotation equations of the 3D joints in rows row0 + axis for the locked rotation axes
/// `lockedRot` (3 flags); rows of free axes are flagged in e.lambdaRows.
MBS_HD_INLINE void JointRotationRows(ConstraintEval& e, int row0, const JointFrames& J, const int* lockedRot) {
  const int n = lockedRot[0] + lockedRot[1] + lockedRot[2];
  if (n == 3) {  // all rotations locked: z0.y1, z0.x1, x0.y1
    AxisDotRow(e, row0, J, 2, 1);
    AxisDotRow(e, row0 + 1, J, 2, 0);
    AxisDotRow(e, row0 + 2, J, 0, 1);
  } else if (n == 2) {  // one free axis f: the J1 axes l1, l2 stay perpendicular to J0 axis f
    const int f = !lockedRot[0] ? 0 : !lockedRot[1] ? 1 : 2;
    const int l1 = f == 0 ? 1 : 0, l2 = f == 2 ? 1 : 2;
    AxisDotRow(e, row0 + l1, J, f, l1);
    AxisDotRow(e, row0 + l2, J, f, l2);
    e.lambdaRows |= 1 << (row0 + f);
  } else if (n == 1) {  // one locked axis l: J0 axis f1 stays perpendicular to J1 axis f2
    const int l = lockedRot[0] ? 0 : lockedRot[1] ? 1 : 2;
    const int f1 = l == 0 ? 1 : 0, f2 = l == 2 ? 1 : 2;
    AxisDotRow(e, row0 + l, J, f1, f2);
    e.lambdaRows |= (1 << (row0 + f1)) | (1 << (row0 + f2));
  } else {
    e.lambdaRows |= 7 << row0;
  }
}
/// The equation of the coordinate constraint (ObjectConnectorCoordinate) `o` with parameters p
/// (offset, factorValue1, the time function's parameters; extra: m0, m1, active, velocityLevel,
/// time function type and table length): k1 q1 - q0 - offset(t), or on velocity level
/// (velocityLevel, or index2 with the offset's rate by central differences) k1 v1 - v0 - rate.
MBS_HD_INLINE Real CoordinateConstraintEquation(const LayoutView& L, Real t, const Real* q, const Real* v, bool index2,
                                                const ObjectRecord& o, const Real* p) {
  Real q0, v0, q1, v1;
  MarkerCoordinate(L, q, v, nullptr, o.extra[0], q0, v0);
  MarkerCoordinate(L, q, v, nullptr, o.extra[1], q1, v1);
  const Real offset = p[0] * EvalTimeFunction(o.extra[4], o.extra[5], p + 2, t);
  const Real k1 = p[1];
  if (o.extra[3] != 0) return k1 * v1 - v0 - offset;
  if (index2) {
    const Real dt = 1e-7 * (t > 1 ? t : 1);
    const Real offT = p[0] * (EvalTimeFunction(o.extra[4], o.extra[5], p + 2, t + dt) -
                              EvalTimeFunction(o.extra[4], o.extra[5], p + 2, t - dt)) / (2 * dt);
    return k1 * v1 - v0 - offT;
  }
  return k1 * q1 - q0 - offset;
}
}  // namespace detail

/// Evaluates constraint object `obj`: equations (position level, or velocity level with
/// index2 or for velocity-level constraints) and the Jacobian with respect to its local
/// ODE2 coordinates.
MBS_HD_NOINLINE void ConstraintLocal(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                   int obj, bool index2, ConstraintEval& e) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  const Real* p = theta + L.object[obj].theta;
  const ObjectKind kind = static_cast<ObjectKind>(L.object[obj].kind);
  e.nAE = o.nAE;
  e.nLocal = o.nLocalODE2;
  e.active = o.extra[2] != 0;
  e.velocity = index2;
  e.lambdaRows = 0;
  detail::ZeroCq(e);
  for (int i = 0; i < kMaxConstraintEquations; ++i) e.C[i] = 0;  // fixed count: stores, no memset call
  if (kind == ObjectKind::ConnectorCoordinate) {
    e.velocity = index2 || o.extra[3] != 0;
    e.C[0] = detail::CoordinateConstraintEquation(L, t, q, v, index2, o, p);
    const int n0 = GetMarkerRecord(L, o.extra[0]).nCoords;
    if (n0) e.Cq[0] = -1;
    if (GetMarkerRecord(L, o.extra[1]).nCoords) e.Cq[n0] = p[1];
    return;
  }
  Kinematics k0, k1;
  MarkerKinematics(L, theta, q, v, o.extra[0], k0);
  MarkerKinematics(L, theta, q, v, o.extra[1], k1);
  const int off1 = k0.n;
  const Vec3 dp = k1.pos - k0.pos;
  const Vec3 dv = k1.vel - k0.vel;
  switch (kind) {
    case ObjectKind::ConnectorDistance: {
      const Real len = Norm(dp);
      const Vec3 u = len > 0 ? (1. / len) * dp : MakeVec3(1, 0, 0);
      e.C[0] = index2 ? Dot(u, dv) : len - p[0];
      detail::AddRowPos(e, 0, k0, u, 0, -1);
      detail::AddRowPos(e, 0, k1, u, off1, 1);
      break;
    }
    case ObjectKind::JointRevolute2D: {
      for (int r = 0; r < 2; ++r) {
        e.C[r] = index2 ? dv[r] : dp[r];
        detail::AddRowGlobalPos(e, r, k0, k1, r);
      }
      break;
    }
    case ObjectKind::JointPrismatic2D: {
      // p: axisMarker0[3], normalMarker1[3]
      const Vec3 a = k0.A * LoadVec3(p);
      const Vec3 n = k1.A * LoadVec3(p + 3);
      // C0 = dp . n ; dC0 = n . (dp1 - dp0) + (n x dp) . dOmega1
      detail::AddRowPos(e, 0, k0, n, 0, -1);
      detail::AddRowPos(e, 0, k1, n, off1, 1);
      detail::AddRowRot(e, 0, k1, Cross(n, dp), off1, 1);
      if (e.nAE > 1) {
        // C1 = a . n ; dC1 = (a x n) . dOmega0 + (n x a) . dOmega1
        detail::AddRowRot(e, 1, k0, Cross(a, n), 0, 1);
        detail::AddRowRot(e, 1, k1, Cross(n, a), off1, 1);
      }
      if (index2) {  // C_t = Cq q_t
        for (int r = 0; r < e.nAE; ++r) {
          Real s = 0;
          for (int j = 0; j < k0.n; ++j) s += e.Cq[r * e.nLocal + j] * v[o.ltgODE2[j]];
          for (int j = 0; j < k1.n; ++j) s += e.Cq[r * e.nLocal + off1 + j] * v[o.ltgODE2[off1 + j]];
          e.C[r] = s;
        }
      } else {
        e.C[0] = Dot(dp, n);
        if (e.nAE > 1) e.C[1] = Dot(a, n);
      }
      break;
    }
    case ObjectKind::JointSpherical: {
      // extra[3..5]: constrainedAxes; global components of p1 - p0 (velocity level: v1 - v0)
      for (int i = 0; i < 3; ++i) {
        if (!o.extra[3 + i]) {
          e.lambdaRows |= 1 << i;
          continue;
        }
        e.C[i] = index2 ? dv[i] : dp[i];
        detail::AddRowGlobalPos(e, i, k0, k1, i);
      }
      break;
    }
    case ObjectKind::JointRevoluteZ:
    case ObjectKind::JointGeneric: {
      // p: rotationMarker0[9], rotationMarker1[9]; JointGeneric extra[3..8]: constrainedAxes
      const int kRevoluteAxes[6] = {1, 1, 1, 1, 1, 0};
      const int* ca = kind == ObjectKind::JointGeneric ? o.extra + 3 : kRevoluteAxes;
      const Mat3 R0 = LoadMat3(p), R1 = LoadMat3(p + 9);
      const detail::JointFrames J{k0, k1, R0, R1, k0.A * R0, k1.A * R1, index2};
      if (ca[0] && ca[1] && ca[2]) {  // all translations locked: global equations
        for (int i = 0; i < 3; ++i) {
          e.C[i] = index2 ? dv[i] : dp[i];
          detail::AddRowGlobalPos(e, i, k0, k1, i);
        }
      } else {  // J0 components
        for (int i = 0; i < 3; ++i) {
          if (ca[i]) detail::LocalPositionRow(e, i, J, i, dp, dv, false);
          else e.lambdaRows |= 1 << i;
        }
      }
      if (kind == ObjectKind::JointRevoluteZ) {  // 5 equations: rows 3, 4 = z0.x1, z0.y1
        detail::AxisDotRow(e, 3, J, 2, 0);
        detail::AxisDotRow(e, 4, J, 2, 1);
      } else {
        detail::JointRotationRows(e, 3, J, ca + 3);
      }
      break;
    }
    case ObjectKind::JointPrismaticX: {
      // p: rotationMarker0[9], rotationMarker1[9]; rows: J0 y and z of p1 - p0, then z0.y1, z0.x1, x0.y1
      const Mat3 R0 = LoadMat3(p), R1 = LoadMat3(p + 9);
      const detail::JointFrames J{k0, k1, R0, R1, k0.A * R0, k1.A * R1, index2};
      detail::LocalPositionRow(e, 0, J, 1, dp, dv, true);
      detail::LocalPositionRow(e, 1, J, 2, dp, dv, true);
      const int kLocked[3] = {1, 1, 1};
      detail::JointRotationRows(e, 2, J, kLocked);
      break;
    }
    default: break;
  }
}

/// The Euler-parameter norm constraint of an EP node: C = p^T p - 1 (index 2: 2 p^T p_t),
/// C_q = [0, 0, 0, 2 p^T] over the node's 7 coordinates starting at NodeRecord::ode2Begin.
MBS_HD_NOINLINE void NodeConstraintLocal(const LayoutView& L, const Real* theta, const Real* q, const Real* v, int node,
                                       bool index2, ConstraintEval& e) {
  Real rot[kRigidMaxRotPar], rot_t[kRigidMaxRotPar];
  const int nRot = RigidNodeRotation(L, theta, q, v, node, rot, rot_t);
  e.nAE = 1;
  e.nLocal = 3 + nRot;
  e.active = true;
  e.velocity = index2;
  e.lambdaRows = 0;
  Real c = 0, ct = 0;
  for (int j = 0; j < nRot; ++j) {
    c += rot[j] * rot[j];
    ct += rot[j] * rot_t[j];
  }
  e.C[0] = index2 ? 2 * ct : c - 1;
  for (int j = 0; j < 3; ++j) e.Cq[j] = 0;
  for (int j = 0; j < nRot; ++j) e.Cq[3 + j] = 2 * rot[j];
}

MBS_SCALAR_LOOPS_BEGIN  // the planar joints' residual (hostdevice.h)
namespace detail {
/// f -= sign J^T lam over a planar point's node coordinates ltg[0..n) (J: the unit matrix over x
/// and y, Jphi for a rotation coordinate). The products with the unit entries are left out; up to
/// the sign of a zero they change nothing.
MBS_HD_INLINE void SubtractPlanarReaction(const PlanarPoint& P, const int* ltg, Real sign, const Real* lam, Real* f) {
  if (P.n == 0) return;
  f[ltg[0]] -= sign * lam[0];
  f[ltg[1]] -= sign * lam[1];
  if (P.n > 2) f[ltg[2]] -= sign * (P.Jphi[0] * lam[0] + P.Jphi[1] * lam[1]);
}
}  // namespace detail

/// The residual part of AddConstraintReactionsAndAE for a revolute 2D joint between planar
/// markers (PlanarMarkerKinematics): its two equations into c and its reactions into f, with
/// the values of the general path (C_q rows = -J0, J1; sums over the equations in order), but
/// without 3D kinematics and C_q. Returns false (nothing written) for other markers.
MBS_HD_FORCEINLINE bool PlanarRevoluteResidual(const LayoutView& L, const Real* theta, const Real* q, const Real* v,
                                               const Real* lambda, bool index2, const ObjectRecord& o,
                                               AngleCache& angles, Real* f, Real* c) {
  PlanarPoint P0, P1;
  if (!PlanarMarkerKinematics(L, theta, q, v, o.extra[0], P0, angles) ||
      !PlanarMarkerKinematics(L, theta, q, v, o.extra[1], P1, angles))
    return false;
  const Real* lam = lambda + o.aeBegin;
  const bool active = o.extra[2] != 0;
  for (int r = 0; r < 2; ++r)
    c[o.aeBegin + r] = !active ? lam[r] : index2 ? P1.vel[r] - P0.vel[r] : P1.pos[r] - P0.pos[r];
  if (!active) return true;
  detail::SubtractPlanarReaction(P0, o.ltgODE2, -1, lam, f);
  detail::SubtractPlanarReaction(P1, o.ltgODE2 + P0.n, 1, lam, f);
  return true;
}

/// The residual part of AddConstraintReactionsAndAE for a prismatic 2D joint between markers
/// on planar rigid bodies or nodes (PlanarMarkerFrame), with the values of the general path:
/// C_q's rows as ConstraintLocal accumulates them, without the products with the zero rows of
/// planar Jacobians. `p`: the joint's parameters (axisMarker0, normalMarker1). Returns false
/// (nothing written) for other markers.
MBS_HD_FORCEINLINE bool PlanarPrismaticResidual(const LayoutView& L, const Real* theta, const Real* q, const Real* v,
                                                const Real* lambda, bool index2, const ObjectRecord& o, const Real* p,
                                                AngleCache& angles, Real* f, Real* c) {
  PlanarFrame F0, F1;
  if (!PlanarMarkerFrame(L, theta, q, o.extra[0], F0, angles) || !PlanarMarkerFrame(L, theta, q, o.extra[1], F1, angles))
    return false;
  const int nAE = o.nAE;
  const Vec3 a = F0.A * LoadVec3(p);
  const Vec3 nv = F1.A * LoadVec3(p + 3);
  const Vec3 dp = LoadVec3(F1.pos) - LoadVec3(F0.pos);
  // C_q rows over [marker 0's node coordinates x, y, phi, marker 1's]; a rotation coordinate's
  // rotation Jacobian is the z axis. The products with the unit entries of the position
  // Jacobians are left out (as SubtractPlanarReaction's: up to the sign of a zero they change
  // nothing).
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
    } else if (index2) {  // C_t = C_q q_t
      C = 0;
      for (int j = 0; j < 6; ++j) C += cq[r][j] * v[o.ltgODE2[j]];
    } else {
      C = r == 0 ? Dot(dp, nv) : Dot(a, nv);
    }
    c[o.aeBegin + r] = C;
  }
  if (!active) return true;
  for (int j = 0; j < 6; ++j) {
    Real s = cq[0][j] * lam[0];
    if (nAE > 1) s += cq[1][j] * lam[1];
    f[o.ltgODE2[j]] -= s;
  }
  return true;
}
MBS_SCALAR_LOOPS_END

/// Adds the reaction forces -C_q^T lambda of all (active) constraints to the ODE2 vector f.
MBS_HD_NOINLINE void AddConstraintReactions(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                          const Real* lambda, Real* f) {
  ConstraintEval e;
  for (int k = 0; k < L.nConstraintNodes; ++k) {
    const int i = ConstraintNode(L, k);
    const NodeRecord nr = GetNodeRecord(L, i);
    NodeConstraintLocal(L, theta, q, v, i, false, e);
    for (int j = 0; j < e.nLocal; ++j) f[nr.ode2Begin + j] -= e.Cq[j] * lambda[nr.aeBegin];
  }
  for (int k = 0; k < L.nConstraintObjects; ++k) {
    const int i = ConstraintObject(L, k);
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, false, e);
    if (!e.active) continue;
    detail::SubtractReactions(e, o.ltgODE2, lambda + o.aeBegin, f);
  }
}

namespace detail {
/// The residual part of AddConstraintReactionsAndAE for the coordinate constraint `o` (p: its
/// parameters), with the general path's values (C_q = -1 over marker 0's coordinate, k1 over
/// marker 1's) but without its C_q arrays.
MBS_HD_INLINE void CoordinateConstraintResidual(const LayoutView& L, Real t, const Real* q, const Real* v,
                                                const Real* lambda, bool index2, const ObjectRecord& o, const Real* p,
                                                Real* f, Real* c) {
  const Real lam = lambda[o.aeBegin];
  if (o.extra[2] == 0) {  // inactive: lambda = 0
    c[o.aeBegin] = lam;
    return;
  }
  c[o.aeBegin] = CoordinateConstraintEquation(L, t, q, v, index2, o, p);
  const int n0 = GetMarkerRecord(L, o.extra[0]).nCoords;
  if (n0) f[o.ltgODE2[0]] -= -lam;
  if (GetMarkerRecord(L, o.extra[1]).nCoords) f[o.ltgODE2[n0]] -= p[1] * lam;
}
/// The residual part of AddConstraintReactionsAndAE for Euler-parameter node i.
MBS_HD_HOST_NOINLINE inline void NodeConstraintResidual(const LayoutView& L, const Real* theta, const Real* q,
                                                       const Real* v, const Real* lambda, bool index2, int i, Real* f,
                                                       Real* c) {
  ConstraintEval e;
  const NodeRecord nr = GetNodeRecord(L, i);
  NodeConstraintLocal(L, theta, q, v, i, index2, e);
  c[nr.aeBegin] = e.C[0];
  for (int j = 0; j < e.nLocal; ++j) f[nr.ode2Begin + j] -= e.Cq[j] * lambda[nr.aeBegin];
}
/// The residual part of AddConstraintReactionsAndAE for constraint object i on the general path
/// (ConstraintLocal). Out of line on the host, so that its large frame stays out of the planar
/// joints' loop.
MBS_HD_HOST_NOINLINE inline void GeneralConstraintResidual(const LayoutView& L, const Real* theta, Real t,
                                                          const Real* q, const Real* v, const Real* lambda, bool index2,
                                                          int i, Real* f, Real* c) {
  ConstraintEval e;  // every row of c belongs to one node or constraint object: all are written
  const ObjectRecord o = GetObjectRecord(L, i);
  ConstraintLocal(L, theta, t, q, v, i, index2, e);
  for (int r = 0; r < e.nAE; ++r) c[o.aeBegin + r] = IsLambdaRow(e, r) ? lambda[o.aeBegin + r] : e.C[r];
  if (e.active) SubtractReactions(e, o.ltgODE2, lambda + o.aeBegin, f);
}
}  // namespace detail

MBS_SCALAR_LOOPS_BEGIN
/// One pass over all constraints for the integrator's residual: adds the reaction forces
/// -C_q^T lambda to f (as AddConstraintReactions) and writes the algebraic equations to
/// c[nAE] (as ComputeAE with the given index2 flag), evaluating each constraint once.
MBS_HD_NOINLINE void AddConstraintReactionsAndAE(const LayoutView& L, const Real* theta, Real t, const Real* q,
                                               const Real* v, const Real* lambda, bool index2, Real* f, Real* c) {
  AngleCache angles;  // the planar joints' rotation angles
  for (int k = 0; k < L.nConstraintNodes; ++k)
    detail::NodeConstraintResidual(L, theta, q, v, lambda, index2, ConstraintNode(L, k), f, c);
  for (int k = 0; k < L.nConstraintObjects; ++k) {
    const int i = ConstraintObject(L, k);
    const ObjectKind kind = static_cast<ObjectKind>(L.object[i].kind);
    if (kind == ObjectKind::JointRevolute2D &&
        PlanarRevoluteResidual(L, theta, q, v, lambda, index2, GetObjectRecord(L, i), angles, f, c))
      continue;
    if (kind == ObjectKind::JointPrismatic2D &&
        PlanarPrismaticResidual(L, theta, q, v, lambda, index2, GetObjectRecord(L, i), theta + L.object[i].theta,
                                angles, f, c))
      continue;
    if (kind == ObjectKind::ConnectorCoordinate) {
      detail::CoordinateConstraintResidual(L, t, q, v, lambda, index2, GetObjectRecord(L, i), theta + L.object[i].theta,
                                           f, c);
      continue;
    }
    detail::GeneralConstraintResidual(L, theta, t, q, v, lambda, index2, i, f, c);
  }
}
MBS_SCALAR_LOOPS_END

/// Algebraic equations of all constraints into c[nAE] (lambda for inactive ones).
MBS_HD_NOINLINE void ComputeAE(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                             const Real* lambda, bool index2, Real* c) {
  ConstraintEval e;  // every row of c belongs to one node or constraint object: all are written
  for (int k = 0; k < L.nConstraintNodes; ++k) {
    const int i = ConstraintNode(L, k);
    const NodeRecord nr = GetNodeRecord(L, i);
    NodeConstraintLocal(L, theta, q, v, i, index2, e);
    c[nr.aeBegin] = e.C[0];
  }
  for (int k = 0; k < L.nConstraintObjects; ++k) {
    const int i = ConstraintObject(L, k);
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, index2, e);
    for (int r = 0; r < e.nAE; ++r) c[o.aeBegin + r] = IsLambdaRow(e, r) ? lambda[o.aeBegin + r] : e.C[r];
  }
}

/// Adds the constraint Jacobian blocks to sinks:
///   rows AE, cols ODE2:   factorCq(velocity ? gammaPrime : 1) * C_q   -> sinkCq.add(ae, ode2, v)
///   rows ODE2, cols AE:   factorCqT * C_q^T                            -> sinkCqT.add(ode2, ae, v)
///   rows AE, cols AE:     factorLambda (inactive constraints)          -> sinkCq.add(ae, -1 - ae, v)
/// The AE-AE entries are passed to sinkLambda.add(ae, ae, factorLambda).
template <class SinkCq, class SinkCqT, class SinkLambda>
MBS_HD void ComputeAEJacobian(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v, bool index2,
                              Real gammaPrime, Real factorCqT, Real factorLambda, SinkCq& sCq, SinkCqT& sCqT,
                              SinkLambda& sLambda) {
  ConstraintEval e;
  for (int k = 0; k < L.nConstraintNodes; ++k) {
    const int i = ConstraintNode(L, k);
    const NodeRecord nr = GetNodeRecord(L, i);
    NodeConstraintLocal(L, theta, q, v, i, index2, e);
    const Real fr = e.velocity ? gammaPrime : 1;
    for (int j = 0; j < e.nLocal; ++j) {
      const Real c = e.Cq[j];
      if (c == 0) continue;
      sCq.add(nr.aeBegin, nr.ode2Begin + j, fr * c);
      sCqT.add(nr.ode2Begin + j, nr.aeBegin, factorCqT * c);
    }
  }
  for (int k = 0; k < L.nConstraintObjects; ++k) {
    const int i = ConstraintObject(L, k);
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, index2, e);
    const Real fr = e.velocity ? gammaPrime : 1;
    for (int r = 0; r < e.nAE; ++r) {
      if (IsLambdaRow(e, r)) {
        sLambda.add(o.aeBegin + r, o.aeBegin + r, factorLambda);
        continue;
      }
      for (int j = 0; j < e.nLocal; ++j) {
        const Real c = e.Cq[r * e.nLocal + j];
        if (c == 0) continue;
        sCq.add(o.aeBegin + r, o.ltgODE2[j], fr * c);
        sCqT.add(o.ltgODE2[j], o.aeBegin + r, factorCqT * c);
      }
    }
  }
}

}  // namespace mbsweep
