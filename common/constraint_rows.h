/// @file constraint_rows.h
/// What a constraint item's equations are written with (common/items/, category Constraint):
/// the result record ConstraintEval, the access to the system a constraint reads
/// (ConstraintAccess, JointMarkers), and the rows shared by the joints: C_q rows from the marker
/// Jacobians, joint frames, axis and position rows.
///
/// C_q of the 3D joints is analytic, built from the marker Jacobians: a body-fixed vector u
/// of marker k changes with the marker's angular velocity (du = omega_k x u), so
/// d(u . w)/dq = (u x w)^T Jrot_0 + (w x u)^T Jrot_1 for u fixed to marker 0 and w to marker 1.
#pragma once

#include "common/kinematics.h"

namespace mbsweep {

/// Largest number of equations of one constraint object.
constexpr int kMaxConstraintEquations = 6;

/// Result of one constraint object's evaluation.
struct ConstraintEval {
  int nAE;         ///< number of equations
  int nLocal;      ///< number of local ODE2 coordinates (columns of Cq)
  bool active;     ///< false: equations are lambda = 0
  bool velocity;   ///< true: the equations are on velocity level (Jacobian factor gamma')
  int lambdaRows;  ///< bit r set: equation r is lambda_r = 0 (a free axis of a joint)
  Real C[kMaxConstraintEquations];
  Real Cq[kMaxConstraintEquations * kMaxConnectorCoords];  ///< row-major nAE x nLocal
};

/// True if equation r is lambda_r = 0 (inactive constraint or free axis).
MBS_HD_INLINE bool IsLambdaRow(const ConstraintEval& e, int r) { return !e.active || ((e.lambdaRows >> r) & 1); }

/// Kinematics of a position/rigid marker; defined (out of line) in item_dispatch.h, after the
/// items, as it dispatches to the body items (common/items.h includes it with them).
MBS_HD_INLINE_HINT void MarkerKinematics(const LayoutView& L, const Real* theta, const Real* q, const Real* v,
                                        int marker, Kinematics& K);

/// What a constraint's hooks read besides its parameters: the layout, theta, time, the
/// coordinates, its object record (extra: marker 0, marker 1, activeConnector, then the item's
/// integers) and whether the equations are wanted on velocity level (index 2).
struct ConstraintAccess {
  const LayoutView& L;
  const Real* theta;
  Real t;
  const Real* q;
  const Real* v;
  ObjectRecord o;
  bool index2;
};

/// The kinematics of a joint's two markers, and their relative position and velocity.
struct JointMarkers {
  Kinematics k0, k1;
  Vec3 dp;  ///< p1 - p0
  Vec3 dv;  ///< v1 - v0
  MBS_HD_FORCEINLINE explicit JointMarkers(const ConstraintAccess& c) {
    MarkerKinematics(c.L, c.theta, c.q, c.v, c.o.extra[0], k0);
    MarkerKinematics(c.L, c.theta, c.q, c.v, c.o.extra[1], k1);
    dp = k1.pos - k0.pos;
    dv = k1.vel - k0.vel;
  }
};

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

/// The joint frames of markers m with the joint's marker rotations R0, R1.
MBS_HD_INLINE JointFrames MakeJointFrames(const JointMarkers& m, const Mat3& R0, const Mat3& R1, bool index2) {
  return JointFrames{m.k0, m.k1, R0, R1, m.k0.A * R0, m.k1.A * R1, index2};
}

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

/// Translation equations of the 3D joints in rows 0..2 for the locked axes `lockedPos` (3
/// flags): the global components of p1 - p0 when all three are locked, the J0 components of the
/// locked ones otherwise; rows of free axes are flagged in e.lambdaRows.
MBS_HD_INLINE void JointTranslationRows(ConstraintEval& e, const JointFrames& J, const JointMarkers& m,
                                        const int* lockedPos) {
  if (lockedPos[0] && lockedPos[1] && lockedPos[2]) {
    for (int i = 0; i < 3; ++i) {
      e.C[i] = J.index2 ? m.dv[i] : m.dp[i];
      AddRowGlobalPos(e, i, m.k0, m.k1, i);
    }
    return;
  }
  for (int i = 0; i < 3; ++i) {
    if (lockedPos[i]) LocalPositionRow(e, i, J, i, m.dp, m.dv, false);
    else e.lambdaRows |= 1 << i;
  }
}

}  // namespace mbsweep
