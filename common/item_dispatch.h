/// @file item_dispatch.h
/// Host/device dispatch from an object kind to its item's traits and hooks (item_physics.h),
/// generated from the item list (mbsweep/item_list.h): one switch over the items
/// (DispatchObject), and one small hook struct per hook that calls the item's function if its
/// category has the hook. An item of a category that lacks a required hook is refused at
/// compile time, with the name of the hook.
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

/// Number of object items of category c.
constexpr int ObjectItemCount(ObjectCategory c) {
  int n = 0;
#define MBS_COUNT_CASE(Type, Kind) n += Type::category == c ? 1 : 0;
  MBS_OBJECT_ITEMS(MBS_COUNT_CASE)
#undef MBS_COUNT_CASE
  return n;
}

namespace detail {
template <class T, class = void> struct ParamsOf {
  MBS_HD_INLINE static const Real* At(const Real* p) { return p; }
};
template <class T> struct ParamsOf<T, std::void_t<typename T::Params>> {
  MBS_HD_INLINE static const typename T::Params& At(const Real* p) { return ParamsAt<T>(p); }
};
}  // namespace detail

/// An item's parameters as its hooks take them: its Params read in place from its theta slots
/// p, or p itself for an item without Params.
template <class T> MBS_HD_INLINE decltype(auto) ItemParams(const Real* p) { return detail::ParamsOf<T>::At(p); }

/// Calls Hook::Call<Item>(args...) for the item of kind k and returns its result; false for a
/// kind outside the item list. Hook::Call returns false where the item has no such hook.
template <class Hook, class... Args> MBS_HD_FORCEINLINE bool DispatchObject(ObjectKind k, Args&&... args) {
  switch (k) {
#define MBS_DISPATCH_CASE(Type, Kind) \
  case ObjectKind::Kind: return Hook::template Call<Type>(args...);
    MBS_OBJECT_ITEMS(MBS_DISPATCH_CASE)
#undef MBS_DISPATCH_CASE
    default: return false;
  }
}

// Detection of the hooks (item_physics.h lists them).
#define MBS_DEFINE_HOOK_TEST(Test, Expression)                       \
  template <class T, class = void> struct Test : std::false_type {}; \
  template <class T> struct Test<T, std::void_t<decltype(Expression)>> : std::true_type {}
namespace detail {
template <class T> using ParamsArg = decltype(ItemParams<T>(nullptr));
MBS_DEFINE_HOOK_TEST(HasPositionLaw,
                     (T::Evaluate(std::declval<ParamsArg<T>>(), std::declval<PositionConnectorState&>(), true),
                      T::outputs));
MBS_DEFINE_HOOK_TEST(HasRigidConnectorLaw,
                     (T::Evaluate(std::declval<ParamsArg<T>>(), std::declval<RigidConnectorState&>(), true),
                      T::LocalRHS(std::declval<const RigidConnectorState&>(), std::declval<Real*>())));
MBS_DEFINE_HOOK_TEST(HasEquations, T::Equations(std::declval<const ConstraintAccess&>(), std::declval<ParamsArg<T>>(),
                                                std::declval<ConstraintEval&>()));
MBS_DEFINE_HOOK_TEST(HasResidual, T::Residual(std::declval<const ConstraintAccess&>(), std::declval<ParamsArg<T>>(),
                                              std::declval<const Real*>(), std::declval<AngleCache&>(),
                                              std::declval<Real*>(), std::declval<Real*>()));
MBS_DEFINE_HOOK_TEST(HasPointKinematics,
                     (T::PointKinematics(std::declval<const BodyAccess&>(), std::declval<ParamsArg<T>>(),
                                         std::declval<const Vec3&>(), std::declval<Kinematics&>()),
                      T::ReferencePosition(std::declval<const BodyAccess&>(), std::declval<ParamsArg<T>>(),
                                           std::declval<const Vec3&>())));
MBS_DEFINE_HOOK_TEST(HasMassAndCenter, T::MassAndCenter(std::declval<ParamsArg<T>>(), std::declval<Vec3&>()));
}  // namespace detail
#undef MBS_DEFINE_HOOK_TEST

