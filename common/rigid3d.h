/// @file rigid3d.h
/// Host/device math of 3D rigid-body nodes and bodies, following Exudyn's conventions
/// (RigidBodyMath.h, CNodeRigidBodyEP, CNodeRigidBodyRxyz, CObjectRigidBody):
///  - Euler parameters p = [e0, e1, e2, e3] (e0 scalar part, e = [e1, e2, e3]):
///      A  = I + 2 e0 ẽ + 2 ẽ ẽ                (Exudyn's EP2RotationMatrix; orthonormal for |p| = 1)
///      G  = 2 [-e, e0 I + ẽ]   (3x4)          ω   = G ṗ   (global angular velocity)
///      GL = 2 [-e, e0 I - ẽ]   (3x4)          ω_l = GL ṗ  (local/body angular velocity)
///    valid for |p| = 1 and p·ṗ = 0 (the EP node carries the constraint pᵀp - 1 = 0).
///  - Tait-Bryan xyz angles φ = [φ0, φ1, φ2]: A = Rx(φ0) Ry(φ1) Rz(φ2) (RotXYZ2RotationMatrix),
///      G  = [[1, 0, sφ1], [0, cφ0, -sφ0 cφ1], [0, sφ0, cφ0 cφ1]]            (RotXYZ2G)
///      GL = [[cφ1 cφ2, sφ2, 0], [-cφ1 sφ2, cφ2, 0], [sφ1, 0, 1]]            (RotXYZ2GLocal)
///  - A rigid body on a reference-point node has coordinates q = [position (3), θ (nRot)] with
///    nRot = 4 (EP) or 3 (Rxyz); the rotation parameters θ passed here are the total values
///    (reference + displacement). Inertia J about the reference point in body coordinates is
///    given as J6 = [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] (matrix entries, Exudyn's order), the centre
///    of mass c in body coordinates.
/// Everything is fixed-size (at most 4 rotation parameters, 7 coordinates), allocation- and
/// exception-free. 3 x nRot matrices are stored in Mat3x4, of which the first nRot columns are used.
#pragma once

#include "common/types.h"

