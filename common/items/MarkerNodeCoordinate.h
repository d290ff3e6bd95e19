/// @file MarkerNodeCoordinate.h
/// The item MarkerNodeCoordinate: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// One coordinate of a node (ODE2, or ODE1 for NodeGenericODE1).
struct MarkerNodeCoordinate {
  static constexpr const char* typeName = "MarkerNodeCoordinate";
  std::string name;
  NodeIndex nodeNumber;
  int coordinate = 0;
  template <class V> void Fields(V& v) {
    v("nodeNumber", nodeNumber);
    v("coordinate", coordinate, Rule::UInt);
  }
};

}  // namespace mbsweep
