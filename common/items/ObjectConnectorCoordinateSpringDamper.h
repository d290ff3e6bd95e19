/// @file ObjectConnectorCoordinateSpringDamper.h
/// The item ObjectConnectorCoordinateSpringDamper: its fields (Exudyn's names, defaults and
/// rules), its typed parameters, its force law and its outputs.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectConnectorCoordinateSpringDamper, in Fields() order (its theta slots).
struct ObjectConnectorCoordinateSpringDamperParams {
  Real stiffness = 0, damping = 0, offset = 0;
};

/// Spring-damper between two coordinates: f = k(q1 - q0 - offset) + d(v1 - v0).
struct ObjectConnectorCoordinateSpringDamper : ObjectConnectorCoordinateSpringDamperParams {
  using Params = ObjectConnectorCoordinateSpringDamperParams;
  static constexpr const char* typeName = "ObjectConnectorCoordinateSpringDamper";
  static constexpr const char* shortName = "CoordinateSpringDamper";  ///< Exudyn's short name
  static constexpr ObjectCategory category = ObjectCategory::CoordinateConnector;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Displacement, OutputVariableType::Velocity,
                                                   OutputVariableType::Force};
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  /// The force for the coordinate difference dq = q1 - q0 and velocity difference dv.
  MBS_HD_INLINE static Real Force(const Params& p, Real dq, Real dv) {
    return p.stiffness * (dq - p.offset) + p.damping * dv;
  }
  /// The force's derivatives with respect to dq and dv (constant: stiffness, damping).
  MBS_HD_INLINE static void ForceDerivatives(const Params& p, Real& dFdq, Real& dFdv) {
    dFdq = p.stiffness;
    dFdv = p.damping;
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
