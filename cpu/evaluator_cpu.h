/// @file evaluator_cpu.h
/// The CPU evaluator of the batch contract (common/batch.h): "cpu", a thread pool over the
/// systems of a batch, each system on the same fixed-capacity per-system integrator code the
/// CUDA kernels run (common/system_runner.h).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/batch.h"

namespace mbsweep {

/// Options of the CPU evaluator.
struct CpuEvaluatorOptions {
  int threads = 0;  ///< 0: all hardware threads
};

/// The CPU batch runner: a thread pool over systems, each system on the same fixed-capacity
/// per-system integrator code the CUDA kernels run.
std::unique_ptr<Evaluator> CreateCpuEvaluator(const CpuEvaluatorOptions& options = {});

/// Options of the `cpu-jit` evaluator (cpu/evaluator_cpu_jit.cpp).
struct CpuJitEvaluatorOptions {
  int threads = 0;  ///< 0: all hardware threads
  /// 0: compile the model for the first batch (`cpu-jit`). Above 0 (`auto` without a GPU): run
  /// the interpreter until its batches have taken this many seconds in all, then compile; a
  /// model found compiled already (this process, the disk cache) runs at once.
  double compileAfterSeconds = 0;
};

/// `auto`'s compileAfterSeconds on a machine without a GPU. Compiling a model takes 3-6 s (GCC
/// 12, the benchmark models: README) and its code runs 1.0-1.1x the interpreter's speed (a
/// 24,576-point slider-crank sweep on 2 threads: 55.4 s against 57.0 s), so a compilation pays
/// back only over minutes of batches. A run of the interpreter predicted to take less than
/// 120 s never compiles; one that compiles loses at most the compilation, under 5 % of it.
constexpr double kAutoCompileAfterSeconds = 120;

/// The `cpu-jit` evaluator: generates C++ for the batch's model (common/codegen.h), compiles it
/// with the system's C++ compiler into a shared object cached on disk (cpu/jit.h) and runs the
/// systems on it; without a usable compiler it runs the interpreter (`cpu`) and says so once on
/// stderr. Each BatchResult's backend names what ran it ("cpu-jit" or "cpu"). Name() is
/// "cpu-jit"; with compileAfterSeconds above 0 it lists what has run the batches so far, in
/// order ("cpu", "cpu-jit" or "cpu, then cpu-jit"; "auto" before the first batch, when what
/// will run is not decided yet).
std::unique_ptr<Evaluator> CreateCpuJitEvaluator(const CpuJitEvaluatorOptions& options = {});

struct SystemRangeArgs;
/// Runs the systems of a batch given as SystemRangeArgs on the calling thread (handing
/// them out through the shared counter, as RunSystemRange in common/batch_range.h).
using SystemRangeRunner = std::function<void(const SystemRangeArgs&, int* next)>;
/// Called once by EvaluateSystemRanges after the batch's first systems (`done` of them, in
/// `seconds`): the runner for the rest, or null to go on with the first.
using SystemRangeSwitch = std::function<const SystemRangeRunner*(int done, double seconds)>;
/// The first part of a batch that EvaluateSystemRanges runs before it asks a SystemRangeSwitch:
/// kSwitchSlices-th of the systems, at least kSwitchSliceGroups groups of 8 per thread.
constexpr int kSwitchSlices = 32;
constexpr int kSwitchSliceGroups = 8;
/// The CPU evaluators' common part, for a problem that passed CheckBatchProblem: builds the
/// result and the plain arguments, runs `run` on min(threads, groups of 8 systems) threads and
/// times it. With `then`, a batch larger than its first part runs that part on `run` and the
/// rest on what `then` returns.
BatchResult EvaluateSystemRanges(const BatchProblem& p, const std::string& backend, int threads,
                                 const SystemRangeRunner& run, const SystemRangeSwitch& then = {});
/// The `cpu` evaluator's runner for a layout: RunSystemRange with the capacity BatchCapacityFor
/// its unknowns.
SystemRangeRunner InterpreterRunner(const LayoutView& L);
/// `threads`, or the hardware's thread count for 0.
int ThreadsOrHardware(int threads);

}  // namespace mbsweep
