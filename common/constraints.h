/// @file constraints.h
/// Host/device constraint equations C(q, t) = 0 (or velocity-level equations) and their
/// Jacobians C_q, for the generalized-alpha DAE integrator and the static solver.
///
/// Each constraint object owns nAE algebraic variables (Lagrange multipliers) starting at
/// ObjectRecord::aeBegin. The reaction forces enter the ODE2 equations as  -C_q^T lambda
/// on the right-hand side. An inactive constraint (activeConnector = false) has the
/// equations lambda = 0.
#pragma once

#include "common/system.h"

namespace mbsweep {

/// Largest number of equations of one constraint object.
constexpr int kMaxConstraintEquations = 6;

MBS_HD_INLINE bool IsConstraint(ObjectKind k) {
  return k == ObjectKind::ConnectorCoordinate || k == ObjectKind::ConnectorDistance ||
         k == ObjectKind::JointRevolute2D || k == ObjectKind::JointPrismatic2D;
}

/// Result of one constraint object's evaluation.
struct ConstraintEval {
  int nAE;          ///< number of equations
  int nLocal;       ///< number of local ODE2 coordinates (columns of Cq)
  bool active;      ///< false: equations are lambda = 0
  bool velocity;    ///< true: the equations are on velocity level (Jacobian factor gamma')
  Real C[kMaxConstraintEquations];
  Real Cq[kMaxConstraintEquations * kMaxConnectorCoords];  ///< row-major nAE x nLocal
};

namespace detail {
MBS_HD_INLINE void ZeroCq(ConstraintEval& e) {
  for (int i = 0; i < e.nAE * e.nLocal; ++i) e.Cq[i] = 0;
}
/// Cq row r += w^T * Jpos of a marker at local column offset off (sign s).
MBS_HD_INLINE void AddRowPos(ConstraintEval& e, int r, const Kinematics& k, const Vec3& w, int off, Real s) {
  for (int j = 0; j < k.n; ++j)
    e.Cq[r * e.nLocal + off + j] += s * (w[0] * k.Jpos[0][j] + w[1] * k.Jpos[1][j] + w[2] * k.Jpos[2][j]);
}
MBS_HD_INLINE void AddRowRot(ConstraintEval& e, int r, const Kinematics& k, const Vec3& w, int off, Real s) {
  for (int j = 0; j < k.n; ++j)
    e.Cq[r * e.nLocal + off + j] += s * (w[0] * k.Jrot[0][j] + w[1] * k.Jrot[1][j] + w[2] * k.Jrot[2][j]);
}
}  // namespace detail

/// Evaluates constraint object `obj`: equations (position level, or velocity level with
/// index2 or for velocity-level constraints) and the Jacobian with respect to its local
/// ODE2 coordinates.
MBS_HD_INLINE void ConstraintLocal(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                   int obj, bool index2, ConstraintEval& e) {
  const ObjectRecord o = GetObjectRecord(L, obj);
  const Real* p = theta + L.object[obj].theta;
  const ObjectKind kind = static_cast<ObjectKind>(L.object[obj].kind);
  e.nAE = o.nAE;
  e.nLocal = o.nLocalODE2;
  e.active = o.extra[2] != 0;
  e.velocity = index2;
  detail::ZeroCq(e);
  for (int i = 0; i < e.nAE; ++i) e.C[i] = 0;
  if (kind == ObjectKind::ConnectorCoordinate) {
    // p: offset, factorValue1, time-function parameters; extra: m0, m1, active, velocityLevel, tfType, tfLen
    const bool velocityLevel = o.extra[3] != 0;
    e.velocity = index2 || velocityLevel;
    Real q0, v0, q1, v1;
    MarkerCoordinate(L, q, v, nullptr, o.extra[0], q0, v0);
    MarkerCoordinate(L, q, v, nullptr, o.extra[1], q1, v1);
    const Real offset = p[0] * EvalTimeFunction(o.extra[4], o.extra[5], p + 2, t);
    const Real k1 = p[1];
    if (velocityLevel) {
      e.C[0] = k1 * v1 - v0 - offset;
    } else if (index2) {
      // time derivative of the offset by central differences of the time function
      const Real dt = 1e-7 * (t > 1 ? t : 1);
      const Real offT = p[0] * (EvalTimeFunction(o.extra[4], o.extra[5], p + 2, t + dt) -
                                EvalTimeFunction(o.extra[4], o.extra[5], p + 2, t - dt)) / (2 * dt);
      e.C[0] = k1 * v1 - v0 - offT;
    } else {
      e.C[0] = k1 * q1 - q0 - offset;
    }
    const int n0 = GetMarkerRecord(L, o.extra[0]).nCoords;
    if (n0) e.Cq[0] = -1;
    if (GetMarkerRecord(L, o.extra[1]).nCoords) e.Cq[n0] = k1;
    return;
  }
  Kinematics k0, k1;
  MarkerKinematics(L, theta, q, v, o.extra[0], k0);
  MarkerKinematics(L, theta, q, v, o.extra[1], k1);
  const int off1 = k0.n;
  const Vec3 dp = k1.pos - k0.pos;
  const Vec3 dv = k1.vel - k0.vel;
  switch (kind) {
    case ObjectKind::ConnectorDistance: {
      const Real len = Norm(dp);
      const Vec3 u = len > 0 ? (1. / len) * dp : MakeVec3(1, 0, 0);
      e.C[0] = index2 ? Dot(u, dv) : len - p[0];
      detail::AddRowPos(e, 0, k0, u, 0, -1);
      detail::AddRowPos(e, 0, k1, u, off1, 1);
      break;
    }
    case ObjectKind::JointRevolute2D: {
      for (int r = 0; r < 2; ++r) {
        e.C[r] = index2 ? dv[r] : dp[r];
        const Vec3 w = MakeVec3(r == 0, r == 1, 0);
        detail::AddRowPos(e, r, k0, w, 0, -1);
        detail::AddRowPos(e, r, k1, w, off1, 1);
      }
      break;
    }
    case ObjectKind::JointPrismatic2D: {
      // p: axisMarker0[3], normalMarker1[3]
      const Vec3 a = k0.A * LoadVec3(p);
      const Vec3 n = k1.A * LoadVec3(p + 3);
      // C0 = dp . n ; dC0 = n . (dp1 - dp0) + (n x dp) . dOmega1
      detail::AddRowPos(e, 0, k0, n, 0, -1);
      detail::AddRowPos(e, 0, k1, n, off1, 1);
      detail::AddRowRot(e, 0, k1, Cross(n, dp), off1, 1);
      if (e.nAE > 1) {
        // C1 = a . n ; dC1 = (a x n) . dOmega0 + (n x a) . dOmega1
        detail::AddRowRot(e, 1, k0, Cross(a, n), 0, 1);
        detail::AddRowRot(e, 1, k1, Cross(n, a), off1, 1);
      }
      if (index2) {  // C_t = Cq q_t
        for (int r = 0; r < e.nAE; ++r) {
          Real s = 0;
          for (int j = 0; j < k0.n; ++j) s += e.Cq[r * e.nLocal + j] * v[o.ltgODE2[j]];
          for (int j = 0; j < k1.n; ++j) s += e.Cq[r * e.nLocal + off1 + j] * v[o.ltgODE2[off1 + j]];
          e.C[r] = s;
        }
      } else {
        e.C[0] = Dot(dp, n);
        if (e.nAE > 1) e.C[1] = Dot(a, n);
      }
      break;
    }
    default: break;
  }
}

/// Adds the reaction forces -C_q^T lambda of all (active) constraints to the ODE2 vector f.
MBS_HD_INLINE void AddConstraintReactions(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                                          const Real* lambda, Real* f) {
  ConstraintEval e;
  for (int i = 0; i < L.nObjects; ++i) {
    if (!IsConstraint(static_cast<ObjectKind>(L.object[i].kind))) continue;
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, false, e);
    if (!e.active) continue;
    for (int j = 0; j < e.nLocal; ++j) {
      Real s = 0;
      for (int r = 0; r < e.nAE; ++r) s += e.Cq[r * e.nLocal + j] * lambda[o.aeBegin + r];
      f[o.ltgODE2[j]] -= s;
    }
  }
}