namespace mbsweep {

constexpr int kRotParEP = 4;          ///< nRot of Euler-parameter nodes
constexpr int kRotParRxyz = 3;        ///< nRot of Tait-Bryan xyz nodes
constexpr int kRigidMaxRotPar = 4;    ///< largest nRot
constexpr int kRigidMaxCoords = 7;    ///< 3 + largest nRot

/// 3 x nRot matrix (nRot <= 4, row-major, columns >= nRot unused and set to 0 by the functions here).
struct Mat3x4 {
  Real m[3][4];
  MBS_HD_INLINE Real& operator()(int i, int j) { return m[i][j]; }
  MBS_HD_INLINE const Real& operator()(int i, int j) const { return m[i][j]; }
};

MBS_HD_INLINE Mat3x4 ZeroMat3x4() { return Mat3x4{{{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}; }

/// G x for a 3 x n matrix G and an n-vector x.
MBS_HD_INLINE Vec3 Mult3xN(const Mat3x4& G, const Real* x, int n) {
  Vec3 r = MakeVec3(0, 0, 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < n; ++j) r[i] += G.m[i][j] * x[j];
  return r;
}
/// out = Gᵀ v (n entries) for a 3 x n matrix G.
MBS_HD_INLINE void Mult3xNT(const Mat3x4& G, const Vec3& v, int n, Real* out) {
  for (int j = 0; j < n; ++j) out[j] = G.m[0][j] * v[0] + G.m[1][j] * v[1] + G.m[2][j] * v[2];
}
/// B G (3x3 times 3 x n); columns >= n are zero.
MBS_HD_INLINE Mat3x4 Mult3x3_3xN(const Mat3& B, const Mat3x4& G, int n) {
  Mat3x4 r = ZeroMat3x4();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < n; ++j) r.m[i][j] = B.m[i][0] * G.m[0][j] + B.m[i][1] * G.m[1][j] + B.m[i][2] * G.m[2][j];
  return r;
}

/// Inertia matrix from Exudyn's 6-vector [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy].
MBS_HD_INLINE Mat3 InertiaMatrixFrom6(const Real* J6) {
  return Mat3{{{J6[0], J6[5], J6[4]}, {J6[5], J6[1], J6[3]}, {J6[4], J6[3], J6[2]}}};
}

// ---------------------------------------------------------------------------------------------
// Euler parameters
// ---------------------------------------------------------------------------------------------

/// A = I + 2 e0 ẽ + 2 ẽ ẽ (Exudyn EP2RotationMatrix); orthonormal for unit p.
MBS_HD_INLINE Mat3 RotationMatrixEP(const Real* p) {
  const Real e0 = p[0], e1 = p[1], e2 = p[2], e3 = p[3];
  return Mat3{{{1 - 2 * (e2 * e2 + e3 * e3), 2 * (e1 * e2 - e0 * e3), 2 * (e1 * e3 + e0 * e2)},
               {2 * (e1 * e2 + e0 * e3), 1 - 2 * (e1 * e1 + e3 * e3), 2 * (e2 * e3 - e0 * e1)},
               {2 * (e1 * e3 - e0 * e2), 2 * (e2 * e3 + e0 * e1), 1 - 2 * (e1 * e1 + e2 * e2)}}};
}

/// G = 2 [-e, e0 I + ẽ]: global ω = G ṗ.
MBS_HD_INLINE Mat3x4 G_EP(const Real* p) {
  const Real e0 = p[0], e1 = p[1], e2 = p[2], e3 = p[3];
  return Mat3x4{{{-2 * e1, 2 * e0, -2 * e3, 2 * e2},
                 {-2 * e2, 2 * e3, 2 * e0, -2 * e1},
                 {-2 * e3, -2 * e2, 2 * e1, 2 * e0}}};
}

/// GL = 2 [-e, e0 I - ẽ]: local ω_l = GL ṗ.
MBS_HD_INLINE Mat3x4 GLocal_EP(const Real* p) {
  const Real e0 = p[0], e1 = p[1], e2 = p[2], e3 = p[3];
  return Mat3x4{{{-2 * e1, 2 * e0, 2 * e3, -2 * e2},
                 {-2 * e2, -2 * e3, 2 * e0, 2 * e1},
                 {-2 * e3, 2 * e2, -2 * e1, 2 * e0}}};
}

/// Ġ ṗ = G(ṗ) ṗ (G is linear in p); identically zero, computed generally.
MBS_HD_INLINE Vec3 GDotTimes_EP(const Real* /*p*/, const Real* pdot) {
  const Mat3x4 Gd = G_EP(pdot);
  return Mult3xN(Gd, pdot, 4);
}

/// ĠL ṗ = GL(ṗ) ṗ (GL is linear in p); identically zero, computed generally.
MBS_HD_INLINE Vec3 GLocalDotTimes_EP(const Real* /*p*/, const Real* pdot) {
  const Mat3x4 Gd = GLocal_EP(pdot);
  return Mult3xN(Gd, pdot, 4);
}

/// Euler parameters of a rotation matrix (Shepperd's method, e0 >= 0).
MBS_HD_INLINE void RotationMatrix2EP(const Mat3& A, Real* p) {
  const Real tr = A(0, 0) + A(1, 1) + A(2, 2);
  const Real d[4] = {tr, A(0, 0), A(1, 1), A(2, 2)};
  int k = 0;
  for (int i = 1; i < 4; ++i)
    if (d[i] > d[k]) k = i;
  Real e[4];
  if (k == 0) {
    const Real s = 2 * sqrt(fabs(1 + tr));  // 4 e0
    e[0] = 0.25 * s;
    e[1] = (A(2, 1) - A(1, 2)) / s;
    e[2] = (A(0, 2) - A(2, 0)) / s;
    e[3] = (A(1, 0) - A(0, 1)) / s;
  } else if (k == 1) {
    const Real s = 2 * sqrt(fabs(1 + 2 * A(0, 0) - tr));  // 4 e1
    e[0] = (A(2, 1) - A(1, 2)) / s;
    e[1] = 0.25 * s;
    e[2] = (A(0, 1) + A(1, 0)) / s;
    e[3] = (A(0, 2) + A(2, 0)) / s;
  } else if (k == 2) {
    const Real s = 2 * sqrt(fabs(1 + 2 * A(1, 1) - tr));  // 4 e2
    e[0] = (A(0, 2) - A(2, 0)) / s;
    e[1] = (A(0, 1) + A(1, 0)) / s;
    e[2] = 0.25 * s;
    e[3] = (A(1, 2) + A(2, 1)) / s;
  } else {
    const Real s = 2 * sqrt(fabs(1 + 2 * A(2, 2) - tr));  // 4 e3
    e[0] = (A(1, 0) - A(0, 1)) / s;
    e[1] = (A(0, 2) + A(2, 0)) / s;
    e[2] = (A(1, 2) + A(2, 1)) / s;
    e[3] = 0.25 * s;
  }
  const Real sign = e[0] < 0 ? -1 : 1;
  for (int i = 0; i < 4; ++i) p[i] = sign * e[i];
}

// ---------------------------------------------------------------------------------------------
// Tait-Bryan xyz angles
// ---------------------------------------------------------------------------------------------

/// A = Rx(φ0) Ry(φ1) Rz(φ2) (Exudyn RotXYZ2RotationMatrix).
MBS_HD_INLINE Mat3 RotationMatrixRxyz(const Real* phi) {
  const Real ca = cos(phi[0]), sa = sin(phi[0]);
  const Real cb = cos(phi[1]), sb = sin(phi[1]);
  const Real cc = cos(phi[2]), sc = sin(phi[2]);
  return Mat3{{{cb * cc, -cb * sc, sb},
               {sa * sb * cc + ca * sc, ca * cc - sa * sb * sc, -sa * cb},
               {sa * sc - ca * sb * cc, ca * sb * sc + sa * cc, ca * cb}}};
}

/// Global ω = G φ̇ (Exudyn RotXYZ2G); the fourth column is zero.
MBS_HD_INLINE Mat3x4 G_Rxyz(const Real* phi) {
  const Real ca = cos(phi[0]), sa = sin(phi[0]);
  const Real cb = cos(phi[1]), sb = sin(phi[1]);
  return Mat3x4{{{1, 0, sb, 0}, {0, ca, -sa * cb, 0}, {0, sa, ca * cb, 0}}};
}

/// Local ω_l = GL φ̇ (Exudyn RotXYZ2GLocal); the fourth column is zero.
MBS_HD_INLINE Mat3x4 GLocal_Rxyz(const Real* phi) {
  const Real cb = cos(phi[1]), sb = sin(phi[1]);
  const Real cc = cos(phi[2]), sc = sin(phi[2]);
  return Mat3x4{{{cb * cc, sc, 0, 0}, {-cb * sc, cc, 0, 0}, {sb, 0, 1, 0}}};
}

/// Ġ φ̇ = d/dt(G(φ)) φ̇.
MBS_HD_INLINE Vec3 GDotTimes_Rxyz(const Real* phi, const Real* phid) {
  const Real ca = cos(phi[0]), sa = sin(phi[0]);
  const Real cb = cos(phi[1]), sb = sin(phi[1]);
  const Real ad = phid[0], bd = phid[1], gd = phid[2];
  // d/dt column 1 = [0, -sa, ca] ad; d/dt column 2 = [cb bd, -ca cb ad + sa sb bd, -sa cb ad - ca sb bd]
  return MakeVec3(cb * bd * gd,                                         //
                  -sa * ad * bd + (-ca * cb * ad + sa * sb * bd) * gd,  //
                  ca * ad * bd + (-sa * cb * ad - ca * sb * bd) * gd);
}

/// ĠL φ̇ = d/dt(GL(φ)) φ̇.
MBS_HD_INLINE Vec3 GLocalDotTimes_Rxyz(const Real* phi, const Real* phid) {
  const Real cb = cos(phi[1]), sb = sin(phi[1]);
  const Real cc = cos(phi[2]), sc = sin(phi[2]);
  const Real ad = phid[0], bd = phid[1], gd = phid[2];
  // d/dt column 0 = [-sb cc bd - cb sc gd, sb sc bd - cb cc gd, cb bd]; d/dt column 1 = [cc gd, -sc gd, 0]
  return MakeVec3((-sb * cc * bd - cb * sc * gd) * ad + cc * gd * bd,  //
                  (sb * sc * bd - cb * cc * gd) * ad - sc * gd * bd,   //
                  cb * bd * ad);
}

/// Tait-Bryan xyz angles of a rotation matrix (Exudyn RotationMatrix2RotXYZ); φ1 in [-π/2, π/2].
MBS_HD_INLINE Vec3 RotationMatrix2RotXYZ(const Mat3& A) {
  return MakeVec3(atan2(-A(1, 2), A(2, 2)), atan2(A(0, 2), sqrt(fabs(1 - A(0, 2) * A(0, 2)))),
                  atan2(-A(0, 1), A(0, 0)));
}

/// Tait-Bryan xyz angles of the relative rotation from frame A0 to frame A1 (A0ᵀ A1), each angle
/// above π shifted by -2π: the Rotation output of the rigid connectors and 3D joints.
MBS_HD_INLINE Vec3 RelativeRotationXYZ(const Mat3& A0, const Mat3& A1) {
  Vec3 rot = RotationMatrix2RotXYZ(Transpose(A0) * A1);
  const Real pi = 3.14159265358979323846;
  for (int i = 0; i < 3; ++i)
    if (rot[i] > pi) rot[i] -= 2 * pi;
  return rot;
}

// ---------------------------------------------------------------------------------------------
// Dispatch on nRot (4: Euler parameters, 3: Tait-Bryan xyz)
// ---------------------------------------------------------------------------------------------

/// Rotation matrix of the rotation parameters θ.
MBS_HD_INLINE Mat3 RotationMatrixRigid(int nRot, const Real* theta) {
  return nRot == kRotParEP ? RotationMatrixEP(theta) : RotationMatrixRxyz(theta);
}
/// G (global ω = G θ̇), 3 x nRot.
MBS_HD_INLINE Mat3x4 GRigid(int nRot, const Real* theta) {
  return nRot == kRotParEP ? G_EP(theta) : G_Rxyz(theta);
}
/// GL (local ω_l = GL θ̇), 3 x nRot.
MBS_HD_INLINE Mat3x4 GLocalRigid(int nRot, const Real* theta) {
  return nRot == kRotParEP ? GLocal_EP(theta) : GLocal_Rxyz(theta);
}
/// Ġ θ̇.
MBS_HD_INLINE Vec3 GDotTimes(int nRot, const Real* theta, const Real* thetadot) {
  return nRot == kRotParEP ? GDotTimes_EP(theta, thetadot) : GDotTimes_Rxyz(theta, thetadot);
}
/// ĠL θ̇.
MBS_HD_INLINE Vec3 GLocalDotTimes(int nRot, const Real* theta, const Real* thetadot) {
  return nRot == kRotParEP ? GLocalDotTimes_EP(theta, thetadot) : GLocalDotTimes_Rxyz(theta, thetadot);
}
/// Global angular velocity ω = G θ̇.
MBS_HD_INLINE Vec3 AngularVelocityRigid(int nRot, const Real* theta, const Real* thetadot) {
  return Mult3xN(GRigid(nRot, theta), thetadot, nRot);
}
/// Local (body) angular velocity ω_l = GL θ̇.
MBS_HD_INLINE Vec3 AngularVelocityLocalRigid(int nRot, const Real* theta, const Real* thetadot) {
  return Mult3xN(GLocalRigid(nRot, theta), thetadot, nRot);
}

// ---------------------------------------------------------------------------------------------
// Jacobians of body-fixed vectors and points
// ---------------------------------------------------------------------------------------------

/// ∂(A v)/∂θ = -A ṽ GL (3 x nRot) for a body-fixed vector v (body coordinates); for EP this is the
/// derivative tangential to |p| = 1 (the radial direction maps to 0), as Exudyn uses it.
MBS_HD_INLINE Mat3x4 dAv_dtheta(int nRot, const Real* theta, const Vec3& v) {
  const Mat3 A = RotationMatrixRigid(nRot, theta);
  const Mat3 B = A * Skew(-v);
  return Mult3x3_3xN(B, GLocalRigid(nRot, theta), nRot);
}

/// Jacobian ∂r/∂q (3 x (3 + nRot)) of the body-fixed point r = position + A v, written row-major to
/// J with row stride ldJ (>= 3 + nRot): J = [I, -A ṽ GL].
MBS_HD_INLINE void RigidPointJacobian(int nRot, const Real* theta, const Vec3& v, Real* J, int ldJ) {
  const Mat3x4 D = dAv_dtheta(nRot, theta, v);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) J[i * ldJ + j] = i == j ? 1 : 0;
    for (int j = 0; j < nRot; ++j) J[i * ldJ + 3 + j] = D.m[i][j];
  }
}

