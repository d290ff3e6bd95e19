// CUDA evaluator "cuda-cublas": the batched-factorization baseline the fused kernels must beat.
// Per chunk, every system's generalized-alpha integrator (common/lockstep.h: the same phases
// the fused kernel runs in one thread) lives in device global memory with its workspace,
// observer and column-major matrix slot; kernels advance all systems to their next request,
// cublasDgetrfBatched factorizes the slots of the systems that asked for it and
// cublasDgetrsBatched solves for those that ask for a solve, round after round, until every
// system is finished. The lists of requesting systems are compacted each round and their
// counts read back (one synchronization per batched call: a baseline, not a fast path).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "common/integrator_parameters.h"
#include "common/lockstep.h"
#include "common/objectives.h"
#include "cuda/device_buffer.h"
#include "cuda/device_layout.h"
#include "cuda/evaluator_cuda.h"

namespace mbsweep {

namespace {

using cuda::DeviceBuffer;
using cuda::DeviceLayout;
using System = LockstepSystem<ObjectiveObserver<>>;

/// Launch geometry of the phase kernels (one thread per system or per list entry).
struct LockstepLaunchPolicy {
  int blockSize = 128;
  int Grid(int n) const { return (n + blockSize - 1) / blockSize; }
};

/// What every system of a chunk refers to for its whole run (device global memory: the
/// integrators keep references to it between kernel launches).
struct LockstepShared {
  LayoutView L;
  GeneralizedAlphaParameters P;
  ObjectiveSet set;
};

/// Per-chunk device arrays of the lockstep batch.
struct ChunkArrays {
  System* systems;                  // [chunk] built in place by InitKernel
  Real* work;                       // [chunk x workSize]
  Real* matrices;                   // [chunk x N x N] column-major slots
  int* pivots;                      // [chunk x N] each system's pivots of its last factorization
  unsigned char* active;            // [chunk] 1: built and evaluated
  Real** factorA;                   // [chunk] compacted slots to factorize
  int* factorId;                    // [chunk] their systems
  int* factorPiv;                   // [chunk x N] getrf pivots, compacted
  int* factorInfo;                  // [chunk] getrf info, compacted
  Real** solveA;                    // [chunk] compacted slots to solve with
  Real** solveB;                    // [chunk] their right-hand sides (w.delta, = w.res on entry)
  int* solveId;                     // [chunk]
  int* solvePiv;                    // [chunk x N] their pivots, compacted
  int* counters;                    // [2]: systems asking for a factorization, for a solve
  int workSize, N;
};

/// Where decimated signals go (BatchProblem::signalRows > 0).
struct SignalOut {
  Real* data = nullptr;
  int rows = 0, stride = 1, width = 0;
};

/// Builds each system of the chunk in place (invalid rows: status only) and advances it to
/// its first request.
__global__ void InitKernel(ChunkArrays c, const LockstepShared* __restrict__ sh, const Real* __restrict__ theta,
                           int nTheta, int nSystems, const Real* __restrict__ signal,
                           const unsigned char* __restrict__ skip, Real* __restrict__ values, int nValues,
                           int* __restrict__ status, SolveInfo* __restrict__ info, SignalOut sig) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nSystems) return;
  Real* out = values + static_cast<size_t>(i) * nValues;
  for (int k = 0; k < nValues; ++k) out[k] = std::numeric_limits<Real>::quiet_NaN();
  if (skip[i]) {
    c.active[i] = 0;
    status[i] = static_cast<int>(SolveStatus::invalid_parameter);
    info[i] = SolveInfo{};
    info[i].status = SolveStatus::invalid_parameter;
    return;
  }
  c.active[i] = 1;
  const Real* row = theta + static_cast<size_t>(i) * nTheta;
  ObjectiveObserver<> obs(sh->L, row, sh->set, signal);
  if (sig.rows > 0) {
    obs.signalOut = sig.data + static_cast<size_t>(i) * sig.rows * sig.width;
    obs.signalCapacity = sig.rows;
    obs.signalStride = sig.stride;
  }
  const size_t N = static_cast<size_t>(c.N);
  System* s = new (c.systems + i) System(sh->L, row, sh->P, c.work + static_cast<size_t>(i) * c.workSize,
                                         c.matrices + static_cast<size_t>(i) * N * N, obs);
  s->request = s->ga.Advance();
}

/// Compacts the systems asking for a factorization: their slots for getrfBatched.
__global__ void CollectFactorizeKernel(ChunkArrays c, int nSystems) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nSystems || !c.active[i] || c.systems[i].request != GeneralizedAlphaRequest::factorize) return;
  const int k = atomicAdd(&c.counters[0], 1);
  c.factorA[k] = c.systems[i].la.a;
  c.factorId[k] = i;
}

