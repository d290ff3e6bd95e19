/// @file NodeRigidBodyEP.h
/// The item NodeRigidBodyEP: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// 3D rigid-body node with Euler parameters: 7 ODE2 coordinates [x, y, z, e0, e1, e2, e3]
/// (displacements and Euler-parameter increments relative to referenceCoordinates). With
/// addConstraintEquation (default) the node adds one algebraic equation, the Euler-parameter
/// norm p^T p - 1 = 0 (p = reference + current rotation parameters), and one multiplier.
struct NodeRigidBodyEP {
  static constexpr const char* typeName = "NodeRigidBodyEP";
  static constexpr const char* shortName = "RigidEP";  ///< Exudyn's short name
  std::string name;
  Vector7D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  bool addConstraintEquation = true;
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
    v("addConstraintEquation", addConstraintEquation);
  }
};

}  // namespace mbsweep
