/// @file ObjectGround.h
/// The item ObjectGround: its fields (Exudyn's names, defaults and rules), its typed parameters
/// and the kinematics of its points.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectGround, in Fields() order (its theta slots).
struct ObjectGroundParams {
  Vector3D referencePosition{};
  Matrix3D referenceRotation{};
};

/// Ground body: fixed position and orientation; markers on it have no coordinates.
struct ObjectGround : ObjectGroundParams {
  using Params = ObjectGroundParams;
  static constexpr const char* typeName = "ObjectGround";
  static constexpr ObjectCategory category = ObjectCategory::Ground;
  static constexpr bool hasOrientation = true;  ///< a MarkerBodyRigid may sit on it
  /// what a SensorBody may ask for
  static constexpr OutputVariableType bodyOutputs[] = {OutputVariableType::Position, OutputVariableType::Displacement,
                                                       OutputVariableType::Velocity, OutputVariableType::Acceleration,
                                                       OutputVariableType::RotationMatrix};
  std::string name;
  /// A point at lp in the ground's frame; no coordinates (n = 0).
  MBS_HD_FORCEINLINE static void PointKinematics(const BodyAccess&, const Params& p, const Vec3& lp, Kinematics& K) {
    K.A = ToMat3(p.referenceRotation);
    K.pos = ToVec3(p.referencePosition) + K.A * lp;
    K.vel = MakeVec3(0, 0, 0);
    K.omega = K.omegaLocal = MakeVec3(0, 0, 0);
    K.n = 0;
    K.firstODE2 = -1;
    ClearJacobians(K);
  }
  MBS_HD_FORCEINLINE static Vec3 ReferencePosition(const BodyAccess&, const Params& p, const Vec3& lp) {
    return ToVec3(p.referencePosition) + ToMat3(p.referenceRotation) * lp;
  }
  template <class V> void Fields(V& v) {
    v("referencePosition", referencePosition, Rule::Real);
    v("referenceRotation", referenceRotation);
  }
};

}  // namespace mbsweep