/// After getrfBatched: keeps each system's pivots, resumes it (singular when cuBLAS reports a
/// zero pivot, or, as FixedLU, a non-finite or huge one) and advances it.
__global__ void ResumeFactorizedKernel(ChunkArrays c, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int i = c.factorId[k], N = c.N;
  System& s = c.systems[i];
  for (int j = 0; j < N; ++j) c.pivots[static_cast<size_t>(i) * N + j] = c.factorPiv[static_cast<size_t>(k) * N + j];
  bool ok = c.factorInfo[k] == 0;
  for (int j = 0; j < N && ok; ++j) ok = fabs(s.la.a[j * N + j]) < 1e308;
  s.Factorized(ok);
}

/// Compacts the systems asking for a solve: slot, right-hand side (w.res copied into w.delta,
/// which getrsBatched overwrites with the solution) and pivots.
__global__ void CollectSolveKernel(ChunkArrays c, int nSystems) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nSystems || !c.active[i] || c.systems[i].request != GeneralizedAlphaRequest::solve) return;
  System& s = c.systems[i];
  const int k = atomicAdd(&c.counters[1], 1), N = c.N;
  for (int j = 0; j < N; ++j) s.w.delta[j] = s.w.res[j];
  for (int j = 0; j < N; ++j) c.solvePiv[static_cast<size_t>(k) * N + j] = c.pivots[static_cast<size_t>(i) * N + j];
  c.solveA[k] = s.la.a;
  c.solveB[k] = s.w.delta;
  c.solveId[k] = i;
}

/// After getrsBatched: resumes each solved system and advances it.
__global__ void ResumeSolvedKernel(ChunkArrays c, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  c.systems[c.solveId[k]].Solved();
}

/// Results of the finished systems: status, counters, objective values, signal rows.
__global__ void FinishKernel(ChunkArrays c, int nSystems, Real* __restrict__ values, int nValues,
                             int* __restrict__ status, SolveInfo* __restrict__ info, int* __restrict__ signalCount,
                             int signalRows) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nSystems) return;
  if (!c.active[i]) {
    if (signalRows > 0) signalCount[i] = 0;
    return;
  }
  System& s = c.systems[i];
  const SolveInfo r = s.ga.Info();
  info[i] = r;
  status[i] = static_cast<int>(r.status);
  if (signalRows > 0) signalCount[i] = s.obs.signalRows;
  if (r.status == SolveStatus::ok) s.obs.Finalize(values + static_cast<size_t>(i) * nValues);
}

class CublasEvaluator final : public Evaluator {
 public:
  explicit CublasEvaluator(const CudaEvaluatorOptions& o) : options_(o) {
    std::string why;
    if (!CudaDeviceAvailable(&why)) throw std::runtime_error("CUDA cuBLAS evaluator: " + why);
    MBS_CUDA_CHECK(cudaSetDevice(o.device));
    MBS_CUDA_CHECK(cudaStreamCreate(&stream_));
    MBS_CUBLAS_CHECK(cublasCreate(&handle_));
    MBS_CUBLAS_CHECK(cublasSetStream(handle_, stream_));
  }
  ~CublasEvaluator() override {
    if (handle_) cublasDestroy(handle_);
    if (stream_) cudaStreamDestroy(stream_);
  }
  std::string Name() const override { return "cuda-cublas"; }

