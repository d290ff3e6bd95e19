/// @file SensorBody.h
/// The item SensorBody: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

struct SensorBody : SensorCommon {
  static constexpr const char* typeName = "SensorBody";
  std::string name;
  ObjectIndex bodyNumber;
  Vector3D localPosition{};
  OutputVariableType outputVariableType = OutputVariableType::_None;
  template <class V> void Fields(V& v) {
    v("bodyNumber", bodyNumber);
    v("localPosition", localPosition, Rule::Real);
    v("outputVariableType", outputVariableType);
    CommonFields(v);
  }
};

}  // namespace mbsweep
