/// @file ObjectConnectorSpringDamper.h
/// The item ObjectConnectorSpringDamper: its fields (Exudyn's names, defaults and rules).
#pragma once

#include "common/item_types.h"

namespace mbsweep {

/// Spring-damper between two position markers:
/// f = k(L - L0) + d(L_t - velocityOffset) + force, along the unit vector.
struct ObjectConnectorSpringDamper {
  static constexpr const char* typeName = "ObjectConnectorSpringDamper";
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real referenceLength = 0, stiffness = 0, damping = 0, force = 0, velocityOffset = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("referenceLength", referenceLength, Rule::UReal);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("force", force, Rule::Real);
    v("velocityOffset", velocityOffset, Rule::Real);
    v("activeConnector", activeConnector);
  }
};

}  // namespace mbsweep
