// CUDA batch evaluator: device copy of the layout, planned chunked buffers, one fused
// kernel per chunk, and statuses that never fail the batch. Two fused kernels, chosen by
// the model's batch capacity (ChooseKernelMapping): one thread per system (generalized-alpha
// or explicit RK with a fixed-capacity LU in local memory) for the smallest models, and one
// warp per system (generalized-alpha: lane 0 runs the integrator's phases, the warp
// factorizes and solves the iteration matrix in shared memory) for the others. Objectives
// are reduced on the fly in both. Unless the evaluator is cuda-interp, either kernel is the
// one generated for the model (compiled by NVRTC, loaded at run time); the interpreter's
// kernels below remain their fallback.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "common/fused_kernel.h"
#include "common/integrator_parameters.h"
#include "common/lockstep.h"
#include "common/objectives.h"
#include "common/system_runner.h"
#include "common/team_lu.h"
#include "cuda/device_buffer.h"
#include "cuda/device_layout.h"
#include "cuda/evaluator_cuda.h"
#include "cuda/nvrtc_model.h"

namespace mbsweep {

namespace {

using cuda::DeviceBuffer;
using cuda::DeviceLayout;

/// Launch geometry of the fused thread-per-system kernel for a capacity: fewer threads per
/// block for larger capacities (their LU and workspace live in local memory).
struct FusedLaunchPolicy {
  int blockSize;
};
constexpr FusedLaunchPolicy FusedPolicy(int capacity) {
  return FusedLaunchPolicy{capacity <= 16 ? 128 : capacity <= 32 ? 64 : 32};
}

/// The per-system integrators the fused kernel can run: generalized-alpha and explicit RK.
template <int C>
struct GeneralizedAlphaRunner {
  using Params = GeneralizedAlphaParameters;
  static constexpr int kWork = GeneralizedAlphaWorkBound(C);
  template <class Observer>
  __device__ static SolveInfo Run(const LayoutView& L, const Real* theta, const Params& P, Real* work,
                                  FixedLU<C>& la, Observer& obs) {
    return RunGeneralizedAlphaSystem<C>(L, theta, P, work, la, obs);
  }
};
template <int C>
struct ExplicitRunner {
  using Params = ExplicitParameters;
  static constexpr int kWork = ExplicitWorkBound(C);
  template <class Observer>
  __device__ static SolveInfo Run(const LayoutView& L, const Real* theta, const Params& P, Real* work,
                                  FixedLU<C>& la, Observer& obs) {
    return RunExplicitSystem<C>(L, theta, P, work, la, obs);
  }
};

/// One thread integrates one system of the chunk: theta in, objective values, status and
/// counters out; theta, the state, Jacobian and LU stay in the thread's registers/local memory.
template <int C, template <int> class Runner>
__global__ void FusedKernel(FusedArgs a, typename Runner<C>::Params P) {
  RunThreadSystem<ThetaLocalBound(C)>(a, [&a, &P](const Real* theta, ObjectiveObserver<>& obs) {
    Real work[Runner<C>::kWork];
    FixedLU<C> la;
    return Runner<C>::Run(a.L, theta, P, work, la, obs);
  });
}

/// Launch geometry of the warp-per-system kernels from one warp's shared memory (WarpSlot,
/// common/lockstep.h): as many warps per block (at most kWarpKernelMaxWarps, 4) as keep a block
/// within 64 KiB, at least one. Up to 32 unknowns (at most 12 KiB per warp) that is 4 warps; 33
/// unknowns (the 3D chain, 11 KiB) also 4; about 50 unknowns 2; 64 unknowns (40 KiB) and 77 to
/// 128 (52 to 142 KiB) one warp per block, so an SM fits five blocks at 64 and one at 128 (228
/// KiB of shared memory per SM; a block may use 227 KiB).
struct WarpLaunchPolicy {
  int warpsPerBlock;
};
constexpr size_t kWarpBlockSharedTarget = 64 * 1024;
constexpr WarpLaunchPolicy WarpPolicy(size_t sharedBytesPerWarp) {
  const size_t fit = kWarpBlockSharedTarget / (sharedBytesPerWarp > 0 ? sharedBytesPerWarp : 1);
  return WarpLaunchPolicy{fit >= kWarpKernelMaxWarps ? kWarpKernelMaxWarps : fit > 1 ? static_cast<int>(fit) : 1};
}

/// The interpreter's warp-per-system kernel (RunWarpSystem on the layout in device memory). The
/// arguments are __grid_constant__: lane 0's system refers to them where they lie instead of a
/// copy in its local memory (ptxas, sm_90: 11,872 B of stack instead of 12,736). FusedKernel's
/// stay plain: with __grid_constant__ on that template, nvcc 13.0's cicc crashes.
__global__ void __launch_bounds__(32 * kWarpKernelMaxWarps)
    WarpFusedKernel(const __grid_constant__ FusedArgs a, const __grid_constant__ GeneralizedAlphaParameters P,
                    WarpSlot slot) {
  RunWarpSystem(a, a.L, P, slot);
}

/// Device buffers of one chunk of the fused evaluator and their host staging, reused chunk
/// after chunk: theta in (by columns when thetaByColumns); values, statuses, counters and
/// signals out.
struct FusedChunkBuffers {
  FusedChunkBuffers(size_t chunk, int nt, int nv, size_t signalPerSystem, bool thetaByColumns)
      : columns(thetaByColumns ? chunk * static_cast<size_t>(nt) : 0),
        dTheta(chunk * static_cast<size_t>(std::max(nt, 1))),
        dValues(chunk * static_cast<size_t>(std::max(nv, 1))),
        dStatus(chunk),
        dInfo(chunk),
        dSkip(chunk),
        skip(chunk),
        status(chunk),
        dSignals(signalPerSystem > 0 ? chunk * signalPerSystem : 0),
        dSignalCount(signalPerSystem > 0 ? chunk : 0) {}
  std::vector<Real> columns;  ///< host: the chunk's theta by columns (thetaByColumns only)
  DeviceBuffer<Real> dTheta, dValues;
  DeviceBuffer<int> dStatus;
  DeviceBuffer<SolveInfo> dInfo;
  DeviceBuffer<unsigned char> dSkip;
  std::vector<unsigned char> skip;  ///< host: 1 for a row with a row error
  std::vector<int> status;          ///< host: the chunk's statuses as read back
  DeviceBuffer<Real> dSignals;
  DeviceBuffer<int> dSignalCount;
};

class CudaEvaluator final : public Evaluator {
 public:
  explicit CudaEvaluator(const CudaEvaluatorOptions& o) : options_(o) {
    std::string why;
    if (!CudaDeviceAvailable(&why)) throw std::runtime_error("CUDA evaluator: " + why);
    MBS_CUDA_CHECK(cudaSetDevice(o.device));
    MBS_CUDA_CHECK(cudaStreamCreate(&stream_));
    MBS_CUDA_CHECK(cudaDeviceGetAttribute(&maxSharedPerBlock_, cudaDevAttrMaxSharedMemoryPerBlockOptin, o.device));
    arch_ = CudaDeviceArchitecture(o.device);
  }
  ~CudaEvaluator() override {
    for (auto& m : libraries_) cudaLibraryUnload(m.second);
    if (stream_) cudaStreamDestroy(stream_);
  }
  std::string Name() const override {
    const std::string base = options_.generated ? "cuda" : "cuda-interp";
    switch (options_.mapping) {
      case KernelMapping::threadPerSystem: return base + "-thread";
      case KernelMapping::warpPerSystem: return "cuda-warp";
      default: return base;
    }
  }

