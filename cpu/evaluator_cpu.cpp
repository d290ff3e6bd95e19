// The CPU batch runner (cpu/evaluator_cpu.h): a thread pool over systems; every system runs
// the host/device per-system integrator with a fixed-capacity LU.
#include "cpu/evaluator_cpu.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "common/integrator_parameters.h"
#include "common/objectives.h"
#include "common/system_runner.h"

namespace mbsweep {

namespace {

/// Runs systems [begin, end) with capacity C on one thread.
template <int C>
void RunRange(const BatchProblem& p, const GeneralizedAlphaParameters& P, const ExplicitParameters& E,
              std::atomic<int>& next, BatchResult& r) {
  const LayoutView L = p.layout->View();
  const size_t nt = static_cast<size_t>(p.ThetaSize());
  const int nv = p.NumValues();
  const bool explicitSolver = IsExplicitSolverType(p.solver);
  std::vector<Real> work(static_cast<size_t>(explicitSolver ? ExplicitWorkSize(p.solver, L.nODE2, L.nODE1)
                                                            : GeneralizedAlphaWorkSize(L)) + 1);
  auto la = std::make_unique<FixedLU<C>>();
  constexpr int kChunk = 8;
  for (;;) {
    const int begin = next.fetch_add(kChunk);
    if (begin >= p.nSystems) return;
    const int end = std::min(begin + kChunk, p.nSystems);
    for (int i = begin; i < end; ++i) {
      Real* values = r.values.data() + static_cast<size_t>(i) * static_cast<size_t>(nv);
      if (!p.rowErrors[static_cast<size_t>(i)].empty()) {
        r.status[static_cast<size_t>(i)] = SolveStatus::invalid_parameter;
        continue;
      }
      const Real* theta = p.theta.data() + static_cast<size_t>(i) * nt;
      ObjectiveObserver<> obs(L, theta, p.objectives.set, p.objectives.Signal());
      if (p.signalRows > 0) {
        obs.signalOut = r.signals.data() + static_cast<size_t>(i) * static_cast<size_t>(p.signalRows) *
                                               static_cast<size_t>(p.SignalWidth());
        obs.signalCapacity = p.signalRows;
        obs.signalStride = p.signalStride;
      }
      const SolveInfo info = explicitSolver ? RunExplicitSystem<C>(L, theta, E, work.data(), *la, obs)
                                            : RunGeneralizedAlphaSystem<C>(L, theta, P, work.data(), *la, obs);
      r.info[static_cast<size_t>(i)] = info;
      r.status[static_cast<size_t>(i)] = info.status;
      if (p.signalRows > 0) r.signalCount[static_cast<size_t>(i)] = obs.signalRows;
      if (info.status == SolveStatus::ok) obs.Finalize(values);  // the row's nv values
    }
  }
}

class CpuEvaluator final : public Evaluator {
 public:
  explicit CpuEvaluator(const CpuEvaluatorOptions& o) : threads_(o.threads) {
    if (threads_ <= 0) threads_ = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  std::string Name() const override { return "cpu"; }

  BatchResult Evaluate(const BatchProblem& p) override {
    CheckBatchProblem(p);
    const auto t0 = std::chrono::steady_clock::now();
    BatchResult r = MakeEmptyResult(p, Name());
    const GeneralizedAlphaParameters P = ToGeneralizedAlphaParameters(p.settings, p.solver);
    const ExplicitParameters E = ToExplicitParameters(p.settings, p.solver);
    const LayoutView L = p.layout->View();
    const int cap = BatchCapacityFor(L.nODE2 + L.nODE1 + L.nAE);
    std::atomic<int> next{0};
    auto worker = [&]() {
      switch (cap) {
        case 8: RunRange<8>(p, P, E, next, r); break;
        case 16: RunRange<16>(p, P, E, next, r); break;
        case 32: RunRange<32>(p, P, E, next, r); break;
        case 64: RunRange<64>(p, P, E, next, r); break;
        default: RunRange<128>(p, P, E, next, r); break;
      }
    };
    const int nThreads = std::min(threads_, std::max(1, (p.nSystems + 7) / 8));
    std::vector<std::thread> pool;
    for (int t = 1; t < nThreads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

 private:
  int threads_;
};

}  // namespace

std::unique_ptr<Evaluator> CreateCpuEvaluator(const CpuEvaluatorOptions& options) {
  return std::make_unique<CpuEvaluator>(options);
}

}  // namespace mbsweep
