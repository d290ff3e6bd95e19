// Tests of the 3D rigid-body math (common/rigid3d.h): rotation matrices of Euler parameters (EP) and
// Tait-Bryan xyz angles (Rxyz), the G / GL matrices and their time derivatives, the inverse map
// RotationMatrix2RotXYZ, and the rigid-body mass matrix and quadratic velocity vector checked against
// a body made of 4 point masses (kinetic energy, Lagrange's equations by finite differences).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "common/rigid3d.h"

namespace mbsweep {
namespace {

constexpr Real kPi = 3.14159265358979323846;

// ---- small helpers (host only) ----------------------------------------------------------------

Real MaxAbsDiff(const Mat3& A, const Mat3& B) {
  Real d = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) d = std::fmax(d, std::fabs(A(i, j) - B(i, j)));
  return d;
}
Real MaxAbsDiff(const Vec3& a, const Vec3& b) {
  return std::fmax(std::fabs(a[0] - b[0]), std::fmax(std::fabs(a[1] - b[1]), std::fabs(a[2] - b[2])));
}
Real Det(const Mat3& A) {
  return A(0, 0) * (A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1)) - A(0, 1) * (A(1, 0) * A(2, 2) - A(1, 2) * A(2, 0)) +
         A(0, 2) * (A(1, 0) * A(2, 1) - A(1, 1) * A(2, 0));
}
Mat3 Sub(const Mat3& A, const Mat3& B) {
  Mat3 C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C(i, j) = A(i, j) - B(i, j);
  return C;
}
Mat3 Scale(Real s, const Mat3& A) {
  Mat3 C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C(i, j) = s * A(i, j);
  return C;
}

struct Rng {
  std::mt19937_64 gen;
  explicit Rng(unsigned seed) : gen(seed) {}
  Real Uniform(Real a, Real b) { return std::uniform_real_distribution<Real>(a, b)(gen); }
};

// Random unit Euler parameters.
void RandomUnitEP(Rng& r, Real* p) {
  Real n = 0;
  do {
    n = 0;
    for (int i = 0; i < 4; ++i) {
      p[i] = r.Uniform(-1, 1);
      n += p[i] * p[i];
    }
  } while (n < 0.1);
  n = std::sqrt(n);
  for (int i = 0; i < 4; ++i) p[i] /= n;
}
// Random EP rate orthogonal to the unit p (consistent with pᵀp = 1).
void RandomTangentRate(Rng& r, const Real* p, Real* pd) {
  Real s = 0;
  for (int i = 0; i < 4; ++i) {
    pd[i] = r.Uniform(-1, 1);
    s += pd[i] * p[i];
  }
  for (int i = 0; i < 4; ++i) pd[i] -= s * p[i];
}
// Random rotation parameters (unit EP or angles with |φ1| <= 1.3) and consistent rates.
void RandomState(Rng& r, int nRot, Real* theta, Real* thetad) {
  if (nRot == kRotParEP) {
    RandomUnitEP(r, theta);
    RandomTangentRate(r, theta, thetad);
  } else {
    theta[0] = r.Uniform(-kPi, kPi);
    theta[1] = r.Uniform(-1.3, 1.3);
    theta[2] = r.Uniform(-kPi, kPi);
    for (int i = 0; i < 3; ++i) thetad[i] = r.Uniform(-1.5, 1.5);
  }
}

