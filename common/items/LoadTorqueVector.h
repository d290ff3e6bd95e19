/// @file LoadTorqueVector.h
/// The item LoadTorqueVector: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Torque vector on an orientation marker (global frame, or body frame if bodyFixed).
struct LoadTorqueVector {
  static constexpr const char* typeName = "LoadTorqueVector";
  static constexpr const char* shortName = "Torque";  ///< Exudyn's short name
  std::string name;
  MarkerIndex markerNumber;
  Vector3D loadVector{};
  bool bodyFixed = false;
  TimeFunction timeFunction;
  UserFunction loadVectorUserFunction;  ///< the load vector as a function of t (then no timeFunction)
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("loadVector", loadVector, Rule::Real);
    v("bodyFixed", bodyFixed);
    v("timeFunction", timeFunction);
    v("loadVectorUserFunction", loadVectorUserFunction, kLoadVectorUserFunctionArgs, 3);
  }
};

}  // namespace mbsweep
