/// @file NodeGenericODE2.h
/// The item NodeGenericODE2: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// n generic ODE2 coordinates; vectors must have length numberOfODE2Coordinates.
struct NodeGenericODE2 {
  static constexpr const char* typeName = "NodeGenericODE2";
  std::string name;
  Vector referenceCoordinates, initialCoordinates, initialCoordinates_t;
  int numberOfODE2Coordinates = 0;
  template <class V> void Fields(V& v) {
    v("numberOfODE2Coordinates", numberOfODE2Coordinates, Rule::PInt);
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialCoordinates_t", initialCoordinates_t, Rule::Real);
  }
};

}  // namespace mbsweep
