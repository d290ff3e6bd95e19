/// @file ObjectConnectorDistance.h
/// The item ObjectConnectorDistance: its fields (Exudyn's names, defaults and rules), its
/// typed parameters and its equation with its Jacobian.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorDistance (its theta slots).
struct ObjectConnectorDistanceParams {
  Real distance = 0;
};

/// Distance constraint between two position markers: |p1 - p0| - distance = 0.
struct ObjectConnectorDistance : ObjectConnectorDistanceParams {
  using Params = ObjectConnectorDistanceParams;
  static constexpr const char* typeName = "ObjectConnectorDistance";
  static constexpr const char* shortName = "DistanceConstraint";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::Constraint;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Distance, OutputVariableType::Force,
                                                   OutputVariableType::ConstraintEquation};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  /// |p1 - p0| - distance (velocity level: u . (v1 - v0)), C_q = u^T [-Jpos0, Jpos1].
  MBS_HD_FORCEINLINE static void Equations(const ConstraintAccess& c, const Params& p, ConstraintEval& e) {
    const JointMarkers m(c);
    const Real len = Norm(m.dp);
    const Vec3 u = len > 0 ? (1. / len) * m.dp : MakeVec3(1, 0, 0);
    e.C[0] = c.index2 ? Dot(u, m.dv) : len - p.distance;
    AddRowPos(e, 0, m.k0, u, 0, -1);
    AddRowPos(e, 0, m.k1, u, m.k0.n, 1);
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("distance", distance, Rule::PReal);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
