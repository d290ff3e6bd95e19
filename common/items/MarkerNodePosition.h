/// @file MarkerNodePosition.h
/// The item MarkerNodePosition: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Position marker at a node.
struct MarkerNodePosition {
  static constexpr const char* typeName = "MarkerNodePosition";
  std::string name;
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) { v("nodeNumber", nodeNumber); }
};

}  // namespace mbsweep
