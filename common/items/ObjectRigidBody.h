/// @file ObjectRigidBody.h
/// The item ObjectRigidBody: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// 3D rigid body on a NodeRigidBodyEP or NodeRigidBodyRxyz. physicsInertia is the inertia
/// tensor about the reference point (the node) in body coordinates, given as
/// [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]; physicsCenterOfMass is the local position of the centre of
/// mass. The mass matrix depends on the rotation parameters.
struct ObjectRigidBody {
  static constexpr const char* typeName = "ObjectRigidBody";
  static constexpr ObjectCategory category = ObjectCategory::Body;
  std::string name;
  Real physicsMass = 0;
  Vector6D physicsInertia{};
  Vector3D physicsCenterOfMass{};
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) {
    v("physicsMass", physicsMass, Rule::UReal);
    v("physicsInertia", physicsInertia, Rule::Real);
    v("physicsCenterOfMass", physicsCenterOfMass, Rule::Real);
    v("nodeNumber", nodeNumber);
  }
};

}  // namespace mbsweep