/// Global velocity of the body-fixed point v: ṗ + A (ω_l × v).
MBS_HD_INLINE Vec3 RigidPointVelocity(int nRot, const Real* theta, const Real* thetadot, const Vec3& posdot,
                                      const Vec3& v) {
  const Mat3 A = RotationMatrixRigid(nRot, theta);
  return posdot + A * Cross(AngularVelocityLocalRigid(nRot, theta, thetadot), v);
}

// ---------------------------------------------------------------------------------------------
// Rigid body mass matrix and quadratic velocity vector
// ---------------------------------------------------------------------------------------------

/// Mass matrix of a rigid body on a reference-point node, (3 + nRot) x (3 + nRot) row-major:
/// M = [[m I, -m A c̃ GL], [(-m A c̃ GL)ᵀ, GLᵀ J GL]] (Exudyn CObjectRigidBody::ComputeMassMatrix).
MBS_HD_INLINE void RigidBodyMassMatrix(int nRot, const Real* theta, Real m, const Real* J6, const Vec3& c,
                                       Real* M) {
  const int n = 3 + nRot;
  const Mat3 A = RotationMatrixRigid(nRot, theta);
  const Mat3x4 GL = GLocalRigid(nRot, theta);
  const Mat3 J = InertiaMatrixFrom6(J6);
  const Mat3 B = A * Skew(-m * c);  // -m A c̃
  const Mat3x4 Mtr = Mult3x3_3xN(B, GL, nRot);
  const Mat3x4 JGL = Mult3x3_3xN(J, GL, nRot);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) M[i * n + j] = i == j ? m : 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < nRot; ++j) {
      M[i * n + 3 + j] = Mtr.m[i][j];
      M[(3 + j) * n + i] = Mtr.m[i][j];
    }
  for (int i = 0; i < nRot; ++i)
    for (int j = i; j < nRot; ++j) {
      const Real v = GL.m[0][i] * JGL.m[0][j] + GL.m[1][i] * JGL.m[1][j] + GL.m[2][i] * JGL.m[2][j];
      M[(3 + i) * n + 3 + j] = v;
      M[(3 + j) * n + 3 + i] = v;
    }
}

