// The CPU batch runner (cpu/evaluator_cpu.h): a thread pool over systems; every system runs
// the host/device per-system integrator with a fixed-capacity LU.
#include "cpu/evaluator_cpu.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "common/batch_range.h"
#include "common/integrator_parameters.h"

namespace mbsweep {

BatchResult EvaluateSystemRanges(const BatchProblem& p, const std::string& backend, int threads,
                                 const SystemRangeRunner& run, const SystemRangeSwitch& then) {
  const auto t0 = std::chrono::steady_clock::now();
  BatchResult r = MakeEmptyResult(p, backend);
  std::vector<unsigned char> invalid(static_cast<size_t>(p.nSystems));
  for (size_t i = 0; i < invalid.size(); ++i) invalid[i] = p.rowErrors[i].empty() ? 0 : 1;
  SystemRangeArgs a;
  a.nSystems = p.nSystems;
  a.nTheta = p.ThetaSize();
  a.nValues = p.NumValues();
  a.explicitSolver = IsExplicitSolverType(p.solver) ? 1 : 0;
  a.alpha = ToGeneralizedAlphaParameters(p.settings, p.solver);
  a.rk = ToExplicitParameters(p.settings, p.solver);
  a.theta = p.theta.data();
  a.invalid = invalid.data();
  a.objectives = &p.objectives.set;
  a.signalData = p.objectives.Signal();
  a.signalRows = p.signalRows;
  a.signalStride = p.signalStride;
  a.signalWidth = p.SignalWidth();
  a.values = r.values.data();
  a.status = r.status.data();
  a.info = r.info.data();
  a.signals = r.signals.data();
  a.signalCount = r.signalCount.data();
  a.finished = p.finished;
  int next = 0;
  // systems [next, end) on `f`, on up to `threads` threads (each takes 8 systems at a time)
  auto runTo = [&](const SystemRangeRunner& f, int end) {
    a.nSystems = end;
    auto worker = [&]() { f(a, &next); };
    const int nThreads = std::min(threads, std::max(1, (end - next + 7) / 8));
    std::vector<std::thread> pool;
    for (int t = 1; t < nThreads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
    next = end;
  };
  auto seconds = [&t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  const int first = then ? std::max(kSwitchSliceGroups * 8 * threads, p.nSystems / kSwitchSlices) : p.nSystems;
  if (first < p.nSystems) {
    runTo(run, first);
    const SystemRangeRunner* rest = then(first, seconds());
    runTo(rest ? *rest : run, p.nSystems);
  } else {
    runTo(run, p.nSystems);
  }
  r.seconds = seconds();
  return r;
}

SystemRangeRunner InterpreterRunner(const LayoutView& L) {
  const int cap = BatchCapacityFor(L.nODE2 + L.nODE1 + L.nAE);
  return [L, cap](const SystemRangeArgs& a, int* next) {
    switch (cap) {
      case 8: return RunSystemRange<8>(L, a, next);
      case 16: return RunSystemRange<16>(L, a, next);
      case 32: return RunSystemRange<32>(L, a, next);
      case 64: return RunSystemRange<64>(L, a, next);
      default: return RunSystemRange<128>(L, a, next);
    }
  };
}

int ThreadsOrHardware(int threads) {
  return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

namespace {

class CpuEvaluator final : public Evaluator {
 public:
  explicit CpuEvaluator(const CpuEvaluatorOptions& o) : threads_(ThreadsOrHardware(o.threads)) {}
  std::string Name() const override { return "cpu"; }

  BatchResult Evaluate(const BatchProblem& p) override {
    CheckBatchProblem(p);
    return EvaluateSystemRanges(p, Name(), threads_, InterpreterRunner(p.layout->View()));
  }

 private:
  int threads_;
};

}  // namespace

std::unique_ptr<Evaluator> CreateCpuEvaluator(const CpuEvaluatorOptions& options) {
  return std::make_unique<CpuEvaluator>(options);
}

}  // namespace mbsweep
