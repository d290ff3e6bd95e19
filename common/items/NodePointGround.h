/// @file NodePointGround.h
/// The item NodePointGround: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Ground node without coordinates.
struct NodePointGround {
  static constexpr const char* typeName = "NodePointGround";
  static constexpr const char* shortName = "PointGround";  ///< Exudyn's short name
  std::string name;
  Vector3D referenceCoordinates{};
  template <class V> void Fields(V& v) { v("referenceCoordinates", referenceCoordinates, Rule::Real); }
};

}  // namespace mbsweep
