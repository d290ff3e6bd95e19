/// @file evaluators.h
/// Evaluators created by name: "cpu", "cuda" (fused kernels, when built with CUDA and a device
/// is present; the kernel mapping chosen by model size), "cuda-thread" and "cuda-warp" (the
/// same with the thread-per-system or the warp-per-system kernel forced, for comparisons),
/// "cuda-cublas" (the cuBLAS batched-factorization baseline, generalized-alpha only, same
/// conditions) and "auto" (cuda if available, else cpu).
#pragma once

#include <memory>
#include <string>

#include "cpu/batch.h"

namespace mbsweep {

struct EvaluatorOptions {
  int threads = 0;          ///< cpu: worker threads (0: all hardware threads)
  int device = 0;           ///< cuda: device ordinal
  int maxChunkSystems = 0;  ///< cuda: systems per launch (0: planned from device memory)
};

/// Creates an evaluator by name; throws ValidationError for an unknown name or an
/// unavailable backend (naming why, e.g. "no usable CUDA device (...)").
std::unique_ptr<Evaluator> CreateEvaluator(const std::string& name, const EvaluatorOptions& options = {});

/// True if this build has the CUDA backend and a device is usable (why: the reason if not).
bool CudaAvailable(std::string* why = nullptr);

}  // namespace mbsweep
