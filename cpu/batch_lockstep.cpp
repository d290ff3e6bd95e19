// The lockstep batch on the host: every valid system of the batch is built in place, the
// host driver advances all of them phase by phase (or, for the team batch, one after the
// other with an emulated team), and the results are collected as the CPU batch runner
// collects them.
#include "cpu/batch_lockstep.h"

#include <chrono>
#include <memory>
#include <type_traits>
#include <vector>

#include "common/integrator_parameters.h"
#include "common/objectives.h"

namespace mbsweep {

namespace {

/// Builds every valid system of the batch in place (one workspace and one n x n slot each),
/// lets `run(systems, count, work, matrices, workSize)` drive them all to the end, and
/// collects the results as the CPU batch runner does.
template <class SlotLA, class Run>
BatchResult EvaluateSystemsOnHost(const BatchProblem& p, const char* backend, const char* path, Run run) {
  CheckBatchProblem(p);
  if (IsExplicitSolverType(p.solver))
    throw ValidationError(std::string(path) + ": DynamicSolverType " + DynamicSolverTypeName(p.solver) +
                          " is explicit; the lockstep (batched-factorization) path runs GeneralizedAlpha only");
  const auto t0 = std::chrono::steady_clock::now();
  BatchResult r = MakeEmptyResult(p, backend);
  const GeneralizedAlphaParameters P = ToGeneralizedAlphaParameters(p.settings, p.solver);
  const LayoutView L = p.layout->View();
  const int n = L.nODE2 + L.nODE1 + L.nAE;
  const size_t nt = static_cast<size_t>(p.ThetaSize());
  const int nv = p.NumValues();
  const size_t workSize = static_cast<size_t>(GeneralizedAlphaWorkSize(L)) + 1;

  using System = LockstepSystem<ObjectiveObserver<>, SlotLA>;
  using Storage = std::aligned_storage_t<sizeof(System), alignof(System)>;
  std::vector<int> ids;  // valid systems, in batch order
  for (int i = 0; i < p.nSystems; ++i)
    if (p.rowErrors[static_cast<size_t>(i)].empty())
      ids.push_back(i);
    else
      r.status[static_cast<size_t>(i)] = SolveStatus::invalid_parameter;
  const size_t m = ids.size();
  std::vector<Real> work(m * workSize), matrices(m * static_cast<size_t>(n) * static_cast<size_t>(n));
  std::unique_ptr<Storage[]> storage(new Storage[m > 0 ? m : 1]);
  std::vector<System*> systems(m);
  for (size_t k = 0; k < m; ++k) {
    const size_t i = static_cast<size_t>(ids[k]);
    const Real* theta = p.theta.data() + i * nt;
    ObjectiveObserver<> obs(L, theta, p.objectives.set, p.objectives.Signal());
    if (p.signalRows > 0) {
      obs.signalOut = r.signals.data() + i * static_cast<size_t>(p.signalRows) * static_cast<size_t>(p.SignalWidth());
      obs.signalCapacity = p.signalRows;
      obs.signalStride = p.signalStride;
    }
    systems[k] = new (&storage[k]) System(L, theta, P, work.data() + k * workSize,
                                          matrices.data() + k * static_cast<size_t>(n) * static_cast<size_t>(n), obs);
  }
  run(systems.data(), static_cast<int>(m), work.data(), matrices.data(), workSize);

  for (size_t k = 0; k < m; ++k) {
    const size_t i = static_cast<size_t>(ids[k]);
    System& sys = *systems[k];
    const SolveInfo& info = sys.ga.Info();
    r.info[i] = info;
    r.status[i] = info.status;
    if (p.signalRows > 0) r.signalCount[i] = sys.obs.signalRows;
    if (info.status == SolveStatus::ok) sys.obs.Finalize(r.values.data() + i * static_cast<size_t>(nv));
    sys.~System();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

BatchResult EvaluateLockstepOnHost(const BatchProblem& p, LockstepStatistics* stats) {
  return EvaluateSystemsOnHost<BatchSlotLA>(
      p, "cpu-lockstep", "lockstep batch",
      [&](LockstepSystem<ObjectiveObserver<>>* const* systems, int m, Real*, Real*, size_t) {
        const LayoutView L = p.layout->View();
        HostBatchLU lu(m, L.nODE2 + L.nODE1 + L.nAE);
        const LockstepStatistics s = RunLockstepOnHost(systems, m, lu);
        if (stats) *stats = s;
      });
}

BatchResult EvaluateTeamOnHost(const BatchProblem& p, int teamSize) {
  return EvaluateSystemsOnHost<RowMajorSlotLA>(
      p, "cpu-team", "team batch",
      [&](LockstepSystem<ObjectiveObserver<>, RowMajorSlotLA>* const* systems, int m, Real* work, Real* matrices,
          size_t workSize) {
        const LayoutView L = p.layout->View();
        const size_t n = static_cast<size_t>(L.nODE2 + L.nODE1 + L.nAE);
        std::vector<int> piv(n);
        std::vector<Real> invDiag(n), inverse(n * static_cast<size_t>(InverseRows(static_cast<int>(n))));
        EmulatedTeam team(teamSize);
        for (int k = 0; k < m; ++k)
          RunLockstepSystemWithTeam(team, systems[k], L, work + static_cast<size_t>(k) * workSize,
                                    matrices + static_cast<size_t>(k) * n * n, piv.data(), invDiag.data(),
                                    inverse.data());
      });
}

}  // namespace mbsweep
