/// @file MarkerNodeRigid.h
/// The item MarkerNodeRigid: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Position and orientation marker at a node.
struct MarkerNodeRigid {
  static constexpr const char* typeName = "MarkerNodeRigid";
  std::string name;
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) { v("nodeNumber", nodeNumber); }
};

}  // namespace mbsweep
