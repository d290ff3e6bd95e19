/// @file evaluator_cpu.h
/// The CPU evaluator of the batch contract (common/batch.h): "cpu", a thread pool over the
/// systems of a batch, each system on the same fixed-capacity per-system integrator code the
/// CUDA kernels run (common/system_runner.h).
#pragma once

#include <memory>

#include "common/batch.h"

namespace mbsweep {

/// Options of the CPU evaluator.
struct CpuEvaluatorOptions {
  int threads = 0;  ///< 0: all hardware threads
};

/// The CPU batch runner: a thread pool over systems, each system on the same fixed-capacity
/// per-system integrator code the CUDA kernels run.
std::unique_ptr<Evaluator> CreateCpuEvaluator(const CpuEvaluatorOptions& options = {});

}  // namespace mbsweep
