/// @file constraints.h
/// Host/device constraint equations C(q, t) = 0 (or velocity-level equations) and their
/// Jacobians C_q, for the generalized-alpha DAE integrator and the static solver.
///
/// Each constraint object owns nAE algebraic variables (Lagrange multipliers) starting at
/// ObjectRecord::aeBegin; a NodeRigidBodyEP with addConstraintEquation owns one (the
/// Euler-parameter norm) at NodeRecord::aeBegin. The reaction forces enter the ODE2 equations
/// as  -C_q^T lambda  on the right-hand side. An inactive constraint (activeConnector = false)
/// has the equations lambda = 0, as have the free axes of ObjectJointSpherical and
/// ObjectJointGeneric.
///
/// A constraint object's equations are its item's (common/items/<Name>.h: Equations, and
/// Residual where the item has a fast path); this file evaluates them for the whole system.
#pragma once

#include "common/system.h"

namespace mbsweep {

/// True for the objects with algebraic equations (category Constraint).
MBS_HD_INLINE bool IsConstraint(ObjectKind k) { return IsOfCategory(k, ObjectCategory::Constraint); }

namespace detail {
/// f[ltg[j]] -= (C_q^T lambda)[j] of one constraint; each sum runs over the equations in
/// order, accumulated row by row (contiguous rows of Cq, no strided column walk).
MBS_HD_INLINE void SubtractReactions(const ConstraintEval& e, const int* ltg, const Real* lambda, Real* f) {
  if (e.nAE == 0) return;
  Real s[kMaxConnectorCoords];
  for (int j = 0; j < e.nLocal; ++j) s[j] = e.Cq[j] * lambda[0];
  for (int r = 1; r < e.nAE; ++r) {
    const Real* row = e.Cq + r * e.nLocal;
    for (int j = 0; j < e.nLocal; ++j) s[j] += row[j] * lambda[r];
  }
  for (int j = 0; j < e.nLocal; ++j) f[ltg[j]] -= s[j];
}
}  // namespace detail

/// Evaluates constraint object `obj` through its item's Equations: equations (position level,
/// or velocity level with index2 or for velocity-level constraints) and the Jacobian with
/// respect to its local ODE2 coordinates.
MBS_HD_NOINLINE void ConstraintLocal(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                     int obj, bool index2, ConstraintEval& e) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  e.nAE = o.nAE;
  e.nLocal = o.nLocalODE2;
  e.active = o.extra[2] != 0;
  e.velocity = index2;
  e.lambdaRows = 0;
  ZeroCq(e);
  for (int i = 0; i < kMaxConstraintEquations; ++i) e.C[i] = 0;  // fixed count: stores, no memset call
  const ConstraintAccess c{L, theta, t, q, v, o, index2};
  DispatchObject<ConstraintEquationsHook>(static_cast<ObjectKind>(L.object[obj].kind), c, theta + L.object[obj].theta,
                                          e);
}

/// The Euler-parameter norm constraint of an EP node: C = p^T p - 1 (index 2: 2 p^T p_t),
/// C_q = [0, 0, 0, 2 p^T] over the node's 7 coordinates starting at NodeRecord::ode2Begin.
MBS_HD_NOINLINE void NodeConstraintLocal(const LayoutView& L, const Real* theta, const Real* q, const Real* v, int node,
                                         bool index2, ConstraintEval& e) {
  Real rot[kRigidMaxRotPar], rot_t[kRigidMaxRotPar];
  const int nRot = RigidNodeRotation(L, theta, q, v, node, rot, rot_t);
  e.nAE = 1;
  e.nLocal = 3 + nRot;
  e.active = true;
  e.velocity = index2;
  e.lambdaRows = 0;
  Real c = 0, ct = 0;
  for (int j = 0; j < nRot; ++j) {
    c += rot[j] * rot[j];
    ct += rot[j] * rot_t[j];
  }
  e.C[0] = index2 ? 2 * ct : c - 1;
  for (int j = 0; j < 3; ++j) e.Cq[j] = 0;
  for (int j = 0; j < nRot; ++j) e.Cq[3 + j] = 2 * rot[j];
}

