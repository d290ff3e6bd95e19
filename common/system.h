/// @file system.h
/// Host/device system assembly: mass matrix, ODE2 and ODE1 right-hand sides and their
/// Jacobians, written once for the CPU reference solver and the batch backends.
///
/// Conventions (Exudyn's): every item's left-hand-side terms are moved to the system
/// right-hand side, so the equations of motion read  M(q) q_tt = f(t, q, q_t)  and
/// y_t = f1(t, y); contributions to the same coordinate are summed. Jacobians passed to
/// sinks are  factorQ * df/dq + factorV * df/dq_t  (note: K = -df/dq, D = -df/dq_t).
///
/// Sinks are any type with `add(int row, int col, Real value)`.
#pragma once

#include <vector>

#include "common/item_dispatch.h"
#include "common/kinematics.h"
#include "common/time_function.h"

namespace mbsweep {

/// Settings of the per-object forward-difference Jacobian (Exudyn's numericalDifferentiation).
struct NumDiff {
  Real relativeEpsilon = 1e-7;  ///< eps = relativeEpsilon * max(minimumCoordinateSize, |x|)
  Real minimumCoordinateSize = 1e-2;
};

// ------------------------------------------------------------------------------------------
// Bodies: local mass matrix (n x n, row-major in Mloc with leading dimension n) and local
// right-hand side (quadratic velocity terms).
// ------------------------------------------------------------------------------------------

/// True for bodies with a node and a mass matrix (category Body; see ComputeMassMatrix).
MBS_HD_INLINE bool IsMassBody(ObjectKind k) { return IsOfCategory(k, ObjectCategory::Body); }

// ------------------------------------------------------------------------------------------
// Connectors: force laws and their local right-hand side over [marker0 coords, marker1 coords].
// ------------------------------------------------------------------------------------------

/// Connector quantities shared by the force law, the right-hand side and sensor outputs.
using ConnectorState = PositionConnectorState;

MBS_HD_INLINE bool IsPositionConnector(ObjectKind k) { return IsOfCategory(k, ObjectCategory::PositionConnector); }

/// Evaluates a position connector at time t: the kinematics of its markers, then its item's
/// force law or user function.
MBS_HD_INLINE void EvalPositionConnector(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                         int obj, ConnectorState& s) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  MarkerKinematics(L, theta, q, v, o.extra[0], s.k0);
  MarkerKinematics(L, theta, q, v, o.extra[1], s.k1);
  s.force = MakeVec3(0, 0, 0);
  s.scalarForce = 0;
  const ObjectKind k = static_cast<ObjectKind>(L.object[obj].kind);
  const Real* p = theta + L.object[obj].theta;
  if (!DispatchSelected<detail::HasPositionUserLaw, UserLawHook>(k, L, o, p, t, s))
    EvaluatePositionLaw(k, p, s, o.extra[2] != 0);
}

/// Connectors between Position+Orientation (or Orientation) markers acting in a joint frame.
MBS_HD_INLINE bool IsRigidConnector(ObjectKind k) { return IsOfCategory(k, ObjectCategory::RigidConnector); }

/// Evaluates a rigid connector at time t: the kinematics of its markers, then its item's law or
/// user function (forces are zero if the connector is inactive, the kinematic quantities are
/// always computed).
MBS_HD_INLINE void EvalRigidConnector(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                      int obj, RigidConnectorState& s) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  MarkerKinematics(L, theta, q, v, o.extra[0], s.k0);
  MarkerKinematics(L, theta, q, v, o.extra[1], s.k1);
  s.forceLocal = s.torqueLocal = s.axis = MakeVec3(0, 0, 0);
  s.scalar = s.scalar_t = 0;
  const ObjectKind k = static_cast<ObjectKind>(L.object[obj].kind);
  const Real* p = theta + L.object[obj].theta;
  if (!DispatchSelected<detail::HasRigidUserLaw, UserLawHook>(k, L, o, p, t, s))
    DispatchObject<RigidConnectorLawHook>(k, p, s, o.extra[2] != 0);
}

