/// @file NodeGenericODE1.h
/// The item NodeGenericODE1: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// n generic first-order (ODE1) coordinates.
struct NodeGenericODE1 {
  static constexpr const char* typeName = "NodeGenericODE1";
  std::string name;
  Vector referenceCoordinates, initialCoordinates;
  int numberOfODE1Coordinates = 0;
  template <class V> void Fields(V& v) {
    v("numberOfODE1Coordinates", numberOfODE1Coordinates, Rule::PInt);
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
  }
};

}  // namespace mbsweep
