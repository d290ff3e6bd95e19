/// @file MarkerBodyMass.h
/// The item MarkerBodyMass: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Marker for mass-proportional loads (gravity) on a body.
struct MarkerBodyMass {
  static constexpr const char* typeName = "MarkerBodyMass";
  std::string name;
  ObjectIndex bodyNumber;
  template <class V> void Fields(V& v) { v("bodyNumber", bodyNumber); }
};

}  // namespace mbsweep