// Quaternion (EP) product, A(a ∘ b) = A(a) A(b).
void QuatMult(const Real* a, const Real* b, Real* c) {
  c[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  c[1] = a[0] * b[1] + b[0] * a[1] + a[2] * b[3] - a[3] * b[2];
  c[2] = a[0] * b[2] + b[0] * a[2] + a[3] * b[1] - a[1] * b[3];
  c[3] = a[0] * b[3] + b[0] * a[3] + a[1] * b[2] - a[2] * b[1];
}

// Rodrigues' formula for a unit axis u and angle phi.
Mat3 AxisAngle(const Vec3& u, Real phi) {
  const Mat3 U = Skew(u);
  const Mat3 UU = U * U;
  Mat3 A = Identity3();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A(i, j) += std::sin(phi) * U(i, j) + (1 - std::cos(phi)) * UU(i, j);
  return A;
}

// ---- rotation matrices ------------------------------------------------------------------------

// A is orthonormal with det 1 for random unit EP and random Tait-Bryan angles (tolerance 1e-14,
// entries are O(1) so this is a few ulps).
TEST(Rigid3D, RotationMatrixOrthonormal) {
  Rng r(1);
  for (int k = 0; k < 50; ++k) {
    Real p[4], pd[4], phi[3], phid[3];
    RandomState(r, kRotParEP, p, pd);
    RandomState(r, kRotParRxyz, phi, phid);
    phi[1] = r.Uniform(-kPi, kPi);  // any angles
    for (const Mat3& A : {RotationMatrixEP(p), RotationMatrixRxyz(phi)}) {
      EXPECT_LT(MaxAbsDiff(Transpose(A) * A, Identity3()), 1e-14);
      EXPECT_LT(MaxAbsDiff(A * Transpose(A), Identity3()), 1e-14);
      EXPECT_NEAR(Det(A), 1., 1e-14);
    }
  }
}

// EP and Rxyz describe the same rotation: axis-angle (Rodrigues) vs EP [cos φ/2, u sin φ/2]; elementary
// rotations; Rx(a) Ry(b) Rz(c) vs the EP product q_x(a) ∘ q_y(b) ∘ q_z(c). Tolerance 1e-14 (O(1) entries).
TEST(Rigid3D, EPAndRxyzSameRotation) {
  Rng r(2);
  for (int k = 0; k < 50; ++k) {
    Vec3 u = MakeVec3(r.Uniform(-1, 1), r.Uniform(-1, 1), r.Uniform(-1, 1));
    u = (1 / Norm(u)) * u;
    const Real phi = r.Uniform(-3, 3);
    const Real p[4] = {std::cos(phi / 2), u[0] * std::sin(phi / 2), u[1] * std::sin(phi / 2),
                       u[2] * std::sin(phi / 2)};
    const Mat3 A = AxisAngle(u, phi);
    EXPECT_LT(MaxAbsDiff(RotationMatrixEP(p), A), 1e-14);
    // the same rotation via Tait-Bryan angles extracted from A
    const Vec3 ang = RotationMatrix2RotXYZ(A);
    EXPECT_LT(MaxAbsDiff(RotationMatrixRxyz(ang.x), A), 1e-13);
    // and back to EP (sign fixed by e0 >= 0)
    Real p2[4];
    RotationMatrix2EP(A, p2);
    const Real s = p[0] < 0 ? -1 : 1;
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(p2[i], s * p[i], 1e-14);
  }
  // elementary rotations
  const Real a = 0.7;
  const Real ex[4] = {std::cos(a / 2), std::sin(a / 2), 0, 0}, ax[3] = {a, 0, 0};
  const Real ey[4] = {std::cos(a / 2), 0, std::sin(a / 2), 0}, ay[3] = {0, a, 0};
  const Real ez[4] = {std::cos(a / 2), 0, 0, std::sin(a / 2)}, az[3] = {0, 0, a};
  EXPECT_LT(MaxAbsDiff(RotationMatrixEP(ex), RotationMatrixRxyz(ax)), 1e-15);
  EXPECT_LT(MaxAbsDiff(RotationMatrixEP(ey), RotationMatrixRxyz(ay)), 1e-15);
  EXPECT_LT(MaxAbsDiff(RotationMatrixEP(ez), RotationMatrixRxyz(az)), 1e-15);
  EXPECT_LT(MaxAbsDiff(RotationMatrixRxyz(az), RotZ(a)), 1e-15);
  EXPECT_NEAR(RotationMatrixRxyz(ax)(2, 1), std::sin(a), 1e-15);  // Rx: e_y -> [0, c, s]
  EXPECT_NEAR(RotationMatrixRxyz(ay)(0, 2), std::sin(a), 1e-15);  // Ry: e_z -> [s, 0, c]
  // composed rotation
  for (int k = 0; k < 50; ++k) {
    const Real phi[3] = {r.Uniform(-kPi, kPi), r.Uniform(-kPi, kPi), r.Uniform(-kPi, kPi)};
    const Real qx[4] = {std::cos(phi[0] / 2), std::sin(phi[0] / 2), 0, 0};
    const Real qy[4] = {std::cos(phi[1] / 2), 0, std::sin(phi[1] / 2), 0};
    const Real qz[4] = {std::cos(phi[2] / 2), 0, 0, std::sin(phi[2] / 2)};
    Real qxy[4], q[4];
    QuatMult(qx, qy, qxy);
    QuatMult(qxy, qz, q);
    EXPECT_LT(MaxAbsDiff(RotationMatrixEP(q), RotationMatrixRxyz(phi)), 1e-14);
    EXPECT_LT(MaxAbsDiff(RotationMatrixRigid(4, q), RotationMatrixRigid(3, phi)), 1e-14);
  }
}

// RotationMatrix2RotXYZ inverts RotationMatrixRxyz for φ0, φ2 in (-π, π), φ1 in (-π/2, π/2)
// (here |φ1| <= 1.45; tolerance 1e-12 rad: atan2 of O(1) arguments, cos φ1 >= 0.12).
TEST(Rigid3D, RotationMatrix2RotXYZInverse) {
  Rng r(3);
  for (int k = 0; k < 200; ++k) {
    const Real phi[3] = {r.Uniform(-3.1, 3.1), r.Uniform(-1.45, 1.45), r.Uniform(-3.1, 3.1)};
    const Vec3 back = RotationMatrix2RotXYZ(RotationMatrixRxyz(phi));
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(back[i], phi[i], 1e-12);
  }
}

// ---- angular velocity -------------------------------------------------------------------------

// Ȧ by central differences of A(θ + t θ̇) (h = 1e-5; for EP A is quadratic in p, so the central
// difference is exact up to rounding; for Rxyz the truncation error is ~h² = 1e-10):
// ω̃ = Ȧ Aᵀ with ω = G θ̇ and ω̃_l = Aᵀ Ȧ with ω_l = GL θ̇, to 1e-7.
TEST(Rigid3D, AngularVelocityMatchesFiniteDifferences) {
  Rng r(4);
  const Real h = 1e-5;
  for (int nRot : {kRotParEP, kRotParRxyz}) {
    for (int k = 0; k < 50; ++k) {
      Real th[4], thd[4], tp[4], tm[4];
      RandomState(r, nRot, th, thd);
      for (int i = 0; i < nRot; ++i) {
        tp[i] = th[i] + h * thd[i];
        tm[i] = th[i] - h * thd[i];
      }
      const Mat3 A = RotationMatrixRigid(nRot, th);
      const Mat3 Ad = Scale(1 / (2 * h), Sub(RotationMatrixRigid(nRot, tp), RotationMatrixRigid(nRot, tm)));
      const Vec3 w = AngularVelocityRigid(nRot, th, thd);
      const Vec3 wl = AngularVelocityLocalRigid(nRot, th, thd);
      EXPECT_LT(MaxAbsDiff(Skew(w), Ad * Transpose(A)), 1e-7) << "nRot=" << nRot;
      EXPECT_LT(MaxAbsDiff(Skew(wl), Transpose(A) * Ad), 1e-7) << "nRot=" << nRot;
      EXPECT_LT(MaxAbsDiff(w, A * wl), 1e-14);
      // the kind-specific functions agree with the dispatch
      const Mat3x4 G = nRot == 4 ? G_EP(th) : G_Rxyz(th);
      const Mat3x4 GL = nRot == 4 ? GLocal_EP(th) : GLocal_Rxyz(th);
      EXPECT_EQ(MaxAbsDiff(Mult3xN(G, thd, nRot), w), 0.);
      EXPECT_EQ(MaxAbsDiff(Mult3xN(GL, thd, nRot), wl), 0.);
    }
  }
}

// Ġ θ̇ and ĠL θ̇ against central differences (G(θ + h θ̇) - G(θ - h θ̇)) / 2h θ̇, h = 1e-5: exact up to
// rounding for EP (G linear in p; any rate), truncation ~1e-10 for Rxyz; tolerance 1e-8.
TEST(Rigid3D, GDotTimesMatchesFiniteDifferences) {
  Rng r(5);
  const Real h = 1e-5;
  for (int nRot : {kRotParEP, kRotParRxyz}) {
    for (int k = 0; k < 50; ++k) {
      Real th[4], thd[4], tp[4], tm[4];
      RandomState(r, nRot, th, thd);
      if (nRot == kRotParEP)
        for (int i = 0; i < 4; ++i) thd[i] += r.Uniform(-0.5, 0.5);  // also non-tangent rates
      for (int i = 0; i < nRot; ++i) {
        tp[i] = th[i] + h * thd[i];
        tm[i] = th[i] - h * thd[i];
      }
      const Vec3 fdG = (1 / (2 * h)) * (Mult3xN(GRigid(nRot, tp), thd, nRot) - Mult3xN(GRigid(nRot, tm), thd, nRot));
      const Vec3 fdGL =
          (1 / (2 * h)) * (Mult3xN(GLocalRigid(nRot, tp), thd, nRot) - Mult3xN(GLocalRigid(nRot, tm), thd, nRot));
      EXPECT_LT(MaxAbsDiff(GDotTimes(nRot, th, thd), fdG), 1e-8) << "nRot=" << nRot;
      EXPECT_LT(MaxAbsDiff(GLocalDotTimes(nRot, th, thd), fdGL), 1e-8) << "nRot=" << nRot;
      if (nRot == kRotParEP) {
        EXPECT_LT(Norm(GLocalDotTimes_EP(th, thd)), 1e-15);  // zero up to rounding
        EXPECT_LT(Norm(GDotTimes_EP(th, thd)), 1e-15);
      }
    }
  }
}

// d(A v)/dθ θ̇ = d/dt (A v) by central differences (h = 1e-5, tolerance 1e-8), and the point Jacobian
// [I, dAv_dθ] reproduces the point velocity ṗ + A (ω_l × v) (tolerance 1e-14).
TEST(Rigid3D, BodyFixedVectorJacobian) {
  Rng r(6);
  const Real h = 1e-5;
  for (int nRot : {kRotParEP, kRotParRxyz}) {
    for (int k = 0; k < 30; ++k) {
      Real th[4], thd[4], tp[4], tm[4];
      RandomState(r, nRot, th, thd);
      const Vec3 v = MakeVec3(r.Uniform(-2, 2), r.Uniform(-2, 2), r.Uniform(-2, 2));
      for (int i = 0; i < nRot; ++i) {
        tp[i] = th[i] + h * thd[i];
        tm[i] = th[i] - h * thd[i];
      }
      const Vec3 fd = (1 / (2 * h)) * (RotationMatrixRigid(nRot, tp) * v - RotationMatrixRigid(nRot, tm) * v);
      const Mat3x4 D = dAv_dtheta(nRot, th, v);
      EXPECT_LT(MaxAbsDiff(Mult3xN(D, thd, nRot), fd), 1e-8) << "nRot=" << nRot;
      for (int i = 0; i < 3; ++i)
        for (int j = nRot; j < 4; ++j) EXPECT_EQ(D(i, j), 0.);

      Real Jp[3][8];
      RigidPointJacobian(nRot, th, v, &Jp[0][0], 8);
      const Real qd[7] = {0.3, -0.2, 0.5, thd[0], thd[1], thd[2], thd[3]};
      Vec3 vel = MakeVec3(0, 0, 0);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3 + nRot; ++j) vel[i] += Jp[i][j] * qd[j];
      const Vec3 ref = RigidPointVelocity(nRot, th, thd, MakeVec3(0.3, -0.2, 0.5), v);
      EXPECT_LT(MaxAbsDiff(vel, ref), 1e-14);
    }
  }
}

