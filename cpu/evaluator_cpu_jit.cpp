// The `cpu-jit` evaluator (cpu/evaluator_cpu.h): the batch loop of the `cpu` evaluator, run on
// code generated and compiled for the batch's model (cpu/jit.h).
#include <chrono>
#include <cstdio>

#include "common/batch_range.h"
#include "cpu/evaluator_cpu.h"
#include "cpu/jit.h"

namespace mbsweep {

namespace {

class CpuJitEvaluator final : public Evaluator {
 public:
  explicit CpuJitEvaluator(const CpuJitEvaluatorOptions& o) : threads_(ThreadsOrHardware(o.threads)) {}
  std::string Name() const override { return "cpu-jit"; }

  /// The result's seconds include finding (or compiling) the model, as BatchResult::seconds is
  /// the wall time of Evaluate.
  BatchResult Evaluate(const BatchProblem& p) override {
    CheckBatchProblem(p);  // before a compilation: bad input is refused at once
    const auto t0 = std::chrono::steady_clock::now();
    std::string why;
    const std::shared_ptr<const CompiledModel> model = CompileModel(*p.layout, p.objectives.set.count, &why);
    BatchResult r;
    if (model) {
      r = EvaluateSystemRanges(p, Name(), threads_,
                               [&model](const SystemRangeArgs& a, int* next) { model->run(&a, next); });
    } else {
      if (!noticed_) std::fprintf(stderr, "mbsweep: cpu-jit runs the interpreter (cpu): %s\n", why.c_str());
      noticed_ = true;
      r = Interpreter().Evaluate(p);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

 private:
  Evaluator& Interpreter() {
    if (!interpreter_) {
      CpuEvaluatorOptions o;
      o.threads = threads_;
      interpreter_ = CreateCpuEvaluator(o);
    }
    return *interpreter_;
  }

  int threads_;
  bool noticed_ = false;
  std::unique_ptr<Evaluator> interpreter_;
};

}  // namespace

std::unique_ptr<Evaluator> CreateCpuJitEvaluator(const CpuJitEvaluatorOptions& options) {
  return std::make_unique<CpuJitEvaluator>(options);
}

}  // namespace mbsweep