/// Local right-hand side of a position or rigid connector over [marker0 coords, marker1 coords].
MBS_HD_INLINE void ConnectorLocalRHS(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                     int obj, Real* fLoc) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  for (int i = 0; i < o.nLocalODE2; ++i) fLoc[i] = 0;
  const ObjectKind kind = static_cast<ObjectKind>(L.object[obj].kind);
  if (IsPositionConnector(kind)) {
    ConnectorState s;
    EvalPositionConnector(L, theta, t, q, v, obj, s);
    AddPositionForce(s.k0, s.force, fLoc, 0);
    AddPositionForce(s.k1, -s.force, fLoc, s.k0.n);
  } else if (IsRigidConnector(kind)) {
    RigidConnectorState s;
    EvalRigidConnector(L, theta, t, q, v, obj, s);
    if (o.extra[2]) DispatchObject<RigidConnectorRHSHook>(kind, s, fLoc);
  }
}

/// Local ODE2 right-hand side of an object of a HasLocalRHSKind kind (bodies, position and
/// rigid connectors).
MBS_HD_NOINLINE void ObjectLocalRHS(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                    int obj, Real* fLoc) {
  const ObjectKind k = static_cast<ObjectKind>(L.object[obj].kind);
  if (IsMassBody(k)) BodyLocalRHS(L, theta, q, v, obj, fLoc);
  else ConnectorLocalRHS(L, theta, t, q, v, obj, fLoc);
}

/// False if the model the code is compiled for (ModelHasKind) has no object kind with a local
/// right-hand side: the code that computes one is left out.
MBS_HD_INLINE constexpr bool ModelHasLocalRHS() {
  return ModelHasObject<VaryingMassItem>() || ModelHasCategory(ObjectCategory::PositionConnector) ||
         ModelHasCategory(ObjectCategory::RigidConnector);
}

/// Object kinds whose right-hand side ObjectLocalRHS computes (coordinate spring-dampers and
/// generic objects are added to the global vector directly).
MBS_HD_INLINE bool HasLocalRHSKind(ObjectKind k) {
  return CoordinateDependentMass(k) || IsPositionConnector(k) || IsRigidConnector(k);
}

/// True if object obj has a local right-hand side that is not always zero: a body has velocity
/// terms only while its mass matrix depends on the coordinates (a planar rigid body's only with
/// its centre of mass off the node; skipping it saves the call).
MBS_HD_INLINE bool HasLocalRHS(const LayoutView& L, const Real* theta, int obj, ObjectKind k) {
  if (CoordinateDependentMass(k)) return !VaryingBodyMassIsConstant(L, theta, obj);
  return HasLocalRHSKind(k);
}

/// HasLocalRHS for a LocalObject entry e of the force list, whose kind BuildForceList already
/// checked with HasLocalRHSKind: only a body's (e[2] = 1) ConstantMass test remains.
MBS_HD_INLINE bool LocalEntryHasRHS(const LayoutView& L, const Real* theta, const int* e) {
  return ModelHasLocalRHS() && (e[2] == 0 || !VaryingBodyMassIsConstant(L, theta, e[1]));
}

// ------------------------------------------------------------------------------------------
// Loads
// ------------------------------------------------------------------------------------------

/// The value of load `load` at t times loadFactor, as given (a LoadCoordinate's scalar in [0];
/// a vector in the global or, bodyFixed, the body frame): its user function's values, or its
/// time function's value times its values (`load`, `loadVector`). With a cache (the
/// integrators' residuals), the time function's value at t comes from it.
MBS_HD_INLINE Vec3 LoadValueAt(const LayoutView& L, const Real* theta, int load, Real t, Real loadFactor,
                               TimeFunctionCache* cache = nullptr) {
  const LoadRecord r = GetLoadRecord(L, load);
  const Real* p = theta + L.load[load].theta;
  const int nVal = static_cast<LoadKind>(L.load[load].kind) == LoadKind::Coordinate ? 1 : 3;
  Vec3 value{{0, 0, 0}};
  if (r.userFunction >= 0) {  // arguments t, load or t, loadVector[0..2]; parameters after the values
    const Real args[4] = {t, p[0], nVal == 3 ? p[1] : 0, nVal == 3 ? p[2] : 0};
    const int* program = L.ints + r.userFunction;
    for (int c = 0; c < nVal; ++c, program += 1 + program[0])
      value[c] = loadFactor * EvalExpression(program, args, p + nVal, L.expressionHost);
    return value;
  }
  const Real s = loadFactor * (cache ? cache->Get(load, r.timeFunctionType, r.timeFunctionData, p + nVal, t, L)
                                     : EvalTimeFunction(r.timeFunctionType, r.timeFunctionData, p + nVal, t, &L));
  if (nVal == 1) value[0] = s * p[0];
  else value = s * LoadVec3(p);
  return value;
}