// ---- rigid body: 4 point masses ---------------------------------------------------------------

struct PointMassBody {
  Real mi[4];
  Vec3 xi[4];  // body coordinates relative to the reference point
  Real m;
  Vec3 c;
  Real J6[6];
};

// m = Σ m_i, c = Σ m_i x_i / m, J = Σ m_i (x_iᵀx_i I - x_i x_iᵀ) about the reference point.
PointMassBody MakeBody() {
  PointMassBody b{{1.3, 0.7, 2.1, 0.9},
                  {MakeVec3(0.4, 0.1, -0.2), MakeVec3(-0.3, 0.5, 0.25), MakeVec3(0.15, -0.35, 0.6),
                   MakeVec3(0.7, 0.45, 0.1)},
                  0,
                  MakeVec3(0, 0, 0),
                  {0, 0, 0, 0, 0, 0}};
  Mat3 J = Zero3();
  Vec3 s = MakeVec3(0, 0, 0);
  for (int i = 0; i < 4; ++i) {
    const Vec3& x = b.xi[i];
    b.m += b.mi[i];
    s = s + b.mi[i] * x;
    for (int r = 0; r < 3; ++r)
      for (int q = 0; q < 3; ++q) J(r, q) += b.mi[i] * ((r == q ? Dot(x, x) : 0) - x[r] * x[q]);
  }
  b.c = (1 / b.m) * s;
  const Real J6[6] = {J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1)};
  for (int i = 0; i < 6; ++i) b.J6[i] = J6[i];
  return b;
}

