/// @file device_layout.h
/// Device copy of a compiled layout (shared by the CUDA evaluators).
#pragma once

#include <vector>

#include "common/layout.h"
#include "cuda/device_buffer.h"

namespace mbsweep::cuda {

/// The layout's arrays in one device allocation, and a view pointing into it.
struct DeviceLayout {
  DeviceBuffer<int> data;
  LayoutView view;
  void Upload(const Layout& layout, cudaStream_t s) {
    // ItemRec is three ints: concatenate records and the integer pool
    std::vector<int> h;
    auto append = [&h](const std::vector<ItemRec>& v) {
      const size_t off = h.size();
      for (const ItemRec& r : v) h.insert(h.end(), {r.kind, r.ints, r.theta});
      return off;
    };
    const size_t oNode = append(layout.nodes), oObj = append(layout.objects), oMark = append(layout.markers),
                 oLoad = append(layout.loads), oSens = append(layout.sensors);
    const size_t oInts = h.size();
    h.insert(h.end(), layout.ints.begin(), layout.ints.end());
    if (h.empty()) h.push_back(0);
    data.CopyFromHost(h.data(), h.size(), s);
    view = layout.View();
    int* base = data.get();
    view.node = reinterpret_cast<const ItemRec*>(base + oNode);
    view.object = reinterpret_cast<const ItemRec*>(base + oObj);
    view.marker = reinterpret_cast<const ItemRec*>(base + oMark);
    view.load = reinterpret_cast<const ItemRec*>(base + oLoad);
    view.sensor = reinterpret_cast<const ItemRec*>(base + oSens);
    view.ints = base + oInts;
  }
};
static_assert(sizeof(ItemRec) == 3 * sizeof(int), "ItemRec must be three packed ints");

}  // namespace mbsweep::cuda
