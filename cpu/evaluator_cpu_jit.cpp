// The `cpu-jit` evaluator (cpu/evaluator_cpu.h): the batch loop of the `cpu` evaluator, run on
// code generated and compiled for the batch's model (cpu/jit.h).
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

  BatchResult Evaluate(const BatchProblem& p) override {
    CheckBatchProblem(p);
    std::string why;
    const std::shared_ptr<const CompiledModel> model = CompileModel(*p.layout, &why);
    if (!model) {
      if (!noticed_) std::fprintf(stderr, "mbsweep: cpu-jit runs the interpreter (cpu): %s\n", why.c_str());
      noticed_ = true;
      return Interpreter().Evaluate(p);
    }
    return EvaluateSystemRanges(p, Name(), threads_,
                                [&model](const SystemRangeArgs& a, int* next) { model->run(&a, next); });
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
