/// @file batch_range.h
/// Host only: the CPU batch runners' loop over the systems of a batch, written once for the
/// `cpu` evaluator (a layout read at run time, a capacity from BatchCapacityFor) and for the
/// code the `cpu-jit` evaluator generates and compiles per model (common/codegen.h: the same
/// loop on a constexpr layout with the exact number of unknowns as capacity). The arguments
/// are plain data, so that they cross from the program into a compiled model's shared object.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/objectives.h"
#include "common/system_runner.h"

namespace mbsweep {

/// One batch as the per-system loop sees it: plain pointers into a BatchProblem and its
/// BatchResult (common/batch.h), and the integrators' parameters.
struct SystemRangeArgs {
  int nSystems = 0;
  int nTheta = 0;                          ///< length of a theta row
  int nValues = 0;                         ///< values per system
  int explicitSolver = 0;                  ///< 1: RunExplicitSystem, 0: generalized-alpha
  GeneralizedAlphaParameters alpha{};      ///< for the generalized-alpha family
  ExplicitParameters rk{};                 ///< for the explicit solvers
  const Real* theta = nullptr;             ///< nSystems x nTheta
  const unsigned char* invalid = nullptr;  ///< per system: 1 = row error, not evaluated
  const ObjectiveSet* objectives = nullptr;
  const Real* signalData = nullptr;                       ///< measured signals of the objectives (null: none)
  int signalRows = 0, signalStride = 1, signalWidth = 0;  ///< decimated signals (0 rows: none)
  Real* values = nullptr;                                 ///< nSystems x nValues
  SolveStatus* status = nullptr;                          ///< per system
  SolveInfo* info = nullptr;                              ///< per system
  Real* signals = nullptr;                                ///< nSystems x signalRows x signalWidth
  int* signalCount = nullptr;                             ///< per system
  std::atomic<std::uint64_t>* finished = nullptr;         ///< systems finished so far (null: not counted)
};

/// A fingerprint of the plain data that crosses into a compiled model (checked when one is
/// loaded: a shared object built against other definitions is refused).
constexpr unsigned long long kSystemRangeAbi = sizeof(SystemRangeArgs) ^
                                               (static_cast<unsigned long long>(sizeof(ObjectiveSet)) << 16) ^
                                               (static_cast<unsigned long long>(sizeof(SolveInfo)) << 32) ^
                                               (static_cast<unsigned long long>(sizeof(LayoutView)) << 48);

/// Runs systems of `a` on the calling thread until the shared counter `next` (systems handed
/// out in groups of 8, atomically) passes nSystems. The LU has capacity C >= the unknowns of the
/// solver (nODE2 + nODE1 + nAE for generalized-alpha, nODE2 for the explicit solvers' mass
/// matrix); Exact (code generated for one model): C is exactly that number, CRK for the explicit
/// solvers.
template <int C, bool Exact = false, int CRK = C>
void RunSystemRange(const LayoutView& L, const SystemRangeArgs& a, int* next) {
  const size_t nt = static_cast<size_t>(a.nTheta);
  std::vector<Real> work(static_cast<size_t>(a.explicitSolver ? ExplicitWorkSize(a.rk.solverType, L.nODE2, L.nODE1)
                                                              : GeneralizedAlphaWorkSize(L)) +
                         1);
  std::unique_ptr<FixedLU<C, Real, Exact>> la;
  std::unique_ptr<FixedLU<CRK, Real, Exact>> laRK;
  if (a.explicitSolver) laRK = std::make_unique<FixedLU<CRK, Real, Exact>>();
  else la = std::make_unique<FixedLU<C, Real, Exact>>();
  constexpr int kGroup = 8;
  for (;;) {
    const int begin = __atomic_fetch_add(next, kGroup, __ATOMIC_RELAXED);
    if (begin >= a.nSystems) return;
    const int end = begin + kGroup < a.nSystems ? begin + kGroup : a.nSystems;
    for (int i = begin; i < end; ++i) {
      const size_t s = static_cast<size_t>(i);
      if (a.invalid[s]) {
        a.status[s] = SolveStatus::invalid_parameter;
        continue;
      }
      const Real* theta = a.theta + s * nt;
      ObjectiveObserver<> obs(L, theta, *a.objectives, a.signalData);
      if (a.signalRows > 0) {
        obs.signalOut = a.signals + s * static_cast<size_t>(a.signalRows) * static_cast<size_t>(a.signalWidth);
        obs.signalCapacity = a.signalRows;
        obs.signalStride = a.signalStride;
      }
      const SolveInfo info =
          a.explicitSolver
              ? RunExplicitSystem<CRK, ObjectiveObserver<>, Exact>(L, theta, a.rk, work.data(), *laRK, obs)
              : RunGeneralizedAlphaSystem<C, ObjectiveObserver<>, Exact>(L, theta, a.alpha, work.data(), *la, obs);
      a.info[s] = info;
      a.status[s] = info.status;
      if (a.signalRows > 0) a.signalCount[s] = obs.signalRows;
      if (info.status == SolveStatus::ok) obs.Finalize(a.values + s * static_cast<size_t>(a.nValues));
    }
    if (a.finished) a.finished->fetch_add(static_cast<std::uint64_t>(end - begin), std::memory_order_relaxed);
  }
}

}  // namespace mbsweep
