/// @file ObjectGenericODE1.h
/// The item ObjectGenericODE1: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Linear first-order system y_t = systemMatrix*y + rhsVector on ODE1 nodes.
struct ObjectGenericODE1 {
  static constexpr const char* typeName = "ObjectGenericODE1";
  static constexpr ObjectCategory category = ObjectCategory::Generic;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Coordinates, OutputVariableType::Coordinates_t};
  std::string name;
  std::vector<NodeIndex> nodeNumbers;
  Matrix systemMatrix;
  Vector rhsVector;
  template <class V> void Fields(V& v) {
    v("nodeNumbers", nodeNumbers);
    v("systemMatrix", systemMatrix);
    v("rhsVector", rhsVector, Rule::Real);
  }
};

}  // namespace mbsweep
