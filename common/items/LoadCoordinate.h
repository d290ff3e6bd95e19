/// @file LoadCoordinate.h
/// The item LoadCoordinate: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Generalized force on one coordinate: load * timeFunction(t), or the value of
/// loadUserFunction, an expression of t and load (Exudyn's loadUserFunction(mbs, t, load)).
struct LoadCoordinate {
  static constexpr const char* typeName = "LoadCoordinate";
  std::string name;
  MarkerIndex markerNumber;
  Real load = 0;
  TimeFunction timeFunction;
  UserFunction loadUserFunction;  ///< the load as a function of t (then no timeFunction)
  static constexpr const char* loadUserFunctionArgs = "t, load";
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("load", load, Rule::Real);
    v("timeFunction", timeFunction);
    v("loadUserFunction", loadUserFunction, loadUserFunctionArgs);
  }
};

}  // namespace mbsweep
