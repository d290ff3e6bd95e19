/// @file evaluator_cuda.h
/// The CUDA batch evaluators. "cuda": one fused kernel per chunk integrates the whole time span of
/// every system (generalized-alpha with Newton and an in-kernel LU with partial pivoting, or
/// explicit RK; objectives reduced in the kernel); only theta rows go in and objective
/// values, statuses and counters come out. Small models run one thread per system (the LU in
/// the thread's local memory), larger ones one warp per system (lane 0 integrates, the warp
/// factorizes and solves the iteration matrix in shared memory); see KernelMapping.
/// Host-only header (no CUDA types).
#pragma once

#include <memory>
#include <string>

#include "common/batch.h"
#include "common/fused_kernel.h"  // ThetaLocalBound

namespace mbsweep {

/// How the fused kernel maps systems onto the device (ChooseKernelMapping).
enum class KernelMapping {
  automatic,        ///< by batch capacity: thread per system up to 8 unknowns, warp per system above
  threadPerSystem,  ///< one thread integrates one system (capacities 8 to 64; explicit solvers always)
  warpPerSystem,    ///< one warp per system, iteration matrix in shared memory (generalized-alpha, 8 to 128)
};

/// Largest capacity of the thread-per-system kernel (its LU lives in local memory).
constexpr int kMaxThreadKernelCapacity = 64;
/// Largest capacity the automatic mapping gives to the thread-per-system kernel for
/// generalized-alpha (an 8 x 8 LU fits a thread's registers; above that a warp shares it).
constexpr int kMaxThreadPerSystemAutomatic = 8;

/// out[k n + i] = rows[i width + k]: n rows of width values stored by columns (the system index
/// fastest).
inline void TransposeRows(const Real* rows, size_t n, int width, Real* out) {
  for (size_t i = 0; i < n; ++i)
    for (int k = 0; k < width; ++k)
      out[static_cast<size_t>(k) * n + i] = rows[i * static_cast<size_t>(width) + static_cast<size_t>(k)];
}

/// Launch and memory options of the CUDA evaluator.
struct CudaEvaluatorOptions {
  int device = 0;
  /// Largest number of systems per kernel launch (0: planned from free device memory).
  int maxChunkSystems = 0;
  /// Fraction of free device memory the per-chunk buffers may use.
  double memoryFraction = 0.5;
  /// Kernel mapping; forcing one lets tests and benchmarks run both on the same batch. The
  /// evaluator's name says which: "cuda" (automatic), "cuda-thread", "cuda-warp".
  KernelMapping mapping = KernelMapping::automatic;
  /// Both mappings run the kernel generated for the model (CudaModelSource, compiled by NVRTC:
  /// cuda/nvrtc_model.h); false: the interpreter's kernels ("cuda-interp",
  /// "cuda-interp-thread"). Where the generated kernel cannot be had (NVRTC refuses the
  /// device's architecture, the compilation or the loading fails) the interpreter's runs, after
  /// a one-line notice on stderr.
  bool generated = true;
};

/// The mapping the CUDA evaluator uses for a model of batch capacity `capacity`
/// (BatchCapacityFor of its unknowns; 0 if above 128). Generalized-alpha: automatic gives one
/// thread per system for capacity 8 and one warp per system for 16 to 128; threadPerSystem
/// is allowed up to 64, warpPerSystem for every capacity. Explicit solvers: one thread per
/// system up to 64. Throws ValidationError, naming the limit, for a capacity above 128, a
/// thread mapping above 64 and a warp mapping for an explicit solver.
KernelMapping ChooseKernelMapping(int capacity, bool explicitSolver, KernelMapping requested = KernelMapping::automatic);

/// "automatic", "threadPerSystem", "warpPerSystem".
const char* KernelMappingName(KernelMapping mapping);

/// The number of CUDA devices this process sees (0 if none is usable).
int CudaDeviceCount();

/// True if a CUDA device can be used; otherwise `why` says why (no driver, no device).
bool CudaDeviceAvailable(std::string* why = nullptr);

/// Creates the CUDA evaluator; throws std::runtime_error if no device is available. Evaluate
/// throws ValidationError for a model ChooseKernelMapping refuses, and for a warp-per-system
/// model whose shared memory per block exceeds the device's.
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
/// values, status, counters), the thread-per-system kernel's local (per-thread) memory
/// estimate (LU, workspace, observer and the local theta copy) and the warp-per-system
/// kernel's shared memory per system (one warp's slot).
struct DeviceMemoryPlan {
  size_t globalBytesPerSystem = 0;
  size_t localBytesPerThread = 0;
  size_t sharedBytesPerWarp = 0;  ///< n x n matrix, workspace and pivots of one warp-per-system slot
  int capacity = 0;               ///< fixed-LU capacity chosen for the model
};
DeviceMemoryPlan PlanDeviceMemory(const BatchProblem& problem);

}  // namespace mbsweep
