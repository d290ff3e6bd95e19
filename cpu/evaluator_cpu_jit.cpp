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
  explicit CpuJitEvaluator(const CpuJitEvaluatorOptions& o)
      : threads_(ThreadsOrHardware(o.threads)), compileAfter_(o.compileAfterSeconds) {}
  std::string Name() const override {
    if (compileAfter_ <= 0) return "cpu-jit";
    return ran_.empty() ? "cpu" : ran_;
  }

  /// The result's seconds include finding (or compiling) the model, as BatchResult::seconds is
  /// the wall time of Evaluate.
  BatchResult Evaluate(const BatchProblem& p) override {
    CheckBatchProblem(p);  // before a compilation: bad input is refused at once
    const auto t0 = std::chrono::steady_clock::now();
    std::string why;
    const int objectives = p.objectives.set.count;
    const bool compile = interpretedSeconds_ >= compileAfter_;
    const std::shared_ptr<const CompiledModel> model =
        compile ? CompileModel(*p.layout, objectives, &why) : FindCompiledModel(*p.layout, objectives);
    BatchResult r;
    if (model) {
      r = EvaluateSystemRanges(p, "cpu-jit", threads_,
                               [&model](const SystemRangeArgs& a, int* next) { model->run(&a, next); });
    } else {
      if (compile && !noticed_)
        std::fprintf(stderr, "mbsweep: %s runs the interpreter (cpu): %s\n", compileAfter_ > 0 ? "auto" : "cpu-jit",
                     why.c_str());
      noticed_ = noticed_ || compile;
      r = Interpreter().Evaluate(p);
      interpretedSeconds_ += r.seconds;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r.backend != last_) ran_ += (ran_.empty() ? "" : ", then ") + r.backend;
    last_ = r.backend;
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
  double compileAfter_;            ///< CpuJitEvaluatorOptions::compileAfterSeconds
  double interpretedSeconds_ = 0;  ///< the interpreter's batches so far
  std::string ran_;                ///< what ran the batches so far ("cpu, then cpu-jit")
  std::string last_;               ///< what ran the last batch
  bool noticed_ = false;
  std::unique_ptr<Evaluator> interpreter_;
};

}  // namespace

std::unique_ptr<Evaluator> CreateCpuJitEvaluator(const CpuJitEvaluatorOptions& options) {
  return std::make_unique<CpuJitEvaluator>(options);
}

}  // namespace mbsweep
