/// @file item_dispatch.h
/// Host/device dispatch from an object kind to its item's traits and physics, generated from
/// the item list (mbsweep/item_list.h): one switch per hook, one case per item. An item of a
/// category that lacks the category's hook is refused at compile time.
#pragma once

#include "common/item_physics.h"
#include "mbsweep/item_headers.h"

namespace mbsweep {

/// The category an object kind declares (ObjectCategory).
MBS_HD_INLINE ObjectCategory CategoryOf(ObjectKind k) {
  switch (k) {
#define MBS_CATEGORY_CASE(Type, Kind) \
  case ObjectKind::Kind: return Type::category;
    MBS_OBJECT_ITEMS(MBS_CATEGORY_CASE)
#undef MBS_CATEGORY_CASE
    default: return ObjectCategory::Ground;
  }
}

namespace detail {
template <class T, class = void> struct HasPositionLaw : std::false_type {};
template <class T>
struct HasPositionLaw<T, std::void_t<decltype(T::Evaluate(std::declval<const typename T::Params&>(),
                                                          std::declval<PositionConnectorState&>(), true)),
                                     decltype(T::outputs)>> : std::true_type {};

template <class T> MBS_HD_INLINE void EvaluatePositionLaw(const Real* p, PositionConnectorState& s, bool active) {
  if constexpr (T::category == ObjectCategory::PositionConnector) {
    static_assert(HasPositionLaw<T>::value,
                  "a PositionConnector item declares Params, outputs and Evaluate (common/item_physics.h)");
    T::Evaluate(ParamsAt<T>(p), s, active);
  }
}
}  // namespace detail

/// Evaluates the force law of position connector `kind` with parameters p (its theta slots).
MBS_HD_INLINE void EvaluatePositionLaw(ObjectKind kind, const Real* p, PositionConnectorState& s, bool active) {
  switch (kind) {
#define MBS_POSITION_LAW_CASE(Type, Kind) \
  case ObjectKind::Kind: detail::EvaluatePositionLaw<Type>(p, s, active); break;
    MBS_OBJECT_ITEMS(MBS_POSITION_LAW_CASE)
#undef MBS_POSITION_LAW_CASE
    default: break;
  }
}

}  // namespace mbsweep