/// Current load vector (global frame; scalar in [0] for LoadCoordinate), for sensors.
MBS_HD_INLINE int LoadValue(const LayoutView& L, const Real* theta, const Real* q, const Real* v, int load, Real t,
                            Real* out) {
  Vec3 f = LoadValueAt(L, theta, load, t, 1);
  const LoadKind kind = static_cast<LoadKind>(L.load[load].kind);
  if (kind == LoadKind::Coordinate) {
    out[0] = f[0];
    return 1;
  }
  const LoadRecord r = GetLoadRecord(L, load);
  if (r.bodyFixed) {
    Kinematics k;
    MarkerKinematics(L, theta, q, v, r.marker, k);
    f = k.A * f;
  }
  for (int i = 0; i < 3; ++i) out[i] = f[i];
  return 3;
}

/// True if a mass-proportional load on body obj acts at its node (its item has
/// massLoadCoordinates > 0 and its centre of mass is at the node): then mass times the load
/// enters the node's first n coordinates and does not depend on the coordinates. An if-chain
/// over those items (MassLoadItem), light on the registers of the force loop.
MBS_HD_INLINE bool BodyMassLoadAtNode(const LayoutView& L, const Real* theta, int obj, Real& mass, int& n) {
  mass = 0;
  n = 0;
  return DispatchSelected<MassLoadItem, MassLoadAtNodeHook>(static_cast<ObjectKind>(L.object[obj].kind),
                                                            theta + L.object[obj].theta, mass, n);
}

/// False if the model the code is compiled for has LoadCoordinate loads only, or none
/// (ModelHasKind): LoadLocal is then never called, and left out.
MBS_HD_INLINE constexpr bool ModelHasLocalLoads() {
  for (int k = 0; k < static_cast<int>(LoadKind::Count); ++k)
    if (k != static_cast<int>(LoadKind::Coordinate) && ModelHasKind(static_cast<LoadKind>(k))) return true;
  return false;
}

/// Generalized forces of one force, torque or mass-proportional load on the coordinates of
/// its marker's node: writes loc[0..n) for global ODE2 indices first..first+n-1 (n = 0: no
/// contribution). A LoadCoordinate is added by ComputeODE2RHS directly and has no Jacobian.
MBS_HD_NOINLINE void LoadLocal(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                               Real loadFactor, int load, Real* loc, int& first, int& n) {
  const LoadRecord r = GetLoadRecord(L, load);
  const LoadKind kind = static_cast<LoadKind>(L.load[load].kind);
  Kinematics k;
  Vec3 vec = LoadValueAt(L, theta, load, t, loadFactor);
  if (kind == LoadKind::MassProportional) {
    const int obj = GetMarkerRecord(L, r.marker).target;
    Real mass;
    if (BodyMassLoadAtNode(L, theta, obj, mass, n)) {
      vec = mass * vec;
      first = GetObjectRecord(L, obj).ltgODE2[0];
      for (int j = 0; j < n; ++j) loc[j] = vec[j];
      return;
    }
    Vec3 com;
    vec = BodyMassAndCenter(L, theta, obj, com) * vec;
    BodyKinematics(L, theta, q, v, obj, com, k);
  } else {
    MarkerKinematics(L, theta, q, v, r.marker, k);
    if (r.bodyFixed) vec = k.A * vec;
  }
  for (int j = 0; j < k.n; ++j) loc[j] = 0;
  if (kind == LoadKind::TorqueVector) AddTorque(k, vec, loc, 0);
  else AddPositionForce(k, vec, loc, 0);
  n = k.n;
  first = k.firstODE2;
}

// ------------------------------------------------------------------------------------------
// System level
// ------------------------------------------------------------------------------------------

/// Assembles the mass matrix into sink M (entries are added; the caller zeroes M).
template <class Sink> MBS_HD void ComputeMassMatrix(const LayoutView& L, const Real* theta, const Real* q, Sink& M) {
  Real Mloc[kMaxNodeCoords * kMaxNodeCoords];
  const LayoutView& C = MBS_LAYOUT_CONSTANT(L);
  ForEachIndex(MBS_ITEM_COUNT(C.nObjects), [&](auto i) MBS_LAMBDA_FORCEINLINE {
    const ObjectKind k = static_cast<ObjectKind>(C.object[i].kind);
    if (!IsMassBody(k) && k != ObjectKind::GenericODE2) return;
    const ObjectRecord o = GetObjectRecord(C, i);
    if (IsMassBody(k) && AddConstantBodyMass(C, theta, i, M)) return;
    if (CoordinateDependentMass(k)) {  // the other bodies' mass is constant
      ObjectLocalMass(C, theta, q, i, Mloc);
      const int n = o.nLocalODE2;
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
          if (Mloc[a * n + b] != 0) M.add(o.ltgODE2[a], o.ltgODE2[b], Mloc[a * n + b]);
    } else if (k == ObjectKind::GenericODE2 && o.extra[0]) {
      const Real* Mg = theta + C.object[i].theta;
      const int n = o.nLocalODE2;
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
          if (Mg[a * n + b] != 0) M.add(o.ltgODE2[a], o.ltgODE2[b], Mg[a * n + b]);
    }
  });
}

