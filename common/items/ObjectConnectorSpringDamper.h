/// @file ObjectConnectorSpringDamper.h
/// The item ObjectConnectorSpringDamper: its fields (Exudyn's names, defaults and rules), its typed parameters, its
/// force law and its outputs.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorSpringDamper, in Fields() order (its theta slots).
struct ObjectConnectorSpringDamperParams {
  Real referenceLength = 0, stiffness = 0, damping = 0, force = 0, velocityOffset = 0;
};

/// Spring-damper between two position markers:
/// f = k(L - L0) + d(L_t - velocityOffset) + force, along the unit vector.
struct ObjectConnectorSpringDamper : ObjectConnectorSpringDamperParams {
  using Params = ObjectConnectorSpringDamperParams;
  static constexpr const char* typeName = "ObjectConnectorSpringDamper";
  static constexpr const char* shortName = "SpringDamper";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::PositionConnector;
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Distance, OutputVariableType::Displacement,
                                                   OutputVariableType::Velocity, OutputVariableType::Force,
                                                   OutputVariableType::ForceLocal};
  MBS_HD_INLINE static void Evaluate(const Params& p, PositionConnectorState& s, bool active) {
    const Vec3 dp = s.k1.pos - s.k0.pos, dv = s.k1.vel - s.k0.vel;
    const Real len = Norm(dp);
    const Vec3 u = len > 0 ? (1. / len) * dp : MakeVec3(1, 0, 0);
    s.distance = len;
    s.displacement = dp;
    s.velocity = dv;
    s.scalarForce = p.stiffness * (len - p.referenceLength) + p.damping * (Dot(u, dv) - p.velocityOffset) + p.force;
    if (active) s.force = s.scalarForce * u;
  }
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("referenceLength", referenceLength, Rule::UReal);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("force", force, Rule::Real);
    v("velocityOffset", velocityOffset, Rule::Real);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
