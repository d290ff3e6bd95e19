/// @file ObjectMass1D.h
/// The item ObjectMass1D: its fields (Exudyn's names, defaults and rules), its typed parameters,
/// the kinematics of its points and its mass.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectMass1D, in Fields() order (its theta slots).
struct ObjectMass1DParams {
  Real mass = 0;
  Vector3D referencePosition{};
  Matrix3D referenceRotation{};
};

/// Mass moving along the local x-axis of a reference frame, on a Node1D.
struct ObjectMass1D : ObjectMass1DParams {
  using Params = ObjectMass1DParams;
  static constexpr const char* typeName = "ObjectMass1D";
  static constexpr const char* shortName = "Mass1D";  ///< Exudyn's short name
  /// field names of Exudyn before 1.12.258, read as the current ones
  static constexpr FieldAlias fieldAliases[] = {{"physicsMass", "mass"}};
  static constexpr ObjectCategory category = ObjectCategory::Body;
  static constexpr bool coordinateDependentMass = false;  ///< M = const (ConstantMass)
  static constexpr int massLoadCoordinates = 0;  ///< a mass-proportional load at the node enters no coordinates
  static constexpr bool hasOrientation = true;   ///< a MarkerBodyRigid may sit on it
  /// what a SensorBody may ask for
  static constexpr OutputVariableType bodyOutputs[] = {OutputVariableType::Position, OutputVariableType::Displacement,
                                                       OutputVariableType::Velocity, OutputVariableType::Acceleration,
                                                       OutputVariableType::RotationMatrix};
  std::string name;
  NodeIndex nodeNumber;
  /// A point at lp in the reference frame moved by the node's coordinate x along its x-axis.
  MBS_HD_FORCEINLINE static void PointKinematics(const BodyAccess& b, const Params& p, const Vec3& lp, Kinematics& K) {
    const NodeRecord r = GetNodeRecord(b.L, b.Node());
    const Real x = b.NodeReference()[0] + b.q[r.ode2Begin];
    const Mat3 R = ToMat3(p.referenceRotation);
    K.A = R;
    K.pos = ToVec3(p.referencePosition) + R * (MakeVec3(x, 0, 0) + lp);
    K.vel = b.v[r.ode2Begin] * MakeVec3(R(0, 0), R(1, 0), R(2, 0));
    K.omega = K.omegaLocal = MakeVec3(0, 0, 0);
    K.n = 1;
    K.firstODE2 = r.ode2Begin;
    ClearJacobians(K);
    for (int i = 0; i < 3; ++i) K.Jpos[i][0] = R(i, 0);
  }
  MBS_HD_FORCEINLINE static Vec3 ReferencePosition(const BodyAccess& b, const Params& p, const Vec3& lp) {
    const Real x = b.NodeReference()[0];
    return ToVec3(p.referencePosition) + ToMat3(p.referenceRotation) * (MakeVec3(x, 0, 0) + lp);
  }
  MBS_HD_FORCEINLINE static Real MassAndCenter(const Params& p, Vec3& com) {
    com = MakeVec3(0, 0, 0);
    return p.mass;
  }
  MBS_HD_INLINE static bool ConstantMass(const Params&) { return true; }
  /// mass on each of its coordinates (nothing for a zero mass).
  template <class Sink> MBS_HD_INLINE static void AddConstantMass(const Params& p, const int* ltg, int n, Sink& M) {
    if (p.mass != 0)
      for (int a = 0; a < n; ++a) M.add(ltg[a], ltg[a], p.mass);
  }
  template <class V> void Fields(V& v) {
    v("mass", mass, Rule::UReal);
    v("nodeNumber", nodeNumber);
    v("referencePosition", referencePosition, Rule::Real);
    v("referenceRotation", referenceRotation);
  }
};

}  // namespace mbsweep
