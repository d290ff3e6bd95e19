// The `cpu-jit` evaluator (cpu/evaluator_cpu.h): the batch loop of the `cpu` evaluator, run on
// code generated and compiled for the batch's model (cpu/jit.h); `auto` without a GPU is the same
// evaluator with compileAfterSeconds.
#include <chrono>
#include <cstdio>

#include "common/batch_range.h"
#include "cpu/evaluator_cpu.h"
#include "cpu/jit.h"

namespace mbsweep {

namespace {

SystemRangeRunner CompiledRunner(const std::shared_ptr<const CompiledModel>& model) {
  return [model](const SystemRangeArgs& a, int* next) { model->run(&a, next); };
}

class CpuJitEvaluator final : public Evaluator {
 public:
  explicit CpuJitEvaluator(const CpuJitEvaluatorOptions& o)
      : threads_(ThreadsOrHardware(o.threads)), compileAfter_(o.compileAfterSeconds) {}
  std::string Name() const override {
    if (compileAfter_ <= 0) return "cpu-jit";
    return ran_.empty() ? "auto" : ran_;
  }

  /// The result's seconds include finding (or compiling) the model, as BatchResult::seconds is
  /// the wall time of Evaluate.
  BatchResult Evaluate(const BatchProblem& p) override {
    CheckBatchProblem(p);  // before a compilation: bad input is refused at once
    const auto t0 = std::chrono::steady_clock::now();
    std::shared_ptr<const CompiledModel> model;
    if (!failed_)
      model = interpretedSeconds_ >= compileAfter_ ? Compile(p) : FindCompiledModel(*p.layout, p.objectives.set.count);
    BatchResult r;
    if (model) {
      r = EvaluateSystemRanges(p, "cpu-jit", threads_, CompiledRunner(model));
    } else {
      // the interpreter; unless a compilation failed (`auto`), the batch's first part on it and
      // the rest on compiled code if the interpreter's batches, this one's done and predicted
      // part included, reach compileAfter_
      SystemRangeRunner compiled;
      double interpreted = -1;
      SystemRangeSwitch then;
      if (!failed_)
        then = [&](int done, double seconds) -> const SystemRangeRunner* {
          interpreted = seconds;
          const double predicted = seconds / done * (p.nSystems - done);
          if (interpretedSeconds_ + seconds + predicted < compileAfter_) return nullptr;
          model = Compile(p);
          if (!model) return nullptr;
          compiled = CompiledRunner(model);
          return &compiled;
        };
      r = EvaluateSystemRanges(p, "cpu", threads_, InterpreterRunner(p.layout->View()), then);
      interpretedSeconds_ += model ? interpreted : r.seconds;
      if (model) {
        Ran("cpu");
        r.backend = "cpu, then cpu-jit";
      }
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    Ran(model ? "cpu-jit" : "cpu");
    return r;
  }

 private:
  /// CompileModel; on failure says why once on stderr and runs the interpreter from then on.
  std::shared_ptr<const CompiledModel> Compile(const BatchProblem& p) {
    std::string why;
    auto model = CompileModel(*p.layout, p.objectives.set.count, &why);
    if (!model) {
      std::fprintf(stderr, "mbsweep: %s runs the interpreter (cpu): %s\n", compileAfter_ > 0 ? "auto" : "cpu-jit",
                   why.c_str());
      failed_ = true;
    }
    return model;
  }
  /// Appends what ran a batch to ran_ if the batch before ran on something else.
  void Ran(const std::string& backend) {
    if (backend != last_) ran_ += (ran_.empty() ? "" : ", then ") + backend;
    last_ = backend;
  }

  int threads_;
  double compileAfter_;            ///< CpuJitEvaluatorOptions::compileAfterSeconds
  double interpretedSeconds_ = 0;  ///< what the interpreter has run so far
  bool failed_ = false;            ///< a compilation failed (or no compiler): the interpreter runs
  std::string ran_;                ///< what ran the batches so far ("cpu, then cpu-jit")
  std::string last_;               ///< what ran the last batch
};

}  // namespace

std::unique_ptr<Evaluator> CreateCpuJitEvaluator(const CpuJitEvaluatorOptions& options) {
  return std::make_unique<CpuJitEvaluator>(options);
}

}  // namespace mbsweep
