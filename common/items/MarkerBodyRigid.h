/// @file MarkerBodyRigid.h
/// The item MarkerBodyRigid: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Position and orientation marker at a local position of a body.
struct MarkerBodyRigid {
  static constexpr const char* typeName = "MarkerBodyRigid";
  std::string name;
  ObjectIndex bodyNumber;
  Vector3D localPosition{};
  template <class V> void Fields(V& v) {
    v("bodyNumber", bodyNumber);
    v("localPosition", localPosition, Rule::Real);
  }
};

}  // namespace mbsweep
