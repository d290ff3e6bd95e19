/// @file LoadCoordinate.h
/// The item LoadCoordinate: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Generalized force on one coordinate: load * timeFunction(t).
struct LoadCoordinate {
  static constexpr const char* typeName = "LoadCoordinate";
  std::string name;
  MarkerIndex markerNumber;
  Real load = 0;
  TimeFunction timeFunction;
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("load", load, Rule::Real);
    v("timeFunction", timeFunction);
  }
};

}  // namespace mbsweep
