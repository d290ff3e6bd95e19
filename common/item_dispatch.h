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

/// False if the model the code is compiled for holds no object of category c (ModelHasKind);
/// always true in the interpreter.
MBS_HD_INLINE constexpr bool ModelHasCategory(ObjectCategory c) {
  bool any = false;
#define MBS_MODEL_CATEGORY_CASE(Type, Kind) any = any || (ModelHasKind(ObjectKind::Kind) && Type::category == c);
  MBS_OBJECT_ITEMS(MBS_MODEL_CATEGORY_CASE)
#undef MBS_MODEL_CATEGORY_CASE
  return any;
}

/// True if kind k is of category c (the tests IsMassBody, IsPositionConnector, ...). In code
/// generated for a model without objects of category c it is false at compile time, so the code
/// behind the test (a connector's state and kinematics, a joint's outputs) is left out.
MBS_HD_INLINE bool IsOfCategory(ObjectKind k, ObjectCategory c) { return ModelHasCategory(c) && CategoryOf(k) == c; }

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
/// kind outside the item list or the model's kinds (ModelHasKind). Hook::Call returns false
/// where the item has no such hook.
template <class Hook, class... Args> MBS_HD_FORCEINLINE bool DispatchObject(ObjectKind k, Args&&... args) {
  switch (k) {
#define MBS_DISPATCH_CASE(Type, Kind)                                                      \
  case ObjectKind::Kind:                                                                   \
    if constexpr (ModelHasKind(ObjectKind::Kind)) return Hook::template Call<Type>(args...); \
    break;
    MBS_OBJECT_ITEMS(MBS_DISPATCH_CASE)
#undef MBS_DISPATCH_CASE
    default: break;
  }
  return false;
}

