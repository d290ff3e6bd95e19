// CUDA batch evaluator: device copy of the layout, planned chunked buffers, one fused
// kernel per chunk (one thread per system; generalized-alpha + fixed-capacity LU +
// on-the-fly objectives), and statuses that never fail the batch.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "common/objectives.h"
#include "common/system_runner.h"
#include "cuda/device_buffer.h"
#include "cuda/device_layout.h"
#include "cuda/evaluator_cuda.h"
#include "cpu/solver_internal.h"

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

/// Where the fused kernel writes decimated signals (BatchProblem::signalRows > 0): `rows`
/// rows of `width` Reals per system of the chunk, and the rows each system recorded.
struct RecordedSignals {
  Real* data = nullptr;
  int* count = nullptr;
  int rows = 0, stride = 1, width = 0;
};

/// One thread integrates one system of the chunk: theta row in, objective values, status and
/// counters out; the state, Jacobian and LU stay in the thread's registers/local memory.
template <int C, template <int> class Runner>
__global__ void FusedKernel(LayoutView L, const Real* __restrict__ theta, int nTheta, int nSystems,
                            typename Runner<C>::Params P, ObjectiveSet set, const Real* __restrict__ signal,
                            const unsigned char* __restrict__ skip, Real* __restrict__ values, int nValues,
                            int* __restrict__ status, SolveInfo* __restrict__ info, RecordedSignals rec) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nSystems) return;
  Real* out = values + static_cast<size_t>(i) * nValues;
  for (int k = 0; k < nValues; ++k) out[k] = std::numeric_limits<Real>::quiet_NaN();
  if (rec.rows > 0) rec.count[i] = 0;
  if (skip[i]) {
    status[i] = static_cast<int>(SolveStatus::invalid_parameter);
    info[i] = SolveInfo{};
    info[i].status = SolveStatus::invalid_parameter;
    return;
  }
  const Real* row = theta + static_cast<size_t>(i) * nTheta;
  Real work[Runner<C>::kWork];
  FixedLU<C> la;
  ObjectiveObserver<> obs(L, row, set, signal);
  if (rec.rows > 0) {
    obs.signalOut = rec.data + static_cast<size_t>(i) * rec.rows * rec.width;
    obs.signalCapacity = rec.rows;
    obs.signalStride = rec.stride;
  }
  const SolveInfo r = Runner<C>::Run(L, row, P, work, la, obs);
  info[i] = r;
  status[i] = static_cast<int>(r.status);
  if (rec.rows > 0) rec.count[i] = obs.signalRows;
  if (r.status == SolveStatus::ok) obs.Finalize(out);  // the row's nValues values
}


class CudaEvaluator final : public Evaluator {
 public:
  explicit CudaEvaluator(const CudaEvaluatorOptions& o) : options_(o) {
    std::string why;
    if (!CudaDeviceAvailable(&why)) throw std::runtime_error("CUDA evaluator: " + why);
    MBS_CUDA_CHECK(cudaSetDevice(o.device));
    MBS_CUDA_CHECK(cudaStreamCreate(&stream_));
  }
  ~CudaEvaluator() override {
    if (stream_) cudaStreamDestroy(stream_);
  }
  std::string Name() const override { return "cuda"; }