  BatchResult Evaluate(const BatchProblem& p) override {
    CheckBatchProblem(p);
    const auto t0 = std::chrono::steady_clock::now();
    BatchResult r = MakeEmptyResult(p, Name());
    if (p.nSystems == 0) return r;

    const DeviceMemoryPlan plan = PlanDeviceMemory(p);
    const bool explicitSolver = IsExplicitSolverType(p.solver);
    const KernelMapping mapping = ChooseKernelMapping(plan.capacity, explicitSolver, options_.mapping);
    GeneralizedAlphaParameters P = ToGeneralizedAlphaParameters(p.settings, p.solver);
    ExplicitParameters E = ToExplicitParameters(p.settings, p.solver);
    const bool warp = mapping == KernelMapping::warpPerSystem;
    cudaKernel_t generated =
        options_.generated ? GeneratedKernel(*p.layout, explicitSolver, p.objectives.set.count, warp) : nullptr;
    const WarpSlot slot = MakeWarpSlot(p.layout->View());
    const WarpLaunchPolicy warpPolicy = WarpPolicy(plan.sharedBytesPerWarp);
    const size_t warpSharedBytes =
        static_cast<size_t>(warpPolicy.warpsPerBlock) * static_cast<size_t>(slot.reals) * sizeof(Real);
    if (warp) generated = PrepareWarpKernel(warpSharedBytes, slot, generated);
    DeviceLayout dl;
    dl.Upload(*p.layout, stream_);
    DeviceBuffer<Real> dSignal;
    const std::vector<Real>& sig = p.objectives.signalData;
    if (!sig.empty()) dSignal.CopyFromHost(sig.data(), sig.size(), stream_);

    const size_t chunk = PlanChunk(plan.globalBytesPerSystem, p.nSystems);
    const int nt = p.ThetaSize(), nv = r.nValues;
    const bool thetaByColumns = mapping == KernelMapping::threadPerSystem && nt <= ThetaLocalBound(plan.capacity);
    const size_t signalPerSystem = static_cast<size_t>(r.signalRows) * static_cast<size_t>(r.signalWidth);
    FusedChunkBuffers b(chunk, nt, nv, signalPerSystem, thetaByColumns);
    RecordedSignals rec;
    if (signalPerSystem > 0) rec = RecordedSignals{b.dSignals.get(), b.dSignalCount.get(), r.signalRows, p.signalStride, r.signalWidth};
    FusedArgs args{dl.view, b.dTheta.get(), thetaByColumns, nt, 0, p.objectives.set, dSignal.get(), b.dSkip.get(),
                   b.dValues.get(), nv, b.dStatus.get(), b.dInfo.get(), rec};

    for (size_t begin = 0; begin < static_cast<size_t>(p.nSystems); begin += chunk) {
      const size_t n = std::min(chunk, static_cast<size_t>(p.nSystems) - begin);
      for (size_t k = 0; k < n; ++k) b.skip[k] = p.rowErrors[begin + k].empty() ? 0 : 1;
      const Real* rows = p.theta.data() + begin * static_cast<size_t>(nt);
      if (thetaByColumns) {
        // the previous chunk's upload has completed: the stream was synchronized at its end
        TransposeRows(rows, n, nt, b.columns.data());
        rows = b.columns.data();
      }
      b.dTheta.CopyFromHost(rows, n * static_cast<size_t>(nt), stream_);
      b.dSkip.CopyFromHost(b.skip.data(), n, stream_);
      // rows a system does not record stay NaN (all bits set is a NaN)
      if (signalPerSystem > 0)
        MBS_CUDA_CHECK(cudaMemsetAsync(b.dSignals.get(), 0xFF, n * signalPerSystem * sizeof(Real), stream_));
      args.nSystems = static_cast<int>(n);
      if (warp) {
        const int grid = (args.nSystems + warpPolicy.warpsPerBlock - 1) / warpPolicy.warpsPerBlock;
        const int block = 32 * warpPolicy.warpsPerBlock;
        if (generated) {
          void* params[] = {&args, &P};
          MBS_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(generated), dim3(grid), dim3(block), params,
                                          warpSharedBytes, stream_));
        } else {
          WarpFusedKernel<<<grid, block, warpSharedBytes, stream_>>>(args, P, slot);
          MBS_CUDA_CHECK(cudaGetLastError());
        }
      } else if (generated) {
        const int block = FusedPolicy(plan.capacity).blockSize;
        void* params[] = {&args, explicitSolver ? static_cast<void*>(&E) : static_cast<void*>(&P)};
        MBS_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(generated), dim3((args.nSystems + block - 1) / block),
                                        dim3(block), params, 0, stream_));
      } else if (explicitSolver) {
        LaunchThreadPerSystem<ExplicitRunner>(plan.capacity, args, E);
      } else {
        LaunchThreadPerSystem<GeneralizedAlphaRunner>(plan.capacity, args, P);
      }
      b.dValues.CopyToHost(r.values.data() + begin * static_cast<size_t>(nv), n * static_cast<size_t>(nv), stream_);
      if (signalPerSystem > 0) {
        b.dSignals.CopyToHost(r.signals.data() + begin * signalPerSystem, n * signalPerSystem, stream_);
        b.dSignalCount.CopyToHost(r.signalCount.data() + begin, n, stream_);
      }
      b.dStatus.CopyToHost(b.status.data(), n, stream_);
      b.dInfo.CopyToHost(r.info.data() + begin, n, stream_);
      MBS_CUDA_CHECK(cudaStreamSynchronize(stream_));
      for (size_t k = 0; k < n; ++k) r.status[begin + k] = static_cast<SolveStatus>(b.status[k]);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