/// As DispatchObject, but over only the items T with Selected<T>::value, as an if-chain in item
/// order (for hot paths where a few kinds have the hook: a compare or two instead of a switch
/// over all kinds); false for the other kinds.
template <template <class...> class Selected, class Hook, class... Args>
MBS_HD_FORCEINLINE bool DispatchSelected(ObjectKind k, Args&&... args) {
#define MBS_SELECTED_CASE(Type, Kind)                                     \
  if constexpr (Selected<Type>::value && ModelHasKind(ObjectKind::Kind)) { \
    if (k == ObjectKind::Kind) return Hook::template Call<Type>(args...); \
  }
  MBS_OBJECT_ITEMS(MBS_SELECTED_CASE)
#undef MBS_SELECTED_CASE
  return false;
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
MBS_DEFINE_HOOK_TEST(HasPositionUserLaw,
                     T::EvaluateUser(std::declval<const LayoutView&>(), 0, std::declval<const Real*>(), Real(0),
                                     std::declval<PositionConnectorState&>(), true));
MBS_DEFINE_HOOK_TEST(HasRigidUserLaw,
                     T::EvaluateUser(std::declval<const LayoutView&>(), 0, std::declval<const Real*>(), Real(0),
                                     std::declval<RigidConnectorState&>(), true));
MBS_DEFINE_HOOK_TEST(HasRigidConnectorLaw,
                     (T::Evaluate(std::declval<ParamsArg<T>>(), std::declval<RigidConnectorState&>(), true),
                      T::LocalRHS(std::declval<const RigidConnectorState&>(), std::declval<Real*>())));
/// A sink for the detection of AddConstantMass.
struct NullSink {
  MBS_HD_INLINE void add(int, int, Real) {}
};
MBS_DEFINE_HOOK_TEST(HasBodyMass,
                     (T::coordinateDependentMass, T::massLoadCoordinates, T::ConstantMass(std::declval<ParamsArg<T>>()),
                      T::AddConstantMass(std::declval<ParamsArg<T>>(), std::declval<const int*>(), 0,
                                         std::declval<NullSink&>())));
MBS_DEFINE_HOOK_TEST(HasVaryingMass, (T::LocalMass(std::declval<const BodyAccess&>(), std::declval<ParamsArg<T>>(),
                                                   std::declval<Real*>()),
                                      T::QuadraticVelocity(std::declval<const BodyAccess&>(),
                                                           std::declval<ParamsArg<T>>(), std::declval<Real*>())));
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

/// Hooks of a body's mass (category Body): its traits, its constant mass, its local mass matrix
/// and velocity terms (items whose mass may depend on the coordinates).
template <class T> constexpr bool IsMassBodyItem() {
  if constexpr (T::category == ObjectCategory::Body) {
    static_assert(
        detail::HasBodyMass<T>::value,
        "a Body item declares coordinateDependentMass, massLoadCoordinates, ConstantMass and AddConstantMass");
    static_assert(!T::coordinateDependentMass || detail::HasVaryingMass<T>::value,
                  "a Body item with coordinateDependentMass declares LocalMass and QuadraticVelocity");
    return true;
  }
  return false;
}
/// True for a Body item whose mass may depend on the coordinates (LocalMass, QuadraticVelocity).
template <class T> constexpr bool IsVaryingMassItem() {
  if constexpr (IsMassBodyItem<T>()) return T::coordinateDependentMass;
  else return false;
}
/// A Body item on which a mass-proportional load can act at the node (massLoadCoordinates > 0).
template <class T> constexpr bool IsMassLoadItem() {
  if constexpr (IsMassBodyItem<T>()) return T::massLoadCoordinates > 0;
  else return false;
}
template <class T> struct MassLoadItem : std::bool_constant<IsMassLoadItem<T>()> {};
template <class T> struct VaryingMassItem : std::bool_constant<IsVaryingMassItem<T>()> {};
/// As ModelHasCategory: false if the model the code is compiled for holds no object item T
/// with Selected<T>::value.
template <template <class...> class Selected> MBS_HD_INLINE constexpr bool ModelHasObject() {
  bool any = false;
#define MBS_MODEL_OBJECT_CASE(Type, Kind) any = any || (ModelHasKind(ObjectKind::Kind) && Selected<Type>::value);
  MBS_OBJECT_ITEMS(MBS_MODEL_OBJECT_CASE)
#undef MBS_MODEL_OBJECT_CASE
  return any;
}
/// Hook: a compile-time selection of items (Selected<T>::value) as a per-kind test.
template <template <class...> class Selected> struct ItemTraitHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call() { return Selected<T>::value; }
};
/// A mass-proportional load acts at the node: the centre of mass is there; mass and the number
/// of coordinates it enters.
struct MassLoadAtNodeHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call(const Real* p, Real& mass, int& n) {
    Vec3 com;
    mass = T::MassAndCenter(ItemParams<T>(p), com);
    n = T::massLoadCoordinates;
    return com[0] == 0 && com[1] == 0 && com[2] == 0;
  }
};
struct ConstantMassHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call(const Real* p) { return T::ConstantMass(ItemParams<T>(p)); }
};
struct AddConstantMassHook {
  template <class T, class Sink> MBS_HD_FORCEINLINE static bool Call(const Real* p, const int* ltg, int n, Sink& M) {
    if constexpr (IsMassBodyItem<T>()) T::AddConstantMass(ItemParams<T>(p), ltg, n, M);
    return true;
  }
};
struct LocalMassHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call(const BodyAccess& b, const Real* p, Real* Mloc) {
    if constexpr (IsVaryingMassItem<T>()) T::LocalMass(b, ItemParams<T>(p), Mloc);
    return true;
  }
};
struct QuadraticVelocityHook {
  template <class T> MBS_HD_FORCEINLINE static bool Call(const BodyAccess& b, const Real* p, Real* fLoc) {
    if constexpr (IsVaryingMassItem<T>()) T::QuadraticVelocity(b, ItemParams<T>(p), fLoc);
    return true;
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

/// Hook (optional): a constraint's residual without forming C_q, for object obj; its record is
/// read here, after the kind test, so that each item's fast path reads only the fields it uses.
struct ConstraintResidualHook {
  template <class T>
  MBS_HD_FORCEINLINE static bool Call(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                      bool index2, int obj, const Real* lambda, AngleCache& angles, Real* f, Real* ae) {
    const ConstraintAccess c{L, theta, t, q, v, GetObjectRecord(L, obj), index2};
    return T::Residual(c, ItemParams<T>(theta + L.object[obj].theta), lambda, angles, f, ae);
  }
};

/// The residual of constraint object obj through its item's optional Residual hook (a fast
/// path without C_q); false if it has none or it does not handle this case.
MBS_HD_FORCEINLINE bool ConstraintResidual(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                           bool index2, int obj, const Real* lambda, AngleCache& angles, Real* f,
                                           Real* ae) {
  return DispatchSelected<detail::HasResidual, ConstraintResidualHook>(
      static_cast<ObjectKind>(L.object[obj].kind), L, theta, t, q, v, index2, obj, lambda, angles, f, ae);
}

/// Evaluates the force law of position connector `kind` with parameters p (its theta slots).
MBS_HD_INLINE void EvaluatePositionLaw(ObjectKind kind, const Real* p, PositionConnectorState& s, bool active) {
  DispatchObject<PositionLawHook>(kind, p, s, active);
}

/// Hook (optional): a position or rigid connector's law given by its user function
/// (springForceUserFunction, springTorqueUserFunction), whose program its record's extra[3]
/// holds (-1: none, the built-in law).
struct UserLawHook {
  template <class T, class State>
  MBS_HD_FORCEINLINE static bool Call(const LayoutView& L, const ObjectRecord& o, const Real* p, Real t, State& s) {
    if (o.extra[3] < 0) return false;
    T::EvaluateUser(L, o.extra[3], p, t, s, o.extra[2] != 0);
    return true;
  }
};

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
      if constexpr (ModelHasKind(MarkerKind::BodyPosition) || ModelHasKind(MarkerKind::BodyRigid))
        BodyKinematics(L, theta, q, v, r.target, LoadVec3(theta + L.marker[marker].theta), K);
      return;
    case MarkerKind::BodyMass:
      if constexpr (ModelHasKind(MarkerKind::BodyMass)) BodyKinematics(L, theta, q, v, r.target, MakeVec3(0, 0, 0), K);
      return;
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

/// True for a body whose mass matrix may depend on the coordinates (and which then has
/// velocity terms): its item's coordinateDependentMass.
MBS_HD_INLINE bool CoordinateDependentMass(ObjectKind k) { return DispatchObject<ItemTraitHook<VaryingMassItem>>(k); }

/// True for a body on which a mass-proportional load can act at its node: its item's
/// massLoadCoordinates > 0.
MBS_HD_INLINE bool MassLoadBody(ObjectKind k) { return DispatchObject<ItemTraitHook<MassLoadItem>>(k); }

/// ConstantMass of body obj whose item has coordinateDependentMass (false for other objects).
MBS_HD_INLINE bool VaryingBodyMassIsConstant(const LayoutView& L, const Real* theta, int obj) {
  return DispatchSelected<VaryingMassItem, ConstantMassHook>(static_cast<ObjectKind>(L.object[obj].kind),
                                                             theta + L.object[obj].theta);
}

/// True if body obj's mass matrix is constant for its parameters (always, unless its item has
/// coordinateDependentMass: then its ConstantMass).
MBS_HD_INLINE bool BodyMassIsConstant(const LayoutView& L, const Real* theta, int obj) {
  return !CoordinateDependentMass(static_cast<ObjectKind>(L.object[obj].kind)) ||
         VaryingBodyMassIsConstant(L, theta, obj);
}

/// The entries a body's AddConstantMass adds, in its order (a sink for ConstantBodyMass): at most
/// one per coordinate, as a constant body mass is diagonal (item_physics.h).
struct BodyMassEntries {
  int n = 0;
  int row[kMaxNodeCoords], col[kMaxNodeCoords];
  Real value[kMaxNodeCoords];
  MBS_HD_INLINE void add(int r, int c, Real v) {
    row[n] = r;
    col[n] = c;
    value[n++] = v;
  }
};

/// If body obj's mass matrix is constant for its parameters (BodyMassIsConstant), the entries
/// its item's AddConstantMass adds (global indices) and true; false otherwise. Out of line, so
/// that the dispatch over the body items stays out of the integrators' code.
MBS_HD_NOINLINE bool ConstantBodyMass(const LayoutView& L, const Real* theta, int obj, BodyMassEntries& M) {
  if (!BodyMassIsConstant(L, theta, obj)) return false;
  const ObjectRecord o = GetObjectRecord(L, obj);
  DispatchObject<AddConstantMassHook>(static_cast<ObjectKind>(L.object[obj].kind), theta + L.object[obj].theta,
                                      o.ltgODE2, o.nLocalODE2, M);
  return true;
}

/// If body obj's mass matrix is constant for its parameters, adds its entries to sink M and
/// returns true; false otherwise. Through ConstantBodyMass's list, except where every call is
/// inlined (MBSWEEP_INLINE_ALL): there straight into the sink, as a list whose length depends
/// on the parameters would stay in local memory.
template <class Sink> MBS_HD_INLINE bool AddConstantBodyMass(const LayoutView& L, const Real* theta, int obj, Sink& M) {
#if defined(MBSWEEP_INLINE_ALL)
  if (!BodyMassIsConstant(L, theta, obj)) return false;
  const ObjectRecord o = GetObjectRecord(L, obj);
  DispatchObject<AddConstantMassHook>(static_cast<ObjectKind>(L.object[obj].kind), theta + L.object[obj].theta,
                                      o.ltgODE2, o.nLocalODE2, M);
  return true;
#else
  BodyMassEntries constant;
  if (!ConstantBodyMass(L, theta, obj, constant)) return false;
  for (int e = 0; e < constant.n; ++e) M.add(constant.row[e], constant.col[e], constant.value[e]);
  return true;
#endif
}

/// Local mass matrix of a body whose mass matrix depends on the coordinates (its item's
/// LocalMass); Mloc has nLocalODE2^2 entries, row-major.
MBS_HD_NOINLINE void ObjectLocalMass(const LayoutView& L, const Real* theta, const Real* q, int obj, Real* Mloc) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  const int n = o.nLocalODE2;
  for (int i = 0; i < n * n; ++i) Mloc[i] = 0;
  const BodyAccess b{L, theta, q, nullptr, o};
  DispatchObject<LocalMassHook>(static_cast<ObjectKind>(L.object[obj].kind), b, theta + L.object[obj].theta, Mloc);
}

/// Local right-hand side of a body (its item's QuadraticVelocity); fLoc has nLocalODE2 entries.
MBS_HD_INLINE void BodyLocalRHS(const LayoutView& L, const Real* theta, const Real* q, const Real* v, int obj,
                                Real* fLoc) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  for (int i = 0; i < o.nLocalODE2; ++i) fLoc[i] = 0;
  const BodyAccess b{L, theta, q, v, o};
  DispatchObject<QuadraticVelocityHook>(static_cast<ObjectKind>(L.object[obj].kind), b, theta + L.object[obj].theta,
                                        fLoc);
}

}  // namespace mbsweep
