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
};

/// The `cpu-jit` evaluator: generates C++ for the batch's model (common/codegen.h), compiles it
/// with the system's C++ compiler into a shared object cached on disk (cpu/jit.h) and runs the
/// systems on it; without a usable compiler it runs the interpreter (`cpu`) and says so once on
/// stderr.
std::unique_ptr<Evaluator> CreateCpuJitEvaluator(const CpuJitEvaluatorOptions& options = {});

struct SystemRangeArgs;
/// Runs the systems of a batch given as SystemRangeArgs on the calling thread (handing
/// them out through the shared counter, as RunSystemRange in common/batch_range.h).
using SystemRangeRunner = std::function<void(const SystemRangeArgs&, int* next)>;
/// The CPU evaluators' common part, for a problem that passed CheckBatchProblem: builds the
/// result and the plain arguments, runs `run` on min(threads, groups of 8 systems) threads and
/// times it.
BatchResult EvaluateSystemRanges(const BatchProblem& p, const std::string& backend, int threads,
                                 const SystemRangeRunner& run);
/// `threads`, or the hardware's thread count for 0.
int ThreadsOrHardware(int threads);

}  // namespace mbsweep
