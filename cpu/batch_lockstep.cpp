// The lockstep batch on the host: every valid system of the batch is built in place, the
// host driver advances all of them phase by phase, and the results are collected as the CPU
// batch runner collects them.
#include "cpu/batch_lockstep.h"

#include <chrono>
#include <memory>
#include <type_traits>
#include <vector>

#include "common/objectives.h"
#include "cpu/solver_internal.h"

namespace mbsweep {

BatchResult EvaluateLockstepOnHost(const BatchProblem& p, LockstepStatistics* stats) {
  CheckBatchProblem(p);
  if (IsExplicitSolverType(p.solver))
    throw ValidationError(std::string("lockstep batch: DynamicSolverType ") + DynamicSolverTypeName(p.solver) +
                          " is explicit; the lockstep (batched-factorization) path runs GeneralizedAlpha only");
  const auto t0 = std::chrono::steady_clock::now();
  BatchResult r = MakeEmptyResult(p, "cpu-lockstep");
  const GeneralizedAlphaParameters P = ToGeneralizedAlphaParameters(p.settings, p.solver);
  const LayoutView L = p.layout->View();
  const int n = L.nODE2 + L.nODE1 + L.nAE;
  const size_t nt = static_cast<size_t>(p.ThetaSize());
  const int nv = p.NumValues();
  const size_t workSize = static_cast<size_t>(GeneralizedAlphaWorkSize(L)) + 1;

  using System = LockstepSystem<ObjectiveObserver<>>;
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
  HostBatchLU lu(static_cast<int>(m), n);
  const LockstepStatistics s = RunLockstepOnHost(systems.data(), static_cast<int>(m), lu);
  if (stats) *stats = s;

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

}  // namespace mbsweep