/// The layout's nodes with an algebraic equation and its constraint objects; 0 in code
/// generated for a model without Euler-parameter nodes (the only nodes with one) or without
/// constraint objects (ModelHasKind), so that the loops over them are left out.
MBS_HD_INLINE int ConstraintNodeCount(const LayoutView& L) {
  return ModelHasKind(NodeKind::RigidBodyEP) ? L.nConstraintNodes : 0;
}
MBS_HD_INLINE constexpr int ConstraintObjectCount(const LayoutView& L) {
  return ModelHasCategory(ObjectCategory::Constraint) ? L.nConstraintObjects : 0;
}

/// Adds the reaction forces -C_q^T lambda of all (active) constraints to the ODE2 vector f.
MBS_HD_NOINLINE void AddConstraintReactions(const LayoutView& L, const Real* theta, Real t, const Real* q,
                                            const Real* v, const Real* lambda, Real* f) {
  ConstraintEval e;
  for (int k = 0; k < ConstraintNodeCount(L); ++k) {
    const int i = ConstraintNode(L, k);
    const NodeRecord nr = GetNodeRecord(L, i);
    NodeConstraintLocal(L, theta, q, v, i, false, e);
    for (int j = 0; j < e.nLocal; ++j) f[nr.ode2Begin + j] -= e.Cq[j] * lambda[nr.aeBegin];
  }
  for (int k = 0; k < ConstraintObjectCount(L); ++k) {
    const int i = ConstraintObject(L, k);
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, false, e);
    if (!e.active) continue;
    detail::SubtractReactions(e, o.ltgODE2, lambda + o.aeBegin, f);
  }
}

namespace detail {
/// The residual part of AddConstraintReactionsAndAE for Euler-parameter node i.
MBS_HD_HOST_NOINLINE void NodeConstraintResidual(const LayoutView& L, const Real* theta, const Real* q,
                                                 const Real* v, const Real* lambda, bool index2, int i, Real* f,
                                                 Real* c) {
  ConstraintEval e;
  const NodeRecord nr = GetNodeRecord(L, i);
  NodeConstraintLocal(L, theta, q, v, i, index2, e);
  c[nr.aeBegin] = e.C[0];
  for (int j = 0; j < e.nLocal; ++j) f[nr.ode2Begin + j] -= e.Cq[j] * lambda[nr.aeBegin];
}
/// The residual part of AddConstraintReactionsAndAE for constraint object i on the general path
/// (ConstraintLocal). Out of line on the host, so that its large frame stays out of the planar
/// joints' loop.
MBS_HD_HOST_NOINLINE void GeneralConstraintResidual(const LayoutView& L, const Real* theta, Real t,
                                                    const Real* q, const Real* v, const Real* lambda, bool index2,
                                                    int i, Real* f, Real* c) {
  ConstraintEval e;  // every row of c belongs to one node or constraint object: all are written
  const ObjectRecord o = GetObjectRecord(L, i);
  ConstraintLocal(L, theta, t, q, v, i, index2, e);
  for (int r = 0; r < e.nAE; ++r) c[o.aeBegin + r] = IsLambdaRow(e, r) ? lambda[o.aeBegin + r] : e.C[r];
  if (e.active) SubtractReactions(e, o.ltgODE2, lambda + o.aeBegin, f);
}
}  // namespace detail