  BatchResult Evaluate(const BatchProblem& p) override {
    CheckBatchProblem(p);
    RefuseExplicitSolver(p.solver);
    const auto t0 = std::chrono::steady_clock::now();
    BatchResult r = MakeEmptyResult(p, Name());
    if (p.nSystems == 0) return r;

    const LayoutView hL = p.layout->View();
    const int N = hL.nODE2 + hL.nODE1 + hL.nAE;
    const int workSize = GeneralizedAlphaWorkSize(hL);
    DeviceLayout dl;
    dl.Upload(*p.layout, stream_);
    LockstepShared hShared{dl.view, ToGeneralizedAlphaParameters(p.settings, p.solver), p.objectives.set};
    DeviceBuffer<LockstepShared> dShared;
    dShared.CopyFromHost(&hShared, 1, stream_);
    DeviceBuffer<Real> dSignal;
    const std::vector<Real>& sigData = p.objectives.signalData;
    if (!sigData.empty()) dSignal.CopyFromHost(sigData.data(), sigData.size(), stream_);

    // chunk size from free device memory: the fused evaluator's per-system buffers plus the
    // integrator objects, workspaces, matrix slots, pivots and the compacted lists
    const size_t n2 = static_cast<size_t>(N) * static_cast<size_t>(N);
    const size_t chunk = PlanChunk(CublasBytesPerSystem(p), p.nSystems);

    const int nt = p.ThetaSize(), nv = r.nValues;
    DeviceBuffer<Real> dTheta(chunk * static_cast<size_t>(std::max(nt, 1))),
        dValues(chunk * static_cast<size_t>(std::max(nv, 1)));
    DeviceBuffer<int> dStatus(chunk);
    DeviceBuffer<SolveInfo> dInfo(chunk);
    DeviceBuffer<unsigned char> dSkip(chunk), dActive(chunk);
    DeviceBuffer<System> dSystems(chunk);
    DeviceBuffer<Real> dWork(chunk * static_cast<size_t>(std::max(workSize, 1))), dMatrices(chunk * n2);
    DeviceBuffer<int> dPivots(chunk * N), dFactorPiv(chunk * N), dSolvePiv(chunk * N), dFactorId(chunk),
        dFactorInfo(chunk), dSolveId(chunk), dCounters(2);
    DeviceBuffer<Real*> dFactorA(chunk), dSolveA(chunk), dSolveB(chunk);
    const size_t signalPerSystem = static_cast<size_t>(r.signalRows) * static_cast<size_t>(r.signalWidth);
    DeviceBuffer<Real> dSignals(signalPerSystem > 0 ? chunk * signalPerSystem : 0);
    DeviceBuffer<int> dSignalCount(signalPerSystem > 0 ? chunk : 0);
    SignalOut sig;
    if (signalPerSystem > 0) sig = SignalOut{dSignals.get(), r.signalRows, p.signalStride, r.signalWidth};

    ChunkArrays c{dSystems.get(), dWork.get(),     dMatrices.get(), dPivots.get(), dActive.get(),
                  dFactorA.get(), dFactorId.get(), dFactorPiv.get(), dFactorInfo.get(), dSolveA.get(),
                  dSolveB.get(),  dSolveId.get(),  dSolvePiv.get(), dCounters.get(), workSize,
                  N};
    std::vector<unsigned char> skip(chunk);
    std::vector<int> status(chunk);
    const LockstepLaunchPolicy policy;

    for (size_t begin = 0; begin < static_cast<size_t>(p.nSystems); begin += chunk) {
      const int n = static_cast<int>(std::min(chunk, static_cast<size_t>(p.nSystems) - begin));
      for (int k = 0; k < n; ++k) skip[static_cast<size_t>(k)] = p.rowErrors[begin + static_cast<size_t>(k)].empty() ? 0 : 1;
      dTheta.CopyFromHost(p.theta.data() + begin * static_cast<size_t>(nt), static_cast<size_t>(n) * static_cast<size_t>(nt), stream_);
      dSkip.CopyFromHost(skip.data(), static_cast<size_t>(n), stream_);
      // rows a system does not record stay NaN (all bits set is a NaN)
      if (signalPerSystem > 0)
        MBS_CUDA_CHECK(cudaMemsetAsync(dSignals.get(), 0xFF, static_cast<size_t>(n) * signalPerSystem * sizeof(Real), stream_));
      InitKernel<<<policy.Grid(n), policy.blockSize, 0, stream_>>>(c, dShared.get(), dTheta.get(), nt, n, dSignal.get(),
                                                                   dSkip.get(), dValues.get(), nv, dStatus.get(),
                                                                   dInfo.get(), sig);
      MBS_CUDA_CHECK(cudaGetLastError());
      RunRounds(c, n, N, policy);
      FinishKernel<<<policy.Grid(n), policy.blockSize, 0, stream_>>>(c, n, dValues.get(), nv, dStatus.get(), dInfo.get(),
                                                                     dSignalCount.get(), r.signalRows);
      MBS_CUDA_CHECK(cudaGetLastError());
      dValues.CopyToHost(r.values.data() + begin * static_cast<size_t>(nv), static_cast<size_t>(n) * static_cast<size_t>(nv), stream_);
      if (signalPerSystem > 0) {
        dSignals.CopyToHost(r.signals.data() + begin * signalPerSystem, static_cast<size_t>(n) * signalPerSystem, stream_);
        dSignalCount.CopyToHost(r.signalCount.data() + begin, static_cast<size_t>(n), stream_);
      }
      dStatus.CopyToHost(status.data(), static_cast<size_t>(n), stream_);
      dInfo.CopyToHost(r.info.data() + begin, static_cast<size_t>(n), stream_);
      MBS_CUDA_CHECK(cudaStreamSynchronize(stream_));
      for (int k = 0; k < n; ++k) r.status[begin + static_cast<size_t>(k)] = static_cast<SolveStatus>(status[static_cast<size_t>(k)]);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

 private:
  /// Throws ValidationError for an explicit solver type: the baseline is generalized-alpha only.
  static void RefuseExplicitSolver(DynamicSolverType solver) {
    if (IsExplicitSolverType(solver))
      throw ValidationError(std::string("evaluator 'cuda-cublas': DynamicSolverType ") + DynamicSolverTypeName(solver) +
                            " is explicit; the cuBLAS batched-factorization baseline runs GeneralizedAlpha only "
                            "(use evaluator 'cuda' for explicit solvers)");
  }

  /// Systems per chunk: as many as memoryFraction of the free device memory holds at
  /// `bytesPerSystem` each (CublasBytesPerSystem), at most 2^20 and maxChunkSystems (if set),
  /// at least 1 and at most the batch.
  size_t PlanChunk(size_t bytesPerSystem, int nSystems) const {
    size_t freeBytes = 0, totalBytes = 0;
    MBS_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    size_t chunk = static_cast<size_t>(options_.memoryFraction * static_cast<double>(freeBytes)) / bytesPerSystem;
    chunk = std::min<size_t>(chunk, size_t(1) << 20);
    if (options_.maxChunkSystems > 0) chunk = std::min<size_t>(chunk, static_cast<size_t>(options_.maxChunkSystems));
    return std::max<size_t>(1, std::min<size_t>(chunk, static_cast<size_t>(nSystems)));
  }

  /// Rounds of (collect, getrfBatched, resume, collect, getrsBatched, resume) until no system
  /// asks for anything, i.e. every system is finished.
  void RunRounds(const ChunkArrays& c, int n, int N, const LockstepLaunchPolicy& policy) {
    for (;;) {
      int counts[2] = {0, 0};
      MBS_CUDA_CHECK(cudaMemsetAsync(c.counters, 0, 2 * sizeof(int), stream_));
      CollectFactorizeKernel<<<policy.Grid(n), policy.blockSize, 0, stream_>>>(c, n);
      MBS_CUDA_CHECK(cudaGetLastError());
      MBS_CUDA_CHECK(cudaMemcpyAsync(&counts[0], c.counters, sizeof(int), cudaMemcpyDeviceToHost, stream_));
      MBS_CUDA_CHECK(cudaStreamSynchronize(stream_));
      if (counts[0] > 0) {
        MBS_CUBLAS_CHECK(cublasDgetrfBatched(handle_, N, c.factorA, N, c.factorPiv, c.factorInfo, counts[0]));
        ResumeFactorizedKernel<<<policy.Grid(counts[0]), policy.blockSize, 0, stream_>>>(c, counts[0]);
        MBS_CUDA_CHECK(cudaGetLastError());
      }
      CollectSolveKernel<<<policy.Grid(n), policy.blockSize, 0, stream_>>>(c, n);
      MBS_CUDA_CHECK(cudaGetLastError());
      MBS_CUDA_CHECK(cudaMemcpyAsync(&counts[1], c.counters + 1, sizeof(int), cudaMemcpyDeviceToHost, stream_));
      MBS_CUDA_CHECK(cudaStreamSynchronize(stream_));
      if (counts[1] > 0) {
        int argInfo = 0;  // getrsBatched reports invalid arguments only (host pointer)
        MBS_CUBLAS_CHECK(cublasDgetrsBatched(handle_, CUBLAS_OP_N, N, 1, c.solveA, N, c.solvePiv, c.solveB, N, &argInfo,
                                             counts[1]));
        if (argInfo != 0)
          throw std::runtime_error("cuda-cublas: cublasDgetrsBatched rejected argument " + std::to_string(-argInfo));
        ResumeSolvedKernel<<<policy.Grid(counts[1]), policy.blockSize, 0, stream_>>>(c, counts[1]);
        MBS_CUDA_CHECK(cudaGetLastError());
      }
      if (counts[0] == 0 && counts[1] == 0) return;
    }
  }

  CudaEvaluatorOptions options_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t handle_ = nullptr;
};

}  // namespace

size_t CublasBytesPerSystem(const BatchProblem& p) {
  const LayoutView L = p.layout->View();
  const size_t N = static_cast<size_t>(L.nODE2 + L.nODE1 + L.nAE);
  return PlanDeviceMemory(p).globalBytesPerSystem + sizeof(System) +
         static_cast<size_t>(GeneralizedAlphaWorkSize(L)) * sizeof(Real) + N * N * sizeof(Real) + 3 * N * sizeof(int) +
         3 * sizeof(Real*) + 3 * sizeof(int) + 1;
}

std::unique_ptr<Evaluator> CreateCublasEvaluator(const CudaEvaluatorOptions& options) {
  return std::make_unique<CublasEvaluator>(options);
}

}  // namespace mbsweep