// The mass matrix is symmetric and ½ q̇ᵀ M q̇ equals Σ ½ m_i |ṗ + A (ω_l × x_i)|² (ω_l = GL θ̇, checked
// above against finite differences of A) to 1e-12 relative.
TEST(Rigid3D, MassMatrixKineticEnergy) {
  Rng r(7);
  const PointMassBody b = MakeBody();
  for (int nRot : {kRotParEP, kRotParRxyz}) {
    const int n = 3 + nRot;
    for (int k = 0; k < 30; ++k) {
      Real th[4], thd[4];
      RandomState(r, nRot, th, thd);
      Real qd[7] = {r.Uniform(-1, 1), r.Uniform(-1, 1), r.Uniform(-1, 1), 0, 0, 0, 0};
      for (int i = 0; i < nRot; ++i) qd[3 + i] = thd[i];
      Real M[49];
      RigidBodyMassMatrix(nRot, th, b.m, b.J6, b.c, M);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) EXPECT_EQ(M[i * n + j], M[j * n + i]);
      Real TM = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) TM += 0.5 * qd[i] * M[i * n + j] * qd[j];
      const Mat3 A = RotationMatrixRigid(nRot, th);
      const Vec3 wl = AngularVelocityLocalRigid(nRot, th, thd);
      const Vec3 pd = MakeVec3(qd[0], qd[1], qd[2]);
      Real T = 0;
      for (int i = 0; i < 4; ++i) {
        const Vec3 v = pd + A * Cross(wl, b.xi[i]);
        T += 0.5 * b.mi[i] * Dot(v, v);
      }
      EXPECT_NEAR(TM, T, 1e-12 * T) << "nRot=" << nRot;
    }
  }
}