  BatchResult Evaluate(const BatchProblem& p) override {
    CheckBatchProblem(p);
    const auto t0 = std::chrono::steady_clock::now();
    BatchResult r = MakeEmptyResult(p, Name());
    if (p.nSystems == 0) return r;

    const DeviceMemoryPlan plan = PlanDeviceMemory(p);
    const GeneralizedAlphaParameters P = ToGeneralizedAlphaParameters(p.settings, p.solver);
    const ExplicitParameters E = ToExplicitParameters(p.settings, p.solver);
    const bool explicitSolver = IsExplicitSolverType(p.solver);
    DeviceLayout dl;
    dl.Upload(*p.layout, stream_);
    DeviceBuffer<Real> dSignal;
    const std::vector<Real>& sig = p.objectives.signalData;
    if (!sig.empty()) dSignal.CopyFromHost(sig.data(), sig.size(), stream_);

    // chunk size from free device memory
    size_t freeBytes = 0, totalBytes = 0;
    MBS_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    size_t chunk = static_cast<size_t>(options_.memoryFraction * static_cast<double>(freeBytes)) /
                   std::max<size_t>(plan.globalBytesPerSystem, 1);
    chunk = std::min<size_t>(chunk, size_t(1) << 22);
    if (options_.maxChunkSystems > 0) chunk = std::min<size_t>(chunk, static_cast<size_t>(options_.maxChunkSystems));
    chunk = std::max<size_t>(1, std::min<size_t>(chunk, static_cast<size_t>(p.nSystems)));

    const int nt = p.ThetaSize(), nv = r.nValues;
    DeviceBuffer<Real> dTheta(chunk * static_cast<size_t>(std::max(nt, 1))),
        dValues(chunk * static_cast<size_t>(std::max(nv, 1)));
    DeviceBuffer<int> dStatus(chunk);
    DeviceBuffer<SolveInfo> dInfo(chunk);
    DeviceBuffer<unsigned char> dSkip(chunk);
    std::vector<unsigned char> skip(chunk);
    std::vector<int> status(chunk);
    const size_t signalPerSystem = static_cast<size_t>(r.signalRows) * static_cast<size_t>(r.signalWidth);
    DeviceBuffer<Real> dSignals(signalPerSystem > 0 ? chunk * signalPerSystem : 0);
    DeviceBuffer<int> dSignalCount(signalPerSystem > 0 ? chunk : 0);
    RecordedSignals rec;
    if (signalPerSystem > 0) rec = RecordedSignals{dSignals.get(), dSignalCount.get(), r.signalRows, p.signalStride, r.signalWidth};

    for (size_t begin = 0; begin < static_cast<size_t>(p.nSystems); begin += chunk) {
      const size_t n = std::min(chunk, static_cast<size_t>(p.nSystems) - begin);
      for (size_t k = 0; k < n; ++k) skip[k] = p.rowErrors[begin + k].empty() ? 0 : 1;
      dTheta.CopyFromHost(p.theta.data() + begin * static_cast<size_t>(nt), n * static_cast<size_t>(nt), stream_);
      dSkip.CopyFromHost(skip.data(), n, stream_);
      // rows a system does not record stay NaN (all bits set is a NaN)
      if (signalPerSystem > 0)
        MBS_CUDA_CHECK(cudaMemsetAsync(dSignals.get(), 0xFF, n * signalPerSystem * sizeof(Real), stream_));
      if (explicitSolver)
        Launch<ExplicitRunner>(plan.capacity, dl.view, dTheta.get(), nt, static_cast<int>(n), E, p.objectives.set,
                               dSignal.get(), dSkip.get(), dValues.get(), nv, dStatus.get(), dInfo.get(), rec);
      else
        Launch<GeneralizedAlphaRunner>(plan.capacity, dl.view, dTheta.get(), nt, static_cast<int>(n), P,
                                       p.objectives.set, dSignal.get(), dSkip.get(), dValues.get(), nv,
                                       dStatus.get(), dInfo.get(), rec);
      dValues.CopyToHost(r.values.data() + begin * static_cast<size_t>(nv), n * static_cast<size_t>(nv), stream_);
      if (signalPerSystem > 0) {
        dSignals.CopyToHost(r.signals.data() + begin * signalPerSystem, n * signalPerSystem, stream_);
        dSignalCount.CopyToHost(r.signalCount.data() + begin, n, stream_);
      }
      dStatus.CopyToHost(status.data(), n, stream_);
      dInfo.CopyToHost(r.info.data() + begin, n, stream_);
      MBS_CUDA_CHECK(cudaStreamSynchronize(stream_));
      for (size_t k = 0; k < n; ++k) r.status[begin + k] = static_cast<SolveStatus>(status[k]);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

 private:
  /// Launches the fused kernel of the model's capacity with the capacity's launch policy.
  template <template <int> class Runner, class Params>
  void Launch(int capacity, const LayoutView& L, const Real* theta, int nt, int n, const Params& P,
              const ObjectiveSet& set, const Real* signal, const unsigned char* skip, Real* values, int nv,
              int* status, SolveInfo* info, const RecordedSignals& rec) {
    const int block = FusedPolicy(capacity).blockSize;
    const int grid = (n + block - 1) / block;
    switch (capacity) {
      case 8: FusedKernel<8, Runner><<<grid, block, 0, stream_>>>(L, theta, nt, n, P, set, signal, skip, values, nv, status, info, rec); break;
      case 16: FusedKernel<16, Runner><<<grid, block, 0, stream_>>>(L, theta, nt, n, P, set, signal, skip, values, nv, status, info, rec); break;
      case 32: FusedKernel<32, Runner><<<grid, block, 0, stream_>>>(L, theta, nt, n, P, set, signal, skip, values, nv, status, info, rec); break;
      case 64: FusedKernel<64, Runner><<<grid, block, 0, stream_>>>(L, theta, nt, n, P, set, signal, skip, values, nv, status, info, rec); break;
      default:
        throw ValidationError("CUDA evaluator: models with more than 64 unknowns are not supported by the fused "
                              "kernels (this model needs capacity " + std::to_string(capacity) + ")");
    }
    MBS_CUDA_CHECK(cudaGetLastError());
  }

  CudaEvaluatorOptions options_;
  cudaStream_t stream_ = nullptr;
};

}  // namespace

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
                             sizeof(ObjectiveObserver<>);
  return plan;
}

std::unique_ptr<Evaluator> CreateCudaEvaluator(const CudaEvaluatorOptions& options) {
  return std::make_unique<CudaEvaluator>(options);
}

}  // namespace mbsweep