 private:
  /// Systems per chunk: as many as memoryFraction of the free device memory holds at
  /// `bytesPerSystem` each, at most 2^22 and maxChunkSystems (if set), at least 1 and at most
  /// the batch.
  size_t PlanChunk(size_t bytesPerSystem, int nSystems) const {
    size_t freeBytes = 0, totalBytes = 0;
    MBS_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    size_t chunk = static_cast<size_t>(options_.memoryFraction * static_cast<double>(freeBytes)) /
                   std::max<size_t>(bytesPerSystem, 1);
    chunk = std::min<size_t>(chunk, size_t(1) << 22);
    if (options_.maxChunkSystems > 0) chunk = std::min<size_t>(chunk, static_cast<size_t>(options_.maxChunkSystems));
    return std::max<size_t>(1, std::min<size_t>(chunk, static_cast<size_t>(nSystems)));
  }

  /// The kernel generated for the model, its batches' objective count and the mapping (thread
  /// or warp per system; compiled by NVRTC for this device, loaded once per evaluator with the
  /// runtime's context-independent loading), or null after a one-line notice on stderr (the
  /// interpreter's kernel runs).
  cudaKernel_t GeneratedKernel(const Layout& layout, bool explicitSolver, int objectives, bool warp) {
    std::string why;
    const auto binary = CompileCudaModel(layout, explicitSolver, objectives, arch_, &why, warp);
    cudaKernel_t kernel = nullptr;
    if (binary) {
      auto it = libraries_.find(binary->key);
      if (it == libraries_.end()) {
        cudaLibrary_t library = nullptr;
        const cudaError_t e =
            cudaLibraryLoadData(&library, binary->cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
        if (e == cudaSuccess) it = libraries_.emplace(binary->key, library).first;
        else why = std::string("loading the model kernel failed: ") + cudaGetErrorString(e);
      }
      if (it != libraries_.end() && cudaLibraryGetKernel(&kernel, it->second, "mbsweep_model_kernel") != cudaSuccess)
        kernel = nullptr;
    }
    if (!kernel) NoticeInterpreter(why);
    return kernel;
  }

  /// The one line on stderr, once per evaluator, that the interpreter's kernel runs and why.
  void NoticeInterpreter(const std::string& why) {
    if (noticed_) return;
    std::fprintf(stderr, "mbsweep: %s runs the interpreter's kernel (cuda-interp): %s\n", Name().c_str(), why.c_str());
    noticed_ = true;
  }

  /// Lets the warp-per-system kernel (the generated one, else the interpreter's) use
  /// `warpSharedBytes` of dynamic shared memory per block and returns the generated kernel, or
  /// null where the runtime refuses it that (after a one-line notice: the interpreter's runs);
  /// throws ValidationError if the device allows less.
  cudaKernel_t PrepareWarpKernel(size_t warpSharedBytes, const WarpSlot& slot, cudaKernel_t generated) {
    if (warpSharedBytes > static_cast<size_t>(maxSharedPerBlock_))
      throw ValidationError("CUDA evaluator: the warp-per-system kernel needs " + std::to_string(warpSharedBytes) +
                            " bytes of shared memory per block for this model (" + std::to_string(slot.n) +
                            " unknowns); device " + std::to_string(options_.device) + " allows " +
                            std::to_string(maxSharedPerBlock_));
    if (generated) {
      const cudaError_t e = cudaKernelSetAttributeForDevice(generated, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                            static_cast<int>(warpSharedBytes), options_.device);
      if (e == cudaSuccess) return generated;
      cudaGetLastError();  // clear it: the interpreter's kernel runs
      NoticeInterpreter("the model kernel cannot have " + std::to_string(warpSharedBytes) +
                        " B of shared memory per block: " + cudaGetErrorString(e));
    }
    MBS_CUDA_CHECK(cudaFuncSetAttribute(WarpFusedKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(warpSharedBytes)));
    return nullptr;
  }

  /// Launches the thread-per-system kernel of the model's capacity (8 to 64; ChooseKernelMapping
  /// refuses larger ones) with the capacity's launch policy.
  template <template <int> class Runner, class Params>
  void LaunchThreadPerSystem(int capacity, const FusedArgs& args, const Params& P) {
    const int block = FusedPolicy(capacity).blockSize;
    const int grid = (args.nSystems + block - 1) / block;
    switch (capacity) {
      case 8: FusedKernel<8, Runner><<<grid, block, 0, stream_>>>(args, P); break;
      case 16: FusedKernel<16, Runner><<<grid, block, 0, stream_>>>(args, P); break;
      case 32: FusedKernel<32, Runner><<<grid, block, 0, stream_>>>(args, P); break;
      case 64: FusedKernel<64, Runner><<<grid, block, 0, stream_>>>(args, P); break;
      default: throw std::logic_error("thread-per-system kernel launched for capacity " + std::to_string(capacity));
    }
    MBS_CUDA_CHECK(cudaGetLastError());
  }

  CudaEvaluatorOptions options_;
  cudaStream_t stream_ = nullptr;
  int maxSharedPerBlock_ = 0;  ///< the device's opt-in shared memory per block (bytes)
  std::string arch_;           ///< the device's architecture, "sm_90"
  std::map<std::string, cudaLibrary_t> libraries_;  ///< generated kernels loaded, by cache key
  bool noticed_ = false;
};

}  // namespace

int CudaDeviceCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error
    return 0;
  }
  return count;
}

bool CudaDeviceAvailable(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    if (why) *why = std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
    cudaGetLastError();  // clear the sticky error
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device present";
    return false;
  }
  return true;
}

DeviceMemoryPlan PlanDeviceMemory(const BatchProblem& p) {
  DeviceMemoryPlan plan;
  const LayoutView L = p.layout->View();
  plan.capacity = BatchCapacityFor(L.nODE2 + L.nODE1 + L.nAE);
  plan.globalBytesPerSystem = static_cast<size_t>(p.ThetaSize()) * sizeof(Real) +
                              static_cast<size_t>(p.NumValues()) * sizeof(Real) + sizeof(int) + sizeof(SolveInfo) + 1;
  if (p.signalRows > 0)
    plan.globalBytesPerSystem += static_cast<size_t>(p.signalRows) * static_cast<size_t>(p.SignalWidth()) * sizeof(Real) +
                                 sizeof(int);
  const size_t c = static_cast<size_t>(plan.capacity);
  const int workBound = IsExplicitSolverType(p.solver) ? ExplicitWorkBound(plan.capacity)
                                                       : GeneralizedAlphaWorkBound(plan.capacity);
  plan.localBytesPerThread = c * c * sizeof(Real) + c * sizeof(int) + static_cast<size_t>(workBound) * sizeof(Real) +
                             static_cast<size_t>(ThetaLocalBound(plan.capacity)) * sizeof(Real) +
                             sizeof(ObjectiveObserver<>);
  plan.sharedBytesPerWarp = static_cast<size_t>(MakeWarpSlot(L).reals) * sizeof(Real);
  return plan;
}

