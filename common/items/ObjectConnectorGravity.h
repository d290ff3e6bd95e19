/// @file ObjectConnectorGravity.h
/// The item ObjectConnectorGravity: its fields (Exudyn's names, defaults and rules), its typed parameters, its
/// force law and its outputs.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorGravity, in Fields() order (its theta slots).
struct ObjectConnectorGravityParams {
  Real gravitationalConstant = 6.67430e-11, mass0 = 0, mass1 = 0, minDistanceRegularization = 0;
};

/// Newtonian gravitational attraction between two position markers.
struct ObjectConnectorGravity : ObjectConnectorGravityParams {
  using Params = ObjectConnectorGravityParams;
  static constexpr const char* typeName = "ObjectConnectorGravity";
  static constexpr const char* shortName = "ConnectorGravity";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::PositionConnector;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Distance, OutputVariableType::Displacement,
                                                   OutputVariableType::Force};
  MBS_HD_INLINE static void Evaluate(const Params& p, PositionConnectorState& s, bool active) {
    const Vec3 dp = s.k1.pos - s.k0.pos;
    const Real len = Norm(dp);
    const Real d = p.minDistanceRegularization;
    const Real reg = len < d ? (d - len) * (d - len) : 0;  // regularized below the minimum distance
    s.distance = len;
    s.displacement = dp;
    s.velocity = s.k1.vel - s.k0.vel;
    s.scalarForce = p.gravitationalConstant * p.mass0 * p.mass1 / (len * len + reg);
    if (active && len > 0) s.force = (s.scalarForce / len) * dp;
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("gravitationalConstant", gravitationalConstant, Rule::Real);
    v("mass0", mass0, Rule::UReal);
    v("mass1", mass1, Rule::UReal);
    v("minDistanceRegularization", minDistanceRegularization, Rule::UReal);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