// Lagrange's equations by finite differences for the 4-point-mass body. The kinetic energy is built
// only from the point positions r_i(q) = pos + Â(θ) x_i (Â = RotationMatrixEP(p / |p|) for EP, so that
// it is defined off the unit sphere, and RotationMatrixRxyz for Rxyz):
//   J_i = ∂r_i/∂q (5-point differences, h1), T(q, q̇) = ½ Σ m_i |J_i q̇|², ∂T/∂q̇ = Σ m_i J_iᵀ J_i q̇,
//   L = d/dt ∂T/∂q̇ (q + t q̇, q̇)|_{t=0} - ∂T/∂q (5-point differences, h2)  [= M q̈ - f at q̈ = 0].
// With h1 = h2 = 1e-3 the truncation errors are ~1e-12 and rounding ~1e-10 (observed |L + f| / |f| ~ 1e-9),
// so L = -f to 1e-6 relative (to |f|), all components. For EP (|p| = 1, p·ṗ = 0) the component of L along p
// depends on how T is extended off |p| = 1 (it is taken by the multiplier of the node constraint pᵀp = 1);
// with the extension Â(p / |p|) it vanishes, like p·f_θ (GL p = 0), which is checked separately.
class LagrangeFD {
 public:
  LagrangeFD(const PointMassBody& b, int nRot) : b_(b), nRot_(nRot), n_(3 + nRot) {}

  Vec3 Position(const Real* q, int i) const {
    Real th[4];
    for (int k = 0; k < nRot_; ++k) th[k] = q[3 + k];
    if (nRot_ == kRotParEP) {
      const Real s = std::sqrt(th[0] * th[0] + th[1] * th[1] + th[2] * th[2] + th[3] * th[3]);
      for (int k = 0; k < 4; ++k) th[k] /= s;
    }
    return MakeVec3(q[0], q[1], q[2]) + RotationMatrixRigid(nRot_, th) * b_.xi[i];
  }
  // 5-point derivative of g(s) = g(0) + ... : (g(-2h) - 8 g(-h) + 8 g(h) - g(2h)) / 12h
  template <class F>
  static Real D5(F g, Real h) {
    return (g(-2 * h) - 8 * g(-h) + 8 * g(h) - g(2 * h)) / (12 * h);
  }
  // Velocity of point i: J_i(q) q̇, J_i by 5-point differences of r_i.
  Vec3 Velocity(const Real* q, const Real* qd, int i) const {
    Vec3 v = MakeVec3(0, 0, 0);
    for (int k = 0; k < n_; ++k) {
      for (int c = 0; c < 3; ++c) {
        const Real dr = D5(
            [&](Real s) {
              Real qq[7];
              for (int j = 0; j < n_; ++j) qq[j] = q[j];
              qq[k] += s;
              return Position(qq, i)[c];
            },
            h1_);
        v[c] += dr * qd[k];
      }
    }
    return v;
  }
  Real Kinetic(const Real* q, const Real* qd) const {
    Real T = 0;
    for (int i = 0; i < 4; ++i) {
      const Vec3 v = Velocity(q, qd, i);
      T += 0.5 * b_.mi[i] * Dot(v, v);
    }
    return T;
  }
  // ∂T/∂q̇_k: T is exactly quadratic in q̇, so the central difference with step 1 is exact.
  Real DTdqd(const Real* q, const Real* qd, int k) const {
    Real a[7], m[7];
    for (int j = 0; j < n_; ++j) a[j] = m[j] = qd[j];
    a[k] += 1;
    m[k] -= 1;
    return 0.5 * (Kinetic(q, a) - Kinetic(q, m));
  }
  void Residual(const Real* q, const Real* qd, Real* L) const {
    for (int k = 0; k < n_; ++k) {
      const Real ddt = D5(
          [&](Real t) {
            Real qq[7];
            for (int j = 0; j < n_; ++j) qq[j] = q[j] + t * qd[j];
            return DTdqd(qq, qd, k);
          },
          h2_);
      const Real dq = D5(
          [&](Real s) {
            Real qq[7];
            for (int j = 0; j < n_; ++j) qq[j] = q[j];
            qq[k] += s;
            return Kinetic(qq, qd);
          },
          h2_);
      L[k] = ddt - dq;
    }
  }

