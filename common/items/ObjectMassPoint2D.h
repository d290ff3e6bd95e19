/// @file ObjectMassPoint2D.h
/// The item ObjectMassPoint2D: its fields (Exudyn's names, defaults and rules), its typed parameters,
/// the kinematics of its points and its mass.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectMassPoint2D, in Fields() order (its theta slots).
struct ObjectMassPoint2DParams {
  Real mass = 0;
};

/// Point mass on a NodePoint2D; M = m*I2.
struct ObjectMassPoint2D : ObjectMassPoint2DParams {
  using Params = ObjectMassPoint2DParams;
  static constexpr const char* typeName = "ObjectMassPoint2D";
  static constexpr const char* shortName = "MassPoint2D";  ///< Exudyn's short name
  /// field names of Exudyn before 1.12.258, read as the current ones
  static constexpr FieldAlias fieldAliases[] = {{"physicsMass", "mass"}};
  static constexpr ObjectCategory category = ObjectCategory::Body;
  static constexpr bool coordinateDependentMass = false;  ///< M = const (ConstantMass)
  static constexpr int massLoadCoordinates = 2;           ///< a mass-proportional load at the node enters 2 coordinates
  static constexpr bool hasOrientation = false;           ///< a MarkerBodyRigid may sit on it
  /// what a SensorBody may ask for
  static constexpr OutputVariableType bodyOutputs[] = {OutputVariableType::Position, OutputVariableType::Displacement,
                                                       OutputVariableType::Velocity, OutputVariableType::Acceleration};
  std::string name;
  NodeIndex nodeNumber;
  /// The node's point moved by lp (no orientation).
  MBS_HD_FORCEINLINE static void PointKinematics(const BodyAccess& b, const Params&, const Vec3& lp, Kinematics& K) {
    NodeKinematics(b.L, b.theta, b.q, b.v, b.Node(), K);
    K.pos = K.pos + lp;
  }
  MBS_HD_FORCEINLINE static Vec3 ReferencePosition(const BodyAccess& b, const Params&, const Vec3& lp) {
    const Real* r = b.NodeReference();
    return MakeVec3(r[0], r[1], 0) + lp;
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
  }
};

}  // namespace mbsweep