/// True if the mass matrix of system (L, theta) does not depend on q: the layout says so, or
/// its only candidates, bodies with coordinateDependentMass, all have a constant mass for their
/// parameters (ConstantMass; a planar rigid body's centre of mass at the node), hence per system.
MBS_HD_NOINLINE bool MassMatrixIsConstant(const LayoutView& L, const Real* theta) {
  if (L.constantMassMatrix) return true;
  MBS_UNROLL for (int i = 0; i < L.nObjects; ++i)
    if (CoordinateDependentMass(static_cast<ObjectKind>(L.object[i].kind)) && !VaryingBodyMassIsConstant(L, theta, i))
      return false;
  return true;
}

// The force list's CoordinateSpringDamper entries (and their Jacobian and sensor values) apply
// the one coordinate connector's law without a dispatch per step; a second CoordinateConnector
// item needs its own entry.
static_assert(ObjectItemCount(ObjectCategory::CoordinateConnector) == 1,
              "the force list knows one CoordinateConnector item (ObjectConnectorCoordinateSpringDamper)");

/// The ODE2 force list of a layout (see layout_records.h): the entries ComputeODE2RHS walks,
/// objects then loads in item order, without the items that never add to the right-hand side
/// (mass points, constraints, inactive coordinate spring-dampers, coordinate loads on ground),
/// and with the coordinate indices of coordinate spring-dampers and coordinate loads resolved.
/// Host only; called when a model is compiled.
inline std::vector<int> BuildForceList(const LayoutView& L) {
  std::vector<int> e;
  for (int i = 0; i < L.nObjects; ++i) {
    const ObjectKind k = static_cast<ObjectKind>(L.object[i].kind);
    const ObjectRecord o = GetObjectRecord(L, i);
    if (k == ObjectKind::ConnectorCoordinateSpringDamper) {
      if (!o.extra[2]) continue;
      const int n0 = GetMarkerRecord(L, o.extra[0]).nCoords, n1 = o.nLocalODE2 - n0;
      const ForceEntry kind = o.extra[3] >= 0 ? ForceEntry::CoordinateSpringDamperUser : ForceEntry::CoordinateSpringDamper;
      e.insert(e.end(), {static_cast<int>(kind), i, n0 ? o.ltgODE2[0] : -1, n1 ? o.ltgODE2[n0] : -1});
    } else if (HasLocalRHSKind(k)) {
      e.insert(e.end(), {static_cast<int>(ForceEntry::LocalObject), i, CoordinateDependentMass(k) ? 1 : 0, 0});
    } else if (k == ObjectKind::GenericODE2) {
      e.insert(e.end(), {static_cast<int>(ForceEntry::GenericODE2), i, 0, 0});
    }
  }
  for (int i = 0; i < L.nLoads; ++i) {
    const LoadKind lk = static_cast<LoadKind>(L.load[i].kind);
    if (lk == LoadKind::MassProportional) {
      const int body = GetMarkerRecord(L, GetLoadRecord(L, i).marker).target;
      if (MassLoadBody(static_cast<ObjectKind>(L.object[body].kind))) {
        e.insert(e.end(), {static_cast<int>(ForceEntry::BodyMassLoad), i, body, GetObjectRecord(L, body).ltgODE2[0]});
        continue;
      }
    }
    if (lk != LoadKind::Coordinate) {
      e.insert(e.end(), {static_cast<int>(ForceEntry::Load), i, 0, 0});
      continue;
    }
    const MarkerRecord m = GetMarkerRecord(L, GetLoadRecord(L, i).marker);
    if (m.nCoords == 0) continue;  // a marker on a ground node
    const NodeRecord nr = GetNodeRecord(L, m.node);
    if (nr.nODE2 == 0) continue;
    e.insert(e.end(), {static_cast<int>(ForceEntry::CoordinateLoad), i, nr.ode2Begin + m.coordinate, 0});
  }
  return e;
}

