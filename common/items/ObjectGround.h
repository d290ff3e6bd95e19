/// @file ObjectGround.h
/// The item ObjectGround: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Ground body: fixed position and orientation; markers on it have no coordinates.
struct ObjectGround {
  static constexpr const char* typeName = "ObjectGround";
  static constexpr ObjectCategory category = ObjectCategory::Ground;
  std::string name;
  Vector3D referencePosition{};
  Matrix3D referenceRotation{};
  template <class V> void Fields(V& v) {
    v("referencePosition", referencePosition, Rule::Real);
    v("referenceRotation", referenceRotation);
  }
};

}  // namespace mbsweep
