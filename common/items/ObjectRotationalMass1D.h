/// @file ObjectRotationalMass1D.h
/// The item ObjectRotationalMass1D: its fields (Exudyn's names, defaults and rules), its typed
/// parameters and the kinematics of its points.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectRotationalMass1D, in Fields() order (its theta slots).
struct ObjectRotationalMass1DParams {
  Real inertia = 0;
  Vector3D referencePosition{};
  Matrix3D referenceRotation{};
};

/// Rotor turning about the local z-axis of a reference frame, on a Node1D (angle).
struct ObjectRotationalMass1D : ObjectRotationalMass1DParams {
  using Params = ObjectRotationalMass1DParams;
  static constexpr const char* typeName = "ObjectRotationalMass1D";
  static constexpr const char* shortName = "Rotor1D";  ///< Exudyn's short name
  /// field names of Exudyn before 1.12.258, read as the current ones
  static constexpr FieldAlias fieldAliases[] = {{"physicsInertia", "inertia"}};
  static constexpr ObjectCategory category = ObjectCategory::Body;
  static constexpr bool coordinateDependentMass = false;  ///< M = const (ConstantMass)
  static constexpr int massLoadCoordinates = 0;  ///< a mass-proportional load at the node enters no coordinates
  static constexpr bool hasOrientation = true;   ///< a MarkerBodyRigid may sit on it
  /// what a SensorBody may ask for
  static constexpr const auto& bodyOutputs = kRotatingBodyOutputs;
  std::string name;
  NodeIndex nodeNumber;
  /// A point at lp in the reference frame turned by the node's angle about its z-axis.
  MBS_HD_FORCEINLINE static void PointKinematics(const BodyAccess& b, const Params& p, const Vec3& lp, Kinematics& K) {
    const NodeRecord r = GetNodeRecord(b.L, b.Node());
    const Real phi = b.NodeReference()[0] + b.q[r.ode2Begin];
    const Mat3 R = ToMat3(p.referenceRotation);
    K.A = R * RotZ(phi);
    const Vec3 rg = K.A * lp;
    const Vec3 axis = MakeVec3(R(0, 2), R(1, 2), R(2, 2));
    const Real w = b.v[r.ode2Begin];
    K.pos = ToVec3(p.referencePosition) + rg;
    K.omega = w * axis;
    K.omegaLocal = MakeVec3(0, 0, w);
    K.vel = Cross(K.omega, rg);
    K.n = 1;
    K.firstODE2 = r.ode2Begin;
    ClearJacobians(K);
    const Vec3 dv = Cross(axis, rg);
    for (int i = 0; i < 3; ++i) {
      K.Jpos[i][0] = dv[i];
      K.Jrot[i][0] = axis[i];
    }
  }
  MBS_HD_FORCEINLINE static Vec3 ReferencePosition(const BodyAccess& b, const Params& p, const Vec3& lp) {
    const Real phi = b.NodeReference()[0];
    return ToVec3(p.referencePosition) + (ToMat3(p.referenceRotation) * RotZ(phi)) * lp;
  }
  MBS_HD_INLINE static bool ConstantMass(const Params&) { return true; }
  /// inertia on each of its coordinates (nothing for a zero inertia).
  template <class Sink> MBS_HD_INLINE static void AddConstantMass(const Params& p, const int* ltg, int n, Sink& M) {
    if (p.inertia != 0)
      for (int a = 0; a < n; ++a) M.add(ltg[a], ltg[a], p.inertia);
  }
  template <class V> void Fields(V& v) {
    v("inertia", inertia, Rule::UReal);
    v("nodeNumber", nodeNumber);
    v("referencePosition", referencePosition, Rule::Real);
    v("referenceRotation", referenceRotation);
  }
};

}  // namespace mbsweep