/// The force list's entries split, in their order, into the constant loads (whose value
/// depends on theta only: coordinate loads and mass-proportional loads on a point mass or rigid
/// body, with a constant time function and no user function) and the others. Host only; called when a model is
/// compiled.
inline void SplitForceList(const LayoutView& L, const std::vector<int>& forces, std::vector<int>& constant,
                           std::vector<int>& variable) {
  for (auto e = forces.begin(); e != forces.end(); e += kForceEntryInts) {
    const ForceEntry k = static_cast<ForceEntry>(e[0]);
    bool fixed = false;
    if (k == ForceEntry::CoordinateLoad || k == ForceEntry::BodyMassLoad) {
      const LoadRecord r = GetLoadRecord(L, e[1]);
      fixed = static_cast<TimeFunctionType>(r.timeFunctionType) == TimeFunctionType::Constant && r.userFunction < 0;
    }
    std::vector<int>& list = fixed ? constant : variable;
    list.insert(list.end(), e, e + kForceEntryInts);
  }
}

/// The force of coordinate spring-damper `obj` with a user function (ForceEntry::
/// CoordinateSpringDamperUser), whose sides are the global ODE2 indices g0 and g1 (-1: ground).
MBS_HD_INLINE Real CoordinateSpringDamperUserForce(const LayoutView& L, const Real* theta, int obj, Real t,
                                                   const Real* q, const Real* v, int g0, int g1) {
  const Real dq = (g1 >= 0 ? q[g1] : 0) - (g0 >= 0 ? q[g0] : 0);
  const Real dv = (g1 >= 0 ? v[g1] : 0) - (g0 >= 0 ? v[g0] : 0);
  return ObjectConnectorCoordinateSpringDamper::ForceAt(L, GetObjectRecord(L, obj).extra[3], theta + L.object[obj].theta,
                                                        t, dq, dv);
}

namespace detail {
/// Adds the entries of the force list that starts at ints offset L.*List (L.*Count entries) on
/// to f (ComputeODE2RHS's loop; a ForEachIndex over the model's items).
template <int LayoutView::*List, int LayoutView::*Count>
MBS_HD_FORCEINLINE void AddForceEntries(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                        Real loadFactor, Real* f, TimeFunctionCache* cache) {
  Real loc[kMaxConnectorCoords];
  const LayoutView& C = MBS_LAYOUT_CONSTANT(L);
  const int list = C.*List;
  ForEachIndex(MBS_ITEM_COUNT(C.*Count), [&](auto j) MBS_LAMBDA_FORCEINLINE {
    const int at = list + kForceEntryInts * j;  // the entry [kind, item, a, b]
    const int* e = C.ints + at;
    const ForceEntry kind = static_cast<ForceEntry>(C.ints[at]);  // not e[0]: a constant expression in generated code
    const int i = C.ints[at + 1];
    switch (kind) {
      case ForceEntry::CoordinateSpringDamper: {    // applied directly to the two coordinates
        const Real* p = theta + C.object[i].theta;  // stiffness, damping, offset
        const int g0 = e[2], g1 = e[3];
        const Real dq = (g1 >= 0 ? q[g1] : 0) - (g0 >= 0 ? q[g0] : 0);
        const Real dv = (g1 >= 0 ? v[g1] : 0) - (g0 >= 0 ? v[g0] : 0);
        const Real force =
            ObjectConnectorCoordinateSpringDamper::Force(ParamsAt<ObjectConnectorCoordinateSpringDamper>(p), dq, dv);
        if (g0 >= 0) f[g0] += force;
        if (g1 >= 0) f[g1] -= force;
        break;
      }
      case ForceEntry::CoordinateSpringDamperUser: {
        const int g0 = e[2], g1 = e[3];
        const Real force = CoordinateSpringDamperUserForce(C, theta, i, t, q, v, g0, g1);
        if (g0 >= 0) f[g0] += force;
        if (g1 >= 0) f[g1] -= force;
        break;
      }
      case ForceEntry::LocalObject: {
        if (!LocalEntryHasRHS(C, theta, e)) break;
        const ObjectRecord o = GetObjectRecord(C, i);
        ObjectLocalRHS(C, theta, t, q, v, i, loc);
        for (int a = 0; a < o.nLocalODE2; ++a) f[o.ltgODE2[a]] += loc[a];
        break;
      }
      case ForceEntry::GenericODE2: {
        const ObjectRecord o = GetObjectRecord(C, i);
        const int n = o.nLocalODE2;
        const Real* p = theta + C.object[i].theta;
        if (o.extra[0]) p += n * n;
        const Real* K = o.extra[1] ? p : nullptr;
        if (o.extra[1]) p += n * n;
        const Real* D = o.extra[2] ? p : nullptr;
        if (o.extra[2]) p += n * n;
        const Real* F = o.extra[3] ? p : nullptr;
        for (int a = 0; a < n; ++a) {
          Real s = F ? F[a] : 0;
          for (int b = 0; b < n; ++b) {
            if (K) s -= K[a * n + b] * q[o.ltgODE2[b]];
            if (D) s -= D[a * n + b] * v[o.ltgODE2[b]];
          }
          f[o.ltgODE2[a]] += s;
        }
        break;
      }
      case ForceEntry::CoordinateLoad:  // one scalar on one coordinate
        f[e[2]] += LoadValueAt(C, theta, i, t, loadFactor, cache)[0];
        break;
      case ForceEntry::BodyMassLoad: {  // LoadLocal's common case, without its decoding
        Real mass;
        int n;
        if (BodyMassLoadAtNode(C, theta, e[2], mass, n)) {
          const Vec3 vec = mass * LoadValueAt(C, theta, i, t, loadFactor, cache);
          for (int a = 0; a < n; ++a) f[e[3] + a] += vec[a];
          break;
        }
        [[fallthrough]];  // centre of mass off the node: the general path
      }
      case ForceEntry::Load: {
        if (!ModelHasLocalLoads()) break;
        int first, n;
        LoadLocal(C, theta, t, q, v, loadFactor, i, loc, first, n);
        for (int a = 0; a < n; ++a) f[first + a] += loc[a];
        break;
      }
    }
  });
}
}  // namespace detail

