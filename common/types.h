/// @file types.h
/// Scalar type, typed item indices and the small fixed-size vector/matrix types used by
/// host/device physics code (no allocation, no exceptions).
#pragma once

#include <cmath>
#include <cstdint>

#include "common/hostdevice.h"

namespace mbsweep {

/// The scalar type of models and the CPU reference solver.
using Real = double;

/// An integer known at compile time where an int is expected: sizes and item counts in code
/// generated for one model (common/codegen.h), where loops over them have constant bounds
/// (FixedLU with Exact).
template <int N>
struct FixedInt {
  MBS_HD_INLINE constexpr operator int() const { return N; }
};

/// A typed item index. Indices of different kinds do not convert into each other, so a
/// marker index passed where a node index belongs is a compile error.
template <class Tag>
struct TypedIndex {
  int value = -1;  ///< -1 means "not set"
  constexpr TypedIndex() = default;
  constexpr explicit TypedIndex(int v) : value(v) {}
  constexpr bool IsValid() const { return value >= 0; }
  constexpr bool operator==(TypedIndex o) const { return value == o.value; }
  constexpr bool operator!=(TypedIndex o) const { return value != o.value; }
};

struct NodeTag {};
struct ObjectTag {};
struct MarkerTag {};
struct LoadTag {};
struct SensorTag {};
using NodeIndex = TypedIndex<NodeTag>;
using ObjectIndex = TypedIndex<ObjectTag>;
using MarkerIndex = TypedIndex<MarkerTag>;
using LoadIndex = TypedIndex<LoadTag>;
using SensorIndex = TypedIndex<SensorTag>;

/// 3-vector for host/device code.
struct Vec3 {
  Real x[3];
  MBS_HD_INLINE Real& operator[](int i) { return x[i]; }
  MBS_HD_INLINE const Real& operator[](int i) const { return x[i]; }
};

MBS_HD_INLINE Vec3 MakeVec3(Real a, Real b, Real c) { return Vec3{{a, b, c}}; }
MBS_HD_INLINE Vec3 operator+(const Vec3& a, const Vec3& b) { return Vec3{{a[0] + b[0], a[1] + b[1], a[2] + b[2]}}; }
MBS_HD_INLINE Vec3 operator-(const Vec3& a, const Vec3& b) { return Vec3{{a[0] - b[0], a[1] - b[1], a[2] - b[2]}}; }
MBS_HD_INLINE Vec3 operator-(const Vec3& a) { return Vec3{{-a[0], -a[1], -a[2]}}; }
MBS_HD_INLINE Vec3 operator*(Real s, const Vec3& a) { return Vec3{{s * a[0], s * a[1], s * a[2]}}; }
MBS_HD_INLINE Real Dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
MBS_HD_INLINE Real Norm(const Vec3& a) { return sqrt(Dot(a, a)); }
MBS_HD_INLINE Vec3 Cross(const Vec3& a, const Vec3& b) {
  return Vec3{{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
}

/// 3x3 matrix (row-major) for host/device code.
struct Mat3 {
  Real m[3][3];
  MBS_HD_INLINE Real& operator()(int i, int j) { return m[i][j]; }
  MBS_HD_INLINE const Real& operator()(int i, int j) const { return m[i][j]; }
};

MBS_HD_INLINE Mat3 Identity3() { return Mat3{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}; }
MBS_HD_INLINE Mat3 Zero3() { return Mat3{{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}}; }
MBS_HD_FORCEINLINE Vec3 operator*(const Mat3& A, const Vec3& v) {
  return Vec3{{A.m[0][0] * v[0] + A.m[0][1] * v[1] + A.m[0][2] * v[2],
               A.m[1][0] * v[0] + A.m[1][1] * v[1] + A.m[1][2] * v[2],
               A.m[2][0] * v[0] + A.m[2][1] * v[1] + A.m[2][2] * v[2]}};
}
MBS_HD_INLINE Mat3 operator*(const Mat3& A, const Mat3& B) {
  Mat3 C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C.m[i][j] = A.m[i][0] * B.m[0][j] + A.m[i][1] * B.m[1][j] + A.m[i][2] * B.m[2][j];
  return C;
}
MBS_HD_INLINE Mat3 Transpose(const Mat3& A) {
  Mat3 T;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) T.m[i][j] = A.m[j][i];
  return T;
}
/// Transposed product Aᵀ v.
MBS_HD_INLINE Vec3 MultT(const Mat3& A, const Vec3& v) {
  return Vec3{{A.m[0][0] * v[0] + A.m[1][0] * v[1] + A.m[2][0] * v[2],
               A.m[0][1] * v[0] + A.m[1][1] * v[1] + A.m[2][1] * v[2],
               A.m[0][2] * v[0] + A.m[1][2] * v[1] + A.m[2][2] * v[2]}};
}
/// Skew-symmetric matrix with Skew(a) b = a × b.
MBS_HD_INLINE Mat3 Skew(const Vec3& a) {
  return Mat3{{{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}}};
}
/// cosine and sine of a rotation angle x, the one evaluation of every planar rotation (RotZ,
/// the planar joints' AngleCache), so that all paths see the same values. On the device, CUDA's
/// sincos. On the host, for |x| <= 1e5, within one unit in the last place (0.86 ulp measured
/// against long double over 1.4e7 arguments, 4e6 of them next to the quadrant boundaries and to
/// multiples of pi/2; 6 % of the results differ from the C library's in the last bit): x reduced
/// by k pi/2 with pi/2 in four parts (Cody and Waite; the first two of 33 bits, so that their
/// products with k are exact; the last keeps the relative accuracy of the small results next to
/// multiples of pi/2), the remainder kept as r + dr, and the minimax polynomials of sin and cos
/// on [-pi/4, pi/4] of Sun's fdlibm with dr's first-order terms: 89 instructions per call with
/// one data-dependent branch (the quadrant),
/// against the library sincos' 122 (callgrind), whose multi-precision paths serve arguments that
/// rotation angles never reach. Larger |x|, infinities and NaN go to the library.
/// Out of line on the host, returning the pair in registers: the angle's cosine and sine are on
/// the Newton iteration's critical path, and results passed through memory waited for a store
/// and a load (the pendulum benchmark ran 2-5 % faster without).
struct CosSinPair {
  Real cosine, sine;
};
MBS_HD_HOST_NOINLINE CosSinPair CosSin(Real x) {
#if defined(__CUDA_ARCH__)
  CosSinPair p;
  sincos(x, &p.sine, &p.cosine);
  return p;
#else
  if (!(fabs(x) <= 1e5)) return CosSinPair{cos(x), sin(x)};
  constexpr Real kTwoOverPi = 6.36619772367581382433e-01;
  constexpr Real kPio2A = 1.57079632673412561417e+00, kPio2B = 6.07710050630396597660e-11,
                 kPio2C = 2.02226624871116645580e-21, kPio2D = 8.47842766036889956997e-32;
  constexpr Real kRound = 6755399441055744.0;  // 1.5 * 2^52: adding and subtracting it rounds to an integer
  const Real k = (x * kTwoOverPi + kRound) - kRound;
  const Real y = x - k * kPio2A;  // exact: k pi/2's first part is within a factor 2 of x (or k = 0)
  const Real b = k * kPio2B;      // exact
  const Real r = y - b;
  const Real dr = ((y - r) - b) - k * kPio2C - k * kPio2D;
  const Real z = r * r, z2 = z * z, z4 = z2 * z2;
  // the polynomials in z by pairs of coefficients, the pairs summed with z^2 and z^4 (Estrin's
  // scheme: CosSin sits on the Newton iteration's critical path, and Horner's rule waits for one
  // product and sum per coefficient); r^3 and r^4 multiply the whole polynomials
  // sin(r + dr) = r + r^3 p(r^2) + dr (1 - r^2 / 2)
  const Real ps = ((-1.66666666666666324348e-01 + z * 8.33333333332248946124e-03) +
                   z2 * (-1.98412698298579493134e-04 + z * 2.75573137070700676789e-06)) +
                  z4 * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10);
  const Real sr = r + ((z * r) * ps + (dr - 0.5 * z * dr));
  // cos(r + dr) = 1 - r^2 / 2 + r^4 p(r^2) - r dr, the first two summed with their rounding error
  const Real pc = ((4.16666666666666019037e-02 + z * -1.38888888888741095749e-03) +
                   z2 * (2.48015872894767294178e-05 + z * -2.75573143513906633035e-07)) +
                  z4 * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11);
  const Real hz = 0.5 * z, w = 1 - hz;
  const Real cr = w + (((1 - w) - hz) + (z2 * pc - r * dr));
  switch (static_cast<long long>(k) & 3) {
    case 0: return CosSinPair{cr, sr};
    case 1: return CosSinPair{-sr, cr};
    case 2: return CosSinPair{-cr, -sr};
    default: return CosSinPair{sr, -cr};
  }
#endif
}
/// CosSin(x) into two variables.
MBS_HD_INLINE void CosSin(Real x, Real& cosine, Real& sine) {
  const CosSinPair p = CosSin(x);
  cosine = p.cosine;
  sine = p.sine;
}

/// Rotation about the z-axis by angle phi.
MBS_HD_INLINE Mat3 RotZ(Real phi) {
  Real c, s;
  CosSin(phi, c, s);
  return Mat3{{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}};
}

}  // namespace mbsweep
