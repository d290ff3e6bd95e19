/// @file SensorMarker.h
/// The item SensorMarker: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

struct SensorMarker : SensorCommon {
  static constexpr const char* typeName = "SensorMarker";
  std::string name;
  MarkerIndex markerNumber;
  OutputVariableType outputVariableType = OutputVariableType::_None;
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("outputVariableType", outputVariableType);
    CommonFields(v);
  }
};

}  // namespace mbsweep