/// ODE2 right-hand side f(t, q, q_t) (overwrites f[0..nODE2)); loads are scaled by loadFactor.
/// Walks the layout's force list (layout_records.h). `cache`: the loads' time functions at t
/// (TimeFunctionCache), for repeated evaluations at one time.
MBS_HD_NOINLINE void ComputeODE2RHS(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                    Real loadFactor, Real* f, TimeFunctionCache* cache = nullptr) {
  for (int i = 0; i < L.nODE2; ++i) f[i] = 0;
  detail::AddForceEntries<&LayoutView::forceList, &LayoutView::nForces>(L, theta, t, q, v, loadFactor, f, cache);
}

/// The sum of the constant loads (the layout's constant force list, LayoutView::
/// constantForceList), loadFactor 1, into f[0..nODE2). Returns false if one of them depends on
/// q after all (a mass-proportional load on a body whose centre of mass is off its node); then
/// use ComputeODE2RHS.
MBS_HD_NOINLINE bool ComputeConstantODE2Forces(const LayoutView& L, const Real* theta, Real* f) {
  const int* e = L.ints + L.constantForceList;
  MBS_UNROLL for (int j = 0; j < L.nConstantForces; ++j, e += kForceEntryInts) {
    Real mass;
    int n;
    if (static_cast<ForceEntry>(e[0]) == ForceEntry::BodyMassLoad && !BodyMassLoadAtNode(L, theta, e[2], mass, n))
      return false;
  }
  for (int i = 0; i < L.nODE2; ++i) f[i] = 0;
  // reads neither q nor v
  detail::AddForceEntries<&LayoutView::constantForceList, &LayoutView::nConstantForces>(L, theta, 0, nullptr, nullptr,
                                                                                        1, f, nullptr);
  return true;
}

/// True if no entry of the variable force list adds anything for theta: each one is a body
/// whose local right-hand side vanishes (HasLocalRHS: e.g. a planar rigid body with its centre
/// of mass at its node). ComputeODE2RHSFromConstant is then fConstant itself.
MBS_HD_INLINE bool VariableForcesVanish(const LayoutView& L, const Real* theta) {
  const int* e = L.ints + L.variableForceList;
  MBS_UNROLL for (int j = 0; j < L.nVariableForces; ++j, e += kForceEntryInts)
    if (static_cast<ForceEntry>(e[0]) != ForceEntry::LocalObject || LocalEntryHasRHS(L, theta, e)) return false;
  return true;
}

