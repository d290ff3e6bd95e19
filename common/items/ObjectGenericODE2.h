/// @file ObjectGenericODE2.h
/// The item ObjectGenericODE2: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// Linear second-order system M q_tt + D q_t + K q = forceVector on the coordinates of
/// nodeNumbers (q without reference). Empty matrices mean zero.
struct ObjectGenericODE2 {
  static constexpr const char* typeName = "ObjectGenericODE2";
  static constexpr ObjectCategory category = ObjectCategory::Generic;
  static constexpr OutputVariableType outputs[] = {OutputVariableType::Coordinates, OutputVariableType::Coordinates_t,
                                                   OutputVariableType::Coordinates_tt};
  std::string name;
  std::vector<NodeIndex> nodeNumbers;
  Matrix massMatrix, stiffnessMatrix, dampingMatrix;
  Vector forceVector;
  template <class V> void Fields(V& v) {
    v("nodeNumbers", nodeNumbers);
    v("massMatrix", massMatrix);
    v("stiffnessMatrix", stiffnessMatrix);
    v("dampingMatrix", dampingMatrix);
    v("forceVector", forceVector, Rule::Real);
  }
};

}  // namespace mbsweep
