/// @file ObjectJointSpherical.h
/// The item ObjectJointSpherical: its fields (Exudyn's names, defaults and rules) and its
/// equations with their Jacobian.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Spherical joint: the global position components of the two markers given by
/// constrainedAxes coincide (3 equations; an unconstrained axis has the equation lambda = 0).
struct ObjectJointSpherical {
  static constexpr const char* typeName = "ObjectJointSpherical";
  static constexpr const char* shortName = "SphericalJoint";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Position, OutputVariableType::Velocity,
                                                   OutputVariableType::Displacement, OutputVariableType::Force,
                                                   OutputVariableType::ConstraintEquation};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  std::array<int, 3> constrainedAxes{1, 1, 1};
  bool activeConnector = true;
  /// The global components of p1 - p0 (velocity level: v1 - v0) of the constrained axes
  /// (extra[3..5]); a free axis has the equation lambda = 0.
  MBS_HD_FORCEINLINE static void Equations(const ConstraintAccess& c, const Real*, ConstraintEval& e) {
    const JointMarkers m(c);
    for (int i = 0; i < 3; ++i) {
      if (!c.o.extra[3 + i]) {
        e.lambdaRows |= 1 << i;
        continue;
      }
      e.C[i] = c.index2 ? m.dv[i] : m.dp[i];
      AddRowGlobalPos(e, i, m.k0, m.k1, i);
    }
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("constrainedAxes", constrainedAxes);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
