/// @file SensorNode.h
/// The item SensorNode: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

struct SensorNode : SensorCommon {
  static constexpr const char* typeName = "SensorNode";
  std::string name;
  NodeIndex nodeNumber;
  OutputVariableType outputVariableType = OutputVariableType::_None;
  template <class V> void Fields(V& v) {
    v("nodeNumber", nodeNumber);
    v("outputVariableType", outputVariableType);
    CommonFields(v);
  }
};

}  // namespace mbsweep