const char* KernelMappingName(KernelMapping m) {
  switch (m) {
    case KernelMapping::threadPerSystem: return "threadPerSystem";
    case KernelMapping::warpPerSystem: return "warpPerSystem";
    default: return "automatic";
  }
}

KernelMapping ChooseKernelMapping(int capacity, bool explicitSolver, KernelMapping requested) {
  if (capacity <= 0 || capacity > kMaxBatchCapacity)
    throw ValidationError("CUDA evaluator: models with more than " + std::to_string(kMaxBatchCapacity) +
                          " unknowns (nODE2 + nODE1 + nAE) are not supported by the fused kernels");
  if (explicitSolver) {
    // Explicit RK has no factorization per step, so a warp would have nothing to share; its
    // per-thread state (mass matrix and seven stages) exceeds what a thread should hold above
    // 64 unknowns, so 128 is refused rather than run slowly out of local memory.
    if (requested == KernelMapping::warpPerSystem)
      throw ValidationError("CUDA evaluator: the warp-per-system kernel runs GeneralizedAlpha only; explicit solvers "
                            "run one thread per system");
    if (capacity > kMaxThreadKernelCapacity)
      throw ValidationError("CUDA evaluator: explicit solvers run one thread per system, for models with up to " +
                            std::to_string(kMaxThreadKernelCapacity) + " unknowns (this model needs capacity " +
                            std::to_string(capacity) + "; use evaluator 'cpu')");
    return KernelMapping::threadPerSystem;
  }
  switch (requested) {
    case KernelMapping::threadPerSystem:
      if (capacity > kMaxThreadKernelCapacity)
        throw ValidationError("CUDA evaluator: the thread-per-system kernel supports models with up to " +
                              std::to_string(kMaxThreadKernelCapacity) + " unknowns (this model needs capacity " +
                              std::to_string(capacity) + "; use the warp-per-system mapping)");
      return KernelMapping::threadPerSystem;
    case KernelMapping::warpPerSystem: return KernelMapping::warpPerSystem;
    default: return capacity <= kMaxThreadPerSystemAutomatic ? KernelMapping::threadPerSystem
                                                            : KernelMapping::warpPerSystem;
  }
}

std::unique_ptr<Evaluator> CreateCudaEvaluator(const CudaEvaluatorOptions& options) {
  return std::make_unique<CudaEvaluator>(options);
}

}  // namespace mbsweep