/// ComputeODE2RHS (loadFactor 1) from the constant loads' sum fConstant
/// (ComputeConstantODE2Forces): f = fConstant plus the other entries (the variable force
/// list). The same sums as ComputeODE2RHS; where a coordinate receives a constant load and two
/// or more other forces, they are added in another order.
MBS_HD_NOINLINE void ComputeODE2RHSFromConstant(const LayoutView& L, const Real* theta, Real t, const Real* q,
                                                const Real* v, const Real* fConstant, Real* f,
                                                TimeFunctionCache* cache = nullptr) {
  for (int i = 0; i < L.nODE2; ++i) f[i] = fConstant[i];
  detail::AddForceEntries<&LayoutView::variableForceList, &LayoutView::nVariableForces>(L, theta, t, q, v, 1, f, cache);
}

/// ODE1 right-hand side f1(t, y) (overwrites f1[0..nODE1)).
MBS_HD_NOINLINE void ComputeODE1RHS(const LayoutView& L, const Real* theta, Real /*t*/, const Real* y, Real* f1) {
  for (int i = 0; i < L.nODE1; ++i) f1[i] = 0;
  MBS_UNROLL for (int i = 0; i < L.nObjects; ++i) {
    if (static_cast<ObjectKind>(L.object[i].kind) != ObjectKind::GenericODE1) continue;
    const ObjectRecord o = GetObjectRecord(L, i);
    const int n = o.nLocalODE1;
    const Real* A = o.extra[0] ? theta + L.object[i].theta : nullptr;
    const Real* b = o.extra[1] ? theta + L.object[i].theta + (A ? n * n : 0) : nullptr;
    for (int a = 0; a < n; ++a) {
      Real s = b ? b[a] : 0;
      if (A)
        for (int c = 0; c < n; ++c) s += A[a * n + c] * y[o.ltgODE1[c]];
      f1[o.ltgODE1[a]] += s;
    }
  }
}

/// Adds factor * df1/dy into sink J (ODE1 block, ODE1 indices).
template <class Sink> MBS_HD void ComputeODE1RHSJacobian(const LayoutView& L, const Real* theta, Real factor, Sink& J) {
  MBS_UNROLL for (int i = 0; i < L.nObjects; ++i) {
    if (static_cast<ObjectKind>(L.object[i].kind) != ObjectKind::GenericODE1) continue;
    const ObjectRecord o = GetObjectRecord(L, i);
    if (!o.extra[0]) continue;
    const int n = o.nLocalODE1;
    const Real* A = theta + L.object[i].theta;
    for (int a = 0; a < n; ++a)
      for (int c = 0; c < n; ++c)
        if (A[a * n + c] != 0) J.add(o.ltgODE1[a], o.ltgODE1[c], factor * A[a * n + c]);
  }
}

/// Forward-difference step of Exudyn's rule.
MBS_HD_INLINE Real DiffEpsilon(const NumDiff& nd, Real x) {
  const Real ax = x < 0 ? -x : x;
  return nd.relativeEpsilon * (ax > nd.minimumCoordinateSize ? ax : nd.minimumCoordinateSize);
}