MBS_SCALAR_LOOPS_BEGIN
/// One pass over all constraints for the integrator's residual: adds the reaction forces
/// -C_q^T lambda to f (as AddConstraintReactions) and writes the algebraic equations to
/// c[nAE] (as ComputeAE with the given index2 flag), evaluating each constraint once.
MBS_HD_NOINLINE void AddConstraintReactionsAndAE(const LayoutView& L, const Real* theta, Real t, const Real* q,
                                                 const Real* v, const Real* lambda, bool index2, Real* f, Real* c) {
  AngleCache angles;  // the planar joints' rotation angles
  for (int k = 0; k < ConstraintNodeCount(L); ++k)
    detail::NodeConstraintResidual(L, theta, q, v, lambda, index2, ConstraintNode(L, k), f, c);
  const LayoutView& C = MBS_LAYOUT_CONSTANT(L);
  ForEachIndex(MBS_ITEM_COUNT(ConstraintObjectCount(C)), [&](auto k) MBS_LAMBDA_FORCEINLINE {
    const int i = ConstraintObject(C, k);
    if (!ConstraintResidual(C, theta, t, q, v, index2, i, lambda, angles, f, c))
      detail::GeneralConstraintResidual(C, theta, t, q, v, lambda, index2, i, f, c);
  });
}
MBS_SCALAR_LOOPS_END

/// Algebraic equations of all constraints into c[nAE] (lambda for inactive ones).
MBS_HD_NOINLINE void ComputeAE(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                               const Real* lambda, bool index2, Real* c) {
  ConstraintEval e;  // every row of c belongs to one node or constraint object: all are written
  for (int k = 0; k < ConstraintNodeCount(L); ++k) {
    const int i = ConstraintNode(L, k);
    const NodeRecord nr = GetNodeRecord(L, i);
    NodeConstraintLocal(L, theta, q, v, i, index2, e);
    c[nr.aeBegin] = e.C[0];
  }
  for (int k = 0; k < ConstraintObjectCount(L); ++k) {
    const int i = ConstraintObject(L, k);
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, index2, e);
    for (int r = 0; r < e.nAE; ++r) c[o.aeBegin + r] = IsLambdaRow(e, r) ? lambda[o.aeBegin + r] : e.C[r];
  }
}

/// Adds the constraint Jacobian blocks to sinks:
///   rows AE, cols ODE2:   factorCq(velocity ? gammaPrime : 1) * C_q   -> sinkCq.add(ae, ode2, v)
///   rows ODE2, cols AE:   factorCqT * C_q^T                            -> sinkCqT.add(ode2, ae, v)
///   rows AE, cols AE:     factorLambda (inactive constraints)          -> sinkCq.add(ae, -1 - ae, v)
/// The AE-AE entries are passed to sinkLambda.add(ae, ae, factorLambda).
template <class SinkCq, class SinkCqT, class SinkLambda>
MBS_HD void ComputeAEJacobian(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v, bool index2,
                              Real gammaPrime, Real factorCqT, Real factorLambda, SinkCq& sCq, SinkCqT& sCqT,
                              SinkLambda& sLambda) {
  ConstraintEval e;
  for (int k = 0; k < ConstraintNodeCount(L); ++k) {
    const int i = ConstraintNode(L, k);
    const NodeRecord nr = GetNodeRecord(L, i);
    NodeConstraintLocal(L, theta, q, v, i, index2, e);
    const Real fr = e.velocity ? gammaPrime : 1;
    for (int j = 0; j < e.nLocal; ++j) {
      const Real c = e.Cq[j];
      if (c == 0) continue;
      sCq.add(nr.aeBegin, nr.ode2Begin + j, fr * c);
      sCqT.add(nr.ode2Begin + j, nr.aeBegin, factorCqT * c);
    }
  }
  for (int k = 0; k < ConstraintObjectCount(L); ++k) {
    const int i = ConstraintObject(L, k);
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, index2, e);
    const Real fr = e.velocity ? gammaPrime : 1;
    for (int r = 0; r < e.nAE; ++r) {
      if (IsLambdaRow(e, r)) {
        sLambda.add(o.aeBegin + r, o.aeBegin + r, factorLambda);
        continue;
      }
      for (int j = 0; j < e.nLocal; ++j) {
        const Real c = e.Cq[r * e.nLocal + j];
        if (c == 0) continue;
        sCq.add(o.aeBegin + r, o.ltgODE2[j], fr * c);
        sCqT.add(o.ltgODE2[j], o.aeBegin + r, factorCqT * c);
      }
    }
  }
}

}  // namespace mbsweep
