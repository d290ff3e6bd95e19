/// @file LoadMassProportional.h
/// The item LoadMassProportional: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Mass-proportional load (e.g. gravity [0,0,-9.81]) on a MarkerBodyMass.
struct LoadMassProportional {
  static constexpr const char* typeName = "LoadMassProportional";
  static constexpr const char* shortName = "Gravity";  ///< Exudyn's short name
  std::string name;
  MarkerIndex markerNumber;
  Vector3D loadVector{};
  TimeFunction timeFunction;
  UserFunction loadVectorUserFunction;  ///< the load vector as a function of t (then no timeFunction)
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("loadVector", loadVector, Rule::Real);
    v("timeFunction", timeFunction);
    v("loadVectorUserFunction", loadVectorUserFunction, kLoadVectorUserFunctionArgs, 3);
  }
};

}  // namespace mbsweep
