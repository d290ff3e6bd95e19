/// @file evaluator_cuda.h
/// The CUDA batch evaluators. "cuda": one fused kernel per chunk integrates the whole time span of
/// every system (generalized-alpha with Newton and an in-kernel fixed-capacity LU with
/// partial pivoting, objectives reduced in the kernel); only theta rows go in and objective
/// values, statuses and counters come out. Host-only header (no CUDA types).
#pragma once

#include <memory>
#include <string>

#include "cpu/batch.h"

namespace mbsweep {

/// Launch and memory options of the CUDA evaluator.
struct CudaEvaluatorOptions {
  int device = 0;
  /// Largest number of systems per kernel launch (0: planned from free device memory).
  int maxChunkSystems = 0;
  /// Fraction of free device memory the per-chunk buffers may use.
  double memoryFraction = 0.5;
};

/// True if a CUDA device can be used; otherwise `why` says why (no driver, no device).
bool CudaDeviceAvailable(std::string* why = nullptr);

/// Creates the CUDA evaluator; throws std::runtime_error if no device is available.
std::unique_ptr<Evaluator> CreateCudaEvaluator(const CudaEvaluatorOptions& options = {});

/// Creates the "cuda-cublas" evaluator (cuda/evaluator_cublas.cu): the batched-factorization
/// baseline. All systems of a chunk advance in lockstep phases across kernel launches
/// (common/lockstep.h); their generalized-alpha iteration matrices are factorized by
/// cublasDgetrfBatched and solved by cublasDgetrsBatched. Results agree with the fused kernel
/// to round-off. Generalized-alpha only: Evaluate throws ValidationError for explicit
/// solvers. Throws std::runtime_error if no device is available.
std::unique_ptr<Evaluator> CreateCublasEvaluator(const CudaEvaluatorOptions& options = {});

/// Device memory the "cuda-cublas" evaluator needs per system of a problem: the fused
/// evaluator's global buffers plus the integrator object, workspace, n x n matrix slot,
/// pivots and list entries each system keeps in global memory.
size_t CublasBytesPerSystem(const BatchProblem& problem);

/// Device memory the evaluator needs per system of a problem (global buffers: theta row,
/// values, status, counters), and the kernel's local (per-thread) memory estimate.
struct DeviceMemoryPlan {
  size_t globalBytesPerSystem = 0;
  size_t localBytesPerThread = 0;
  int capacity = 0;  ///< fixed-LU capacity chosen for the model
};
DeviceMemoryPlan PlanDeviceMemory(const BatchProblem& problem);

}  // namespace mbsweep