/// Quadratic velocity vector f (3 + nRot entries) with M q̈ = f + Q (Q: applied generalized forces):
///   f_pos = -m A (ω_l × (ω_l × c)) + m A (c × ĠL θ̇)
///   f_θ   = -GLᵀ (J ĠL θ̇ + ω_l × J ω_l),   ω_l = GL θ̇.
/// This is the virtual-work (Newton-Euler) form Exudyn uses; it equals -(d/dt ∂T/∂q̇ - ∂T/∂q) at q̈ = 0
/// for T = ½ Σ m_i |ṙ_i|² of the body's points (tests/common/test_rigid3d.cpp). For EP this holds for
/// |p| = 1, p·ṗ = 0, with T extended off the sphere through A(p/|p|); the component along p (which
/// depends on that extension) is zero here, as GL p = 0, and is taken by the constraint pᵀp = 1.
MBS_HD_INLINE void RigidBodyQuadraticVelocity(int nRot, const Real* theta, const Real* thetadot, Real m,
                                              const Real* J6, const Vec3& c, Real* f) {
  const Mat3 A = RotationMatrixRigid(nRot, theta);
  const Mat3x4 GL = GLocalRigid(nRot, theta);
  const Mat3 J = InertiaMatrixFrom6(J6);
  const Vec3 wl = Mult3xN(GL, thetadot, nRot);
  const Vec3 gd = GLocalDotTimes(nRot, theta, thetadot);
  const Vec3 fp = A * (m * (Cross(c, gd) - Cross(wl, Cross(wl, c))));
  const Vec3 fr = J * gd + Cross(wl, J * wl);
  for (int i = 0; i < 3; ++i) f[i] = fp[i];
  Mult3xNT(GL, -fr, nRot, f + 3);
}

}  // namespace mbsweep
