/// @file system_runner.h
/// Host/device helpers that run one system of a batch: workspace layout, initial state from
/// a theta row, and the generalized-alpha run with a fixed-capacity LU (the same per-system
/// code on the CPU batch runner and in the CUDA kernels).
#pragma once

#include "common/dense_lu.h"
#include "common/explicit_rk.h"
#include "common/generalized_alpha.h"

namespace mbsweep {

/// Capacities (unknowns n = nODE2 + nODE1 + nAE) the batch path is compiled for: 8, 16,
/// 32, 64 and 128 (the CPU batch runner); the CUDA evaluator's thread-per-system kernel goes
/// up to 64, its warp-per-system kernel (generalized-alpha) up to 128.
constexpr int kMaxBatchCapacity = 128;

/// Smallest batch capacity >= n, or 0 if n exceeds the largest.
MBS_HD_INLINE constexpr int BatchCapacityFor(int n) {
  return n <= 8 ? 8 : n <= 16 ? 16 : n <= 32 ? 32 : n <= 64 ? 64 : n <= kMaxBatchCapacity ? 128 : 0;
}

/// Number of Reals of the generalized-alpha workspace of one system.
MBS_HD_INLINE int GeneralizedAlphaWorkSize(const LayoutView& L) {
  const int n2 = L.nODE2, n1 = L.nODE1, nA = L.nAE;
  return 11 * n2 + 4 * n1 + 3 * nA + 2 * (n2 + n1 + nA);
}
/// Upper bound of GeneralizedAlphaWorkSize for n unknowns (for fixed-size device buffers).
MBS_HD_INLINE constexpr int GeneralizedAlphaWorkBound(int n) { return 14 * n; }

/// Points the workspace arrays into buf (GeneralizedAlphaWorkSize(L) Reals, zeroed by caller).
MBS_HD_INLINE void MakeGeneralizedAlphaWork(const LayoutView& L, Real* buf, GeneralizedAlphaWork& w) {
  const int n2 = L.nODE2, n1 = L.nODE1, nA = L.nAE, N = n2 + n1 + nA;
  Real* p = buf;
  auto take = [&p](int n) {
    Real* r = p;
    p += n;
    return r;
  };
  w.q = take(n2);
  w.v = take(n2);
  w.a = take(n2);
  w.aAlg = take(n2);
  w.lambda = take(nA);
  w.y = take(n1);
  w.yt = take(n1);
  w.qn = take(n2);
  w.vn = take(n2);
  w.an = take(n2);
  w.aAlgN = take(n2);
  w.yn = take(n1);
  w.ytn = take(n1);
  w.res = take(N);
  w.delta = take(N);
  w.f2 = take(n2);
  w.fConstant = take(n2);
  w.massDiagonal = take(n2);
  w.ae = take(nA);
  w.ae2 = take(nA);
}

/// Initial coordinates and velocities from a theta row (each node's initialCoordinates and
/// initialVelocities); accelerations are left to the integrator.
MBS_HD_INLINE void InitialStateFromTheta(const LayoutView& L, const Real* theta, Real* q, Real* v, Real* y) {
  for (int i = 0; i < L.nNodes; ++i) {
    const NodeRecord r = GetNodeRecord(L, i);
    const Real* p = theta + L.node[i].theta;
    for (int k = 0; k < r.nODE2; ++k) {
      q[r.ode2Begin + k] = p[r.nODE2 + k];
      v[r.ode2Begin + k] = p[2 * r.nODE2 + k];
    }
    for (int k = 0; k < r.nODE1; ++k) y[r.ode1Begin + k] = p[r.nODE1 + k];
  }
}

/// Runs the generalized-alpha integrator for one system with a FixedLU<Capacity> (Exact: the
/// unknowns are exactly Capacity, code generated for one model):
/// `work` holds GeneralizedAlphaWorkSize(L) Reals, `la` is the system's matrix storage.
template <int Capacity, class Observer, bool Exact = false>
MBS_HD SolveInfo RunGeneralizedAlphaSystem(const LayoutView& L, const Real* theta, const GeneralizedAlphaParameters& P,
                                           Real* work, FixedLU<Capacity, Real, Exact>& la, Observer& obs) {
  const int size = GeneralizedAlphaWorkSize(L);
  MBS_UNROLL for (int i = 0; i < size; ++i) work[i] = 0;
  GeneralizedAlphaWork w;
  MakeGeneralizedAlphaWork(L, work, w);
  InitialStateFromTheta(L, theta, w.q, w.v, w.y);
  la.Resize(L.nODE2 + L.nODE1 + L.nAE);
  GeneralizedAlpha<FixedLU<Capacity, Real, Exact>, Observer> ga(L, theta, P, w, la, obs);
  return ga.Run();
}

/// Upper bound of ExplicitWorkSize for n = nODE2 + nODE1 <= capacity (7 stages, embedded).
MBS_HD_INLINE constexpr int ExplicitWorkBound(int n) { return 36 * n; }

/// Runs an explicit integrator for one system; `la` holds the mass matrix (nODE2 x nODE2),
/// `work` ExplicitWorkSize(type, nODE2, nODE1) Reals.
template <int Capacity, class Observer, bool Exact = false>
MBS_HD SolveInfo RunExplicitSystem(const LayoutView& L, const Real* theta, const ExplicitParameters& P, Real* work,
                                   FixedLU<Capacity, Real, Exact>& la, Observer& obs) {
  const int n2 = L.nODE2, n1 = L.nODE1;
  const int size = ExplicitWorkSize(P.solverType, n2, n1);
  for (int i = 0; i < size; ++i) work[i] = 0;
  ExplicitWork w = MakeExplicitWork(P.solverType, n2, n1, work);
  InitialStateFromTheta(L, theta, w.Y, w.Y + n2, w.Y + 2 * n2);
  la.Resize(n2);
  ExplicitIntegrator<FixedLU<Capacity, Real, Exact>, Observer> integrator(L, theta, P, w, la, obs);
  return integrator.Run();
}

}  // namespace mbsweep
