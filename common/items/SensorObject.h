/// @file SensorObject.h
/// The item SensorObject: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

struct SensorObject : SensorCommon {
  static constexpr const char* typeName = "SensorObject";
  std::string name;
  ObjectIndex objectNumber;
  OutputVariableType outputVariableType = OutputVariableType::_None;
  template <class V> void Fields(V& v) {
    v("objectNumber", objectNumber);
    v("outputVariableType", outputVariableType);
    CommonFields(v);
  }
};

}  // namespace mbsweep