 private:
  const PointMassBody& b_;
  int nRot_, n_;
  Real h1_ = 1e-3, h2_ = 1e-3;
};

TEST(Rigid3D, QuadraticVelocityMatchesLagrange) {
  Rng r(8);
  const PointMassBody b = MakeBody();
  for (int nRot : {kRotParEP, kRotParRxyz}) {
    const int n = 3 + nRot;
    const LagrangeFD lag(b, nRot);
    for (int k = 0; k < 10; ++k) {
      Real th[4], thd[4];
      RandomState(r, nRot, th, thd);
      Real q[7] = {r.Uniform(-1, 1), r.Uniform(-1, 1), r.Uniform(-1, 1), 0, 0, 0, 0};
      Real qd[7] = {r.Uniform(-1, 1), r.Uniform(-1, 1), r.Uniform(-1, 1), 0, 0, 0, 0};
      for (int i = 0; i < nRot; ++i) {
        q[3 + i] = th[i];
        qd[3 + i] = 2 * thd[i];
      }
      Real f[7], L[7];
      RigidBodyQuadraticVelocity(nRot, q + 3, qd + 3, b.m, b.J6, b.c, f);
      lag.Residual(q, qd, L);
      if (nRot == kRotParEP) {  // f_θ ⟂ p (rounding level, |f| ~ 10)
        Real sf = 0;
        for (int i = 0; i < 4; ++i) sf += f[3 + i] * q[3 + i];
        EXPECT_NEAR(sf, 0., 1e-13);
      }
      Real fn = 0, en = 0;
      for (int i = 0; i < n; ++i) {
        fn += f[i] * f[i];
        en += (L[i] + f[i]) * (L[i] + f[i]);
      }
      EXPECT_GT(std::sqrt(fn), 0.1);  // non-trivial test case
      EXPECT_LT(std::sqrt(en), 1e-6 * std::sqrt(fn)) << "nRot=" << nRot << " case " << k;
    }
  }
}

// Reference point at the centre of mass, Rxyz at φ = 0 (A = GL = I): f_pos = 0 and
// f_θ = -(J ĠL φ̇ + ω × J ω) (Euler's equations plus the rate term of the angles). Tolerance 1e-15.
TEST(Rigid3D, QuadraticVelocityCentreOfMass) {
  const Real J6[6] = {2, 3, 4, 0.1, -0.2, 0.3};
  const Real phi[3] = {0, 0, 0}, phid[3] = {0.5, -1.2, 0.8};
  Real f[6];
  RigidBodyQuadraticVelocity(3, phi, phid, 5., J6, MakeVec3(0, 0, 0), f);
  const Mat3 J = InertiaMatrixFrom6(J6);
  const Vec3 w = MakeVec3(phid[0], phid[1], phid[2]);
  const Vec3 ref = -(J * GLocalDotTimes_Rxyz(phi, phid) + Cross(w, J * w));
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(f[i], 0.);
    EXPECT_NEAR(f[3 + i], ref[i], 1e-15);
  }
}

}  // namespace
}  // namespace mbsweep