/// Hook: the force law of a position connector (item_physics.h).
struct PositionLawHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call(const Real* p, PositionConnectorState& s, bool active) {
    if constexpr (T::category == ObjectCategory::PositionConnector) {
      static_assert(detail::HasPositionLaw<T>::value, "a PositionConnector item declares outputs and Evaluate");
      T::Evaluate(ItemParams<T>(p), s, active);
      return true;
    }
    return false;
  }
};

/// Hook: the law of a rigid connector.
struct RigidConnectorLawHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call(const Real* p, RigidConnectorState& s, bool active) {
    if constexpr (T::category == ObjectCategory::RigidConnector) {
      static_assert(detail::HasRigidConnectorLaw<T>::value, "a RigidConnector item declares Evaluate and LocalRHS");
      T::Evaluate(ItemParams<T>(p), s, active);
      return true;
    }
    return false;
  }
};

/// Hook: the generalized forces of an (active) rigid connector on its markers' coordinates.
struct RigidConnectorRHSHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call(const RigidConnectorState& s, Real* fLoc) {
    if constexpr (T::category == ObjectCategory::RigidConnector) {
      T::LocalRHS(s, fLoc);
      return true;
    }
    return false;
  }
};

/// Hook: a constraint's equations and their Jacobian.
struct ConstraintEquationsHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call(const ConstraintAccess& c, const Real* p, ConstraintEval& e) {
    if constexpr (T::category == ObjectCategory::Constraint) {
      static_assert(detail::HasEquations<T>::value, "a Constraint item declares Equations");
      T::Equations(c, ItemParams<T>(p), e);
      return true;
    }
    return false;
  }
};

/// Hook: the kinematics of a point attached to a body.
struct PointKinematicsHook {
  template <class T>
  MBS_HD_FORCEINLINE static bool Call(const BodyAccess& b, const Real* p, const Vec3& lp, Kinematics& K) {
    if constexpr (IsBodyCategory(T::category)) {
      static_assert(detail::HasPointKinematics<T>::value, "a body item declares PointKinematics and ReferencePosition");
      T::PointKinematics(b, ItemParams<T>(p), lp, K);
      return true;
    }
    return false;
  }
};

/// Hook: the position of a point attached to a body at q = 0.
struct ReferencePositionHook {
  template <class T>
  MBS_HD_FORCEINLINE static bool Call(const BodyAccess& b, const Real* p, const Vec3& lp, Vec3& pos) {
    if constexpr (IsBodyCategory(T::category)) {
      pos = T::ReferencePosition(b, ItemParams<T>(p), lp);
      return true;
    }
    return false;
  }
};

/// Hook: a body's mass and local centre of mass (bodies with mass).
struct MassAndCenterHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call(const Real* p, Real& mass, Vec3& com) {
    if constexpr (detail::HasMassAndCenter<T>::value) {
      mass = T::MassAndCenter(ItemParams<T>(p), com);
      return true;
    }
    return false;
  }
};

namespace detail {
template <class T> MBS_HD_FORCEINLINE bool HasResidualFor(ObjectKind kind, ObjectKind itemKind) {
  if constexpr (HasResidual<T>::value) return kind == itemKind;
  else return false;
}
/// T's Residual for object obj; its record is read here, after the kind test, so that each
/// item's fast path reads only the fields it uses.
template <class T>
MBS_HD_FORCEINLINE bool Residual(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                 bool index2, int obj, const Real* lambda, AngleCache& angles, Real* f, Real* ae) {
  if constexpr (HasResidual<T>::value) {
    const ConstraintAccess c{L, theta, t, q, v, GetObjectRecord(L, obj), index2};
    return T::Residual(c, ItemParams<T>(theta + L.object[obj].theta), lambda, angles, f, ae);
  } else {
    return false;
  }
}
}  // namespace detail

