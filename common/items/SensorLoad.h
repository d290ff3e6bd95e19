/// @file SensorLoad.h
/// The item SensorLoad: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Records the current load vector (or scalar) of a load.
struct SensorLoad : SensorCommon {
  static constexpr const char* typeName = "SensorLoad";
  std::string name;
  LoadIndex loadNumber;
  template <class V> void Fields(V& v) {
    v("loadNumber", loadNumber);
    CommonFields(v);
  }
};

}  // namespace mbsweep
