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
MBS_HD_INLINE Vec3 operator*(const Mat3& A, const Vec3& v) {
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
/// Rotation about the z-axis by angle phi.
MBS_HD_INLINE Mat3 RotZ(Real phi) {
  const Real c = cos(phi), s = sin(phi);
  return Mat3{{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}};
}

}  // namespace mbsweep
