/// @file ObjectRigidBody2D.h
/// The item ObjectRigidBody2D: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Planar rigid body on a NodeRigidBody2D; physicsInertia is about the reference point,
/// physicsCenterOfMass is the local position of the centre of mass.
struct ObjectRigidBody2D {
  static constexpr const char* typeName = "ObjectRigidBody2D";
  static constexpr ObjectCategory category = ObjectCategory::Body;
  std::string name;
  Real physicsMass = 0;
  Real physicsInertia = 0;
  Vector2D physicsCenterOfMass{};
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) {
    v("physicsMass", physicsMass, Rule::UReal);
    v("physicsInertia", physicsInertia, Rule::UReal);
    v("physicsCenterOfMass", physicsCenterOfMass, Rule::Real);
    v("nodeNumber", nodeNumber);
  }
};

}  // namespace mbsweep