/// The residual of constraint object obj through its item's optional Residual hook (a fast
/// path without C_q); false if it has none or it does not handle this case. Only the items with
/// the hook are tested, in item order (an if-chain over a few kinds, not a switch over all).
MBS_HD_FORCEINLINE bool ConstraintResidual(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                           bool index2, int obj, const Real* lambda, AngleCache& angles, Real* f,
                                           Real* ae) {
  const ObjectKind kind = static_cast<ObjectKind>(L.object[obj].kind);
#define MBS_RESIDUAL_CASE(Type, Kind)                       \
  if (detail::HasResidualFor<Type>(kind, ObjectKind::Kind)) \
    return detail::Residual<Type>(L, theta, t, q, v, index2, obj, lambda, angles, f, ae);
  MBS_OBJECT_ITEMS(MBS_RESIDUAL_CASE)
#undef MBS_RESIDUAL_CASE
  return false;
}

/// Evaluates the force law of position connector `kind` with parameters p (its theta slots).
MBS_HD_INLINE void EvaluatePositionLaw(ObjectKind kind, const Real* p, PositionConnectorState& s, bool active) {
  DispatchObject<PositionLawHook>(kind, p, s, active);
}

/// Kinematics of a body-fixed point at local position lp: the body item's PointKinematics; an
/// object that is not a body has none (n = 0, at the origin).
MBS_HD_NOINLINE void BodyKinematics(const LayoutView& L, const Real* theta, const Real* q, const Real* v, int obj,
                                    const Vec3& lp, Kinematics& K) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  const BodyAccess b{L, theta, q, v, o};
  if (DispatchObject<PointKinematicsHook>(static_cast<ObjectKind>(L.object[obj].kind), b, theta + L.object[obj].theta,
                                          lp, K))
    return;
  K.pos = MakeVec3(0, 0, 0);
  K.vel = MakeVec3(0, 0, 0);
  K.A = Identity3();
  K.omega = K.omegaLocal = MakeVec3(0, 0, 0);
  K.n = 0;
  K.firstODE2 = -1;
  ClearJacobians(K);
}

/// Kinematics of a position/rigid marker.
MBS_HD_NOINLINE void MarkerKinematics(const LayoutView& L, const Real* theta, const Real* q, const Real* v, int marker,
                                      Kinematics& K) {
  const MarkerRecord r = GetMarkerRecord(L, marker);
  switch (static_cast<MarkerKind>(L.marker[marker].kind)) {
    case MarkerKind::BodyPosition:
    case MarkerKind::BodyRigid:
      BodyKinematics(L, theta, q, v, r.target, LoadVec3(theta + L.marker[marker].theta), K);
      return;
    case MarkerKind::BodyMass: BodyKinematics(L, theta, q, v, r.target, MakeVec3(0, 0, 0), K); return;
    default: NodeKinematics(L, theta, q, v, r.target, K); return;
  }
}

/// Position of a body-fixed point at local position lp at q = 0 (for Displacement outputs).
MBS_HD_INLINE Vec3 BodyReferencePosition(const LayoutView& L, const Real* theta, int obj, const Vec3& lp) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  const BodyAccess b{L, theta, nullptr, nullptr, o};
  Vec3 pos = MakeVec3(0, 0, 0);
  DispatchObject<ReferencePositionHook>(static_cast<ObjectKind>(L.object[obj].kind), b, theta + L.object[obj].theta, lp,
                                        pos);
  return pos;
}

/// Mass and local centre-of-mass position of a body with mass (for mass-proportional loads and
/// the BodyMass marker); 0 and the reference point for other objects.
MBS_HD_INLINE Real BodyMassAndCenter(const LayoutView& L, const Real* theta, int obj, Vec3& com) {
  Real mass = 0;
  com = MakeVec3(0, 0, 0);
  DispatchObject<MassAndCenterHook>(static_cast<ObjectKind>(L.object[obj].kind), theta + L.object[obj].theta, mass,
                                    com);
  return mass;
}

}  // namespace mbsweep
