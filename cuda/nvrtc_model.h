/// @file nvrtc_model.h
/// Compiling a model's generated CUDA source (common/codegen.h: CudaModelSource) with NVRTC,
/// the CUDA Toolkit's run-time compiler, into a cubin for one GPU architecture: what the `cuda`
/// evaluator loads. No device is needed to compile. The headers come from the program itself
/// (EmbeddedHeaders; the standard headers they include map to common/rtc_std.h), so a compiled
/// model needs no source tree. Options: -std=c++17 -DNDEBUG -default-device -arch=<arch> -Xptxas -v, then the
/// words of $MBSWEEP_NVRTC_FLAGS. Cached on disk (JitCacheDirectory) as cuda-<key>.cubin with
/// the compiler's messages in cuda-<key>.log, one file per hash of the source, the embedded
/// headers, NVRTC's version, the architecture and the options, written under a temporary name
/// and renamed, so that concurrent processes share it safely.
/// Host-only header (no CUDA types).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/layout.h"

namespace mbsweep {

/// A compiled model kernel: `mbsweep_model_kernel` in a cubin (thread or warp per system).
struct CudaModelBinary {
  std::string cubin;
  std::string key;            ///< the cache key (16 hexadecimal digits)
  std::string arch;           ///< "sm_90"
  std::string path;           ///< the cubin in the disk cache
  std::string log;            ///< NVRTC's messages, with ptxas's resource report of the kernel
  bool cacheHit = false;      ///< the cubin was in the disk cache
  double seconds = 0;         ///< generation and compilation, or generation and reading on a cache hit
  /// ptxas's report of the kernel (from `log`; -1 where it has none): registers per thread,
  /// stack frame bytes per thread, spill store and load bytes.
  int registers = -1, stackBytes = -1, spillStores = -1, spillLoads = -1;
};

/// NVRTC's version, "13.0".
std::string NvrtcVersion();
/// The real architectures NVRTC compiles for, "sm_75", "sm_80", ...
std::vector<std::string> NvrtcArchitectures();

/// Generates the model kernel of `layout` for the generalized-alpha family or, with
/// explicitSolver, the explicit solvers, for batches of up to ObjectiveBound(objectives)
/// objectives (common/objectives.h), one thread per system or, with warpPerSystem
/// (generalized-alpha only), one warp per system (CudaModelSource), and compiles it for `arch`
/// (or finds it in the caches, the process's and the disk's). Returns null and sets `why` (one
/// line; a failed compilation names its log) if NVRTC refuses the architecture or the
/// compilation fails.
std::shared_ptr<const CudaModelBinary> CompileCudaModel(const Layout& layout, bool explicitSolver, int objectives,
                                                        const std::string& arch, std::string* why,
                                                        bool warpPerSystem = false);

}  // namespace mbsweep
