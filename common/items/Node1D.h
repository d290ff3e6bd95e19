/// @file Node1D.h
/// The item Node1D: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// One ODE2 coordinate (used by ObjectMass1D and ObjectRotationalMass1D).
struct Node1D {
  static constexpr const char* typeName = "Node1D";
  std::string name;
  Vector1D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};

}  // namespace mbsweep