/// Adds factorQ * df/dq + factorV * df/dq_t of all objects into sink J (ODE2 indices).
/// Generic objects use their matrices; coordinate spring-dampers are analytic; other
/// objects use per-object forward differences (q and v are perturbed and restored).
/// With withLoads, loads are differentiated with respect to q as well.
template <class Sink>
MBS_HD void ComputeODE2RHSJacobian(const LayoutView& L, const Real* theta, Real t, Real* q, Real* v, Real loadFactor,
                                   Real factorQ, Real factorV, const NumDiff& nd, bool withLoads, Sink& J) {
  Real f0[kMaxConnectorCoords], f1[kMaxConnectorCoords];
  MBS_UNROLL for (int i = 0; i < L.nObjects; ++i) {
    const ObjectKind k = static_cast<ObjectKind>(L.object[i].kind);
    const ObjectRecord o = GetObjectRecord(L, i);
    const int n = o.nLocalODE2;
    if (k == ObjectKind::GenericODE2) {
      const Real* p = theta + L.object[i].theta + (o.extra[0] ? n * n : 0);
      const Real* K = o.extra[1] ? p : nullptr;
      const Real* D = o.extra[2] ? p + (o.extra[1] ? n * n : 0) : nullptr;
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
          const Real val = -(K ? factorQ * K[a * n + b] : 0) - (D ? factorV * D[a * n + b] : 0);
          if (val != 0) J.add(o.ltgODE2[a], o.ltgODE2[b], val);
        }
      continue;
    }
    if (k == ObjectKind::ConnectorCoordinateSpringDamper) {
      if (!o.extra[2]) continue;
      const int n0 = GetMarkerRecord(L, o.extra[0]).nCoords;
      const int n1 = GetMarkerRecord(L, o.extra[1]).nCoords;
      if (o.extra[3] >= 0) {  // a user function: forward differences over each side's q and v (f0 = +F, f1 = -F)
        const int g0 = n0 ? o.ltgODE2[0] : -1, g1 = n1 ? o.ltgODE2[n0] : -1;
        const Real force0 = CoordinateSpringDamperUserForce(L, theta, i, t, q, v, g0, g1);
        for (int pass = 0; pass < 2; ++pass) {
          const Real factor = pass == 0 ? factorQ : factorV;
          if (factor == 0) continue;
          Real* x = pass == 0 ? q : v;
          for (int side = 0; side < 2; ++side) {
            const int gb = side == 0 ? g0 : g1;
            if (gb < 0) continue;
            const Real x0 = x[gb];
            const Real eps = DiffEpsilon(nd, x0);
            x[gb] = x0 + eps;
            const Real force1 = CoordinateSpringDamperUserForce(L, theta, i, t, q, v, g0, g1);
            x[gb] = x0;
            const Real d = factor / eps * (force1 - force0);
            if (g0 >= 0) J.add(g0, gb, d);
            if (g1 >= 0) J.add(g1, gb, -d);
          }
        }
        continue;
      }
      // f0 = +Force(q1 - q0, v1 - v0), f1 = -Force: c = factorQ dForce/ddq + factorV dForce/ddv
      Real dFdq, dFdv;
      ObjectConnectorCoordinateSpringDamper::ForceDerivatives(
          ParamsAt<ObjectConnectorCoordinateSpringDamper>(theta + L.object[i].theta), dFdq, dFdv);
      const Real c = factorQ * dFdq + factorV * dFdv;
      if (n0) J.add(o.ltgODE2[0], o.ltgODE2[0], -c);
      if (n1) J.add(o.ltgODE2[n0], o.ltgODE2[n0], -c);
      if (n0 && n1) {
        J.add(o.ltgODE2[0], o.ltgODE2[n0], c);
        J.add(o.ltgODE2[n0], o.ltgODE2[0], c);
      }
      continue;
    }
    if (!HasLocalRHS(L, theta, i, k) || n == 0) continue;
    ObjectLocalRHS(L, theta, t, q, v, i, f0);
    for (int pass = 0; pass < 2; ++pass) {
      const Real factor = pass == 0 ? factorQ : factorV;
      if (factor == 0) continue;
      Real* x = pass == 0 ? q : v;
      for (int b = 0; b < n; ++b) {
        const int gb = o.ltgODE2[b];
        const Real x0 = x[gb];
        const Real eps = DiffEpsilon(nd, x0);
        x[gb] = x0 + eps;
        ObjectLocalRHS(L, theta, t, q, v, i, f1);
        x[gb] = x0;
        const Real s = factor / eps;
        for (int a = 0; a < n; ++a) {
          const Real val = s * (f1[a] - f0[a]);
          if (val != 0) J.add(o.ltgODE2[a], gb, val);
        }
      }
    }
  }
  if (!ModelHasLocalLoads() || !withLoads || factorQ == 0) return;
  // loads: forward differences of the node-local load vector with respect to q
  MBS_UNROLL for (int i = 0; i < L.nLoads; ++i) {
    if (static_cast<LoadKind>(L.load[i].kind) == LoadKind::Coordinate) continue;
    Real g0[kMaxNodeCoords], g1[kMaxNodeCoords];
    int first, n;
    LoadLocal(L, theta, t, q, v, loadFactor, i, g0, first, n);
    for (int b = 0; b < n; ++b) {
      const int gb = first + b;
      const Real x0 = q[gb];
      const Real eps = DiffEpsilon(nd, x0);
      q[gb] = x0 + eps;
      int first1, n1;
      LoadLocal(L, theta, t, q, v, loadFactor, i, g1, first1, n1);
      q[gb] = x0;
      for (int a = 0; a < n; ++a) {
        const Real val = factorQ * (g1[a] - g0[a]) / eps;
        if (val != 0) J.add(first + a, gb, val);
      }
    }
  }
}

}  // namespace mbsweep
