/// @file ObjectJointRevoluteZ.h
/// The item ObjectJointRevoluteZ: its fields (Exudyn's names, defaults and rules), its typed
/// parameters and its equations with their Jacobian.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Revolute joint about the z-axis of the joint frame J0 = A0 rotationMarker0 (5 equations):
/// p1 - p0 = 0 (global) and z0 . x1 = z0 . y1 = 0 with z0 the J0 z-axis and x1, y1 the axes of
/// J1 = A1 rotationMarker1.
struct ObjectJointRevoluteZ : JointFrameParams {
  using Params = JointFrameParams;
  static constexpr const char* typeName = "ObjectJointRevoluteZ";
  static constexpr const char* shortName = "RevoluteJointZ";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  static constexpr const auto& outputs = kJointFrameOutputs;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  /// Rows 0..2: p1 - p0 (global); rows 3, 4: z0.x1, z0.y1 (velocity level: their rates).
  MBS_HD_FORCEINLINE static void Equations(const ConstraintAccess& c, const Params& p, ConstraintEval& e) {
    const JointMarkers m(c);
    const JointFrames J = MakeJointFrames(m, ToMat3(p.rotationMarker0), ToMat3(p.rotationMarker1), c.index2);
    const int kLocked[3] = {1, 1, 1};
    JointTranslationRows(e, J, m, kLocked);
    AxisDotRow(e, 3, J, 2, 0);
    AxisDotRow(e, 4, J, 2, 1);
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
