/// @file ObjectJointPrismaticX.h
/// The item ObjectJointPrismaticX: its fields (Exudyn's names, defaults and rules), its typed
/// parameters and its equations with their Jacobian.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Prismatic joint along the x-axis of the joint frame J0 = A0 rotationMarker0 (5 equations):
/// the J0 y and z components of p1 - p0 vanish, and z0 . y1 = z0 . x1 = x0 . y1 = 0 (J0 and
/// J1 = A1 rotationMarker1 keep their relative orientation).
struct ObjectJointPrismaticX : JointFrameParams {
  using Params = JointFrameParams;
  static constexpr const char* typeName = "ObjectJointPrismaticX";
  static constexpr const char* shortName = "PrismaticJointX";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  static constexpr const auto& outputs = kJointFrameOutputs;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  /// Rows 0, 1: J0 y and z components of p1 - p0 (velocity level with the axes' rates); rows
  /// 2..4: z0.y1, z0.x1, x0.y1.
  MBS_HD_FORCEINLINE static void Equations(const ConstraintAccess& c, const Params& p, ConstraintEval& e) {
    const JointMarkers m(c);
    const JointFrames J = MakeJointFrames(m, ToMat3(p.rotationMarker0), ToMat3(p.rotationMarker1), c.index2);
    LocalPositionRow(e, 0, J, 1, m.dp, m.dv, true);
    LocalPositionRow(e, 1, J, 2, m.dp, m.dv, true);
    const int kLocked[3] = {1, 1, 1};
    JointRotationRows(e, 2, J, kLocked);
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
