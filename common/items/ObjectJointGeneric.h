/// @file ObjectJointGeneric.h
/// The item ObjectJointGeneric: its fields (Exudyn's names, defaults and rules), its typed
/// parameters and its equations with their Jacobian.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Generic joint with 6 equations, one per axis of constrainedAxes = [x, y, z, rx, ry, rz]
/// (1: locked, 0: free; a free axis has the equation lambda = 0). Translations: p1 - p0 in
/// global coordinates if all three are locked, otherwise its J0 components. Rotations (J0, J1
/// as for ObjectJointRevoluteZ): all locked: z0.y1, z0.x1, x0.y1; one free axis f (others
/// l1 < l2): f0.l1_1 = f0.l2_1 = 0 in rows l1, l2; one locked axis l (free f1 < f2):
/// f1_0 . f2_1 = 0 in row l.
struct ObjectJointGeneric : JointFrameParams {
  using Params = JointFrameParams;
  static constexpr const char* typeName = "ObjectJointGeneric";
  static constexpr const char* shortName = "GenericJoint";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  static constexpr const auto& outputs = kJointFrameOutputs;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  std::array<int, 6> constrainedAxes{1, 1, 1, 1, 1, 1};
  bool activeConnector = true;
  /// Translation rows 0..2 and rotation rows 3..5 for constrainedAxes (extra[3..8]).
  MBS_HD_FORCEINLINE static void Equations(const ConstraintAccess& c, const Params& p, ConstraintEval& e) {
    const JointMarkers m(c);
    const JointFrames J = MakeJointFrames(m, ToMat3(p.rotationMarker0), ToMat3(p.rotationMarker1), c.index2);
    const int* lockedAxes = c.o.extra + 3;
    JointTranslationRows(e, J, m, lockedAxes);
    JointRotationRows(e, 3, J, lockedAxes + 3);
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("constrainedAxes", constrainedAxes);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
