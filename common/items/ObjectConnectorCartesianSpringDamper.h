/// @file ObjectConnectorCartesianSpringDamper.h
/// The item ObjectConnectorCartesianSpringDamper: its fields (Exudyn's names, defaults and rules), its typed parameters, its
/// force law and its outputs.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorCartesianSpringDamper, in Fields() order (its theta slots).
struct ObjectConnectorCartesianSpringDamperParams {
  Vector3D stiffness{}, damping{}, offset{};
};

/// Component-wise spring-damper in global x, y, z: f = diag(k)(dp - offset) + diag(d) dv.
struct ObjectConnectorCartesianSpringDamper : ObjectConnectorCartesianSpringDamperParams {
  using Params = ObjectConnectorCartesianSpringDamperParams;
  static constexpr const char* typeName = "ObjectConnectorCartesianSpringDamper";
  static constexpr const char* shortName = "CartesianSpringDamper";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::PositionConnector;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Distance, OutputVariableType::Displacement,
                                                   OutputVariableType::Velocity, OutputVariableType::Force};
  MBS_HD_INLINE static void Evaluate(const Params& p, PositionConnectorState& s, bool active) {
    const Vec3 dv = s.k1.vel - s.k0.vel;
    s.displacement = (s.k1.pos - s.k0.pos) - ToVec3(p.offset);
    s.velocity = dv;
    s.distance = Norm(s.displacement);
    const Vec3 f = MakeVec3(p.stiffness[0] * s.displacement[0] + p.damping[0] * dv[0],
                            p.stiffness[1] * s.displacement[1] + p.damping[1] * dv[1],
                            p.stiffness[2] * s.displacement[2] + p.damping[2] * dv[2]);
    if (active) s.force = f;
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("offset", offset, Rule::Real);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
