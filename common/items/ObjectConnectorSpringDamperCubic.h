/// @file ObjectConnectorSpringDamperCubic.h
/// The item ObjectConnectorSpringDamperCubic: a spring-damper with a progressive (cubic)
/// spring between two position markers, the hardening spring of a Duffing oscillator. Its
/// whole definition is this file (docs/adding-an-item.md).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorSpringDamperCubic, in Fields() order (its theta slots).
struct ObjectConnectorSpringDamperCubicParams {
  Real referenceLength = 0;  ///< L0 in m
  Real stiffness = 0;        ///< k in N/m
  Real cubicStiffness = 0;   ///< k3 in N/m^3
  Real damping = 0;          ///< d in N s/m
};

/// Spring-damper with a cubic spring between two position markers: with the distance L, its
/// rate L_t and u = L - L0, the scalar force f = k u + k3 u^3 + d L_t acts along the unit
/// vector from marker 0 to marker 1 (a stretched spring pulls the markers together).
struct ObjectConnectorSpringDamperCubic : ObjectConnectorSpringDamperCubicParams {
  using Params = ObjectConnectorSpringDamperCubicParams;
  static constexpr const char* typeName = "ObjectConnectorSpringDamperCubic";
  static constexpr ObjectCategory category = ObjectCategory::PositionConnector;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Distance, OutputVariableType::Displacement,
                                                   OutputVariableType::Velocity, OutputVariableType::Force,
                                                   OutputVariableType::ForceLocal};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;

  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("referenceLength", referenceLength, Rule::UReal);
    v("stiffness", stiffness, Rule::UReal);
    v("cubicStiffness", cubicStiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("activeConnector", activeConnector);
  }

  MBS_HD_INLINE static void Evaluate(const Params& p, PositionConnectorState& s, bool active) {
    const Vec3 dp = s.k1.pos - s.k0.pos, dv = s.k1.vel - s.k0.vel;
    const Real len = Norm(dp);
    const Vec3 e = len > 0 ? (1. / len) * dp : MakeVec3(1, 0, 0);
    const Real u = len - p.referenceLength;
    s.distance = len;
    s.displacement = dp;
    s.velocity = dv;
    s.scalarForce = p.stiffness * u + p.cubicStiffness * u * u * u + p.damping * Dot(e, dv);
    if (active) s.force = s.scalarForce * e;
  }
};

}  // namespace mbsweep