/// Algebraic equations of all constraints into c[nAE] (lambda for inactive ones).
MBS_HD_INLINE void ComputeAE(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                             const Real* lambda, bool index2, Real* c) {
  ConstraintEval e;
  for (int i = 0; i < L.nAE; ++i) c[i] = 0;
  for (int i = 0; i < L.nObjects; ++i) {
    if (!IsConstraint(static_cast<ObjectKind>(L.object[i].kind))) continue;
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, index2, e);
    for (int r = 0; r < e.nAE; ++r) c[o.aeBegin + r] = e.active ? e.C[r] : lambda[o.aeBegin + r];
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
  for (int i = 0; i < L.nObjects; ++i) {
    if (!IsConstraint(static_cast<ObjectKind>(L.object[i].kind))) continue;
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, index2, e);
    if (!e.active) {
      for (int r = 0; r < e.nAE; ++r) sLambda.add(o.aeBegin + r, o.aeBegin + r, factorLambda);
      continue;
    }
    const Real fr = e.velocity ? gammaPrime : 1;
    for (int r = 0; r < e.nAE; ++r)
      for (int j = 0; j < e.nLocal; ++j) {
        const Real c = e.Cq[r * e.nLocal + j];
        if (c == 0) continue;
        sCq.add(o.aeBegin + r, o.ltgODE2[j], fr * c);
        sCqT.add(o.ltgODE2[j], o.aeBegin + r, factorCqT * c);
      }
  }
}

}  // namespace mbsweep
