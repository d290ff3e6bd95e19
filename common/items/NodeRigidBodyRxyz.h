/// @file NodeRigidBodyRxyz.h
/// The item NodeRigidBodyRxyz: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// 3D rigid-body node with Tait-Bryan xyz angles: 6 ODE2 coordinates [x, y, z, phi0, phi1, phi2],
/// A = Rx(phi0) Ry(phi1) Rz(phi2); singular at phi1 = +-pi/2.
struct NodeRigidBodyRxyz {
  static constexpr const char* typeName = "NodeRigidBodyRxyz";
  static constexpr const char* shortName = "RigidRxyz";  ///< Exudyn's short name
  std::string name;
  Vector6D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};

}  // namespace mbsweep
