/// @file items.h
/// The host-side item vocabulary: nodes, objects, markers, loads and sensors with Exudyn's
/// type names, field names and defaults. Each item lives in one file, common/items/<Name>.h,
/// and describes its fields once through `Fields(visitor)`; validation, compilation into
/// theta (with human-readable paths) and file readers all walk the same description.
///
/// The build generates the item list (mbsweep/item_list.h) from the files in common/items/:
/// the kinds (common/kinds.h), the variants below and the dispatch of the physics all come
/// from it, so adding an item is adding its file (docs/adding-an-item.md).
#pragma once

#include <utility>
#include <variant>

#include "common/item_dispatch.h"  // the items' hooks, and the kinematics that dispatch to them
#include "common/item_types.h"
#include "mbsweep/item_headers.h"

namespace mbsweep {

using NodeItem = std::variant<MBS_NODE_TYPES>;
using ObjectItem = std::variant<MBS_OBJECT_TYPES>;
using MarkerItem = std::variant<MBS_MARKER_TYPES>;
using LoadItem = std::variant<MBS_LOAD_TYPES>;
using SensorItem = std::variant<MBS_SENSOR_TYPES>;

namespace detail {
template <class Variant, class F, size_t... I>
void ForEachAlternative(F& f, const char* category, std::index_sequence<I...>) {
  (f(std::variant_alternative_t<I, Variant>{}, category), ...);
}
}  // namespace detail

/// Calls f(item, category) with a default item of every type, nodes first, then objects,
/// markers, loads and sensors ("node", "object", "marker", "load", "sensor").
template <class F> void ForEachItemType(F&& f) {
  detail::ForEachAlternative<NodeItem>(f, "node", std::make_index_sequence<std::variant_size_v<NodeItem>>());
  detail::ForEachAlternative<ObjectItem>(f, "object", std::make_index_sequence<std::variant_size_v<ObjectItem>>());
  detail::ForEachAlternative<MarkerItem>(f, "marker", std::make_index_sequence<std::variant_size_v<MarkerItem>>());
  detail::ForEachAlternative<LoadItem>(f, "load", std::make_index_sequence<std::variant_size_v<LoadItem>>());
  detail::ForEachAlternative<SensorItem>(f, "sensor", std::make_index_sequence<std::variant_size_v<SensorItem>>());
}

}  // namespace mbsweep
