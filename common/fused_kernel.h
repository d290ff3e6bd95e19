/// @file fused_kernel.h
/// What every thread-per-system CUDA kernel does around its integrator, shared by the
/// interpreter's kernels (cuda/evaluator_cuda.cu) and the kernels generated per model
/// (common/codegen.h, compiled at run time by NVRTC): the chunk's arguments, the start and end
/// of a system's outputs, its theta row and its objective observer. ThetaLocalBound is visible
/// to host code as well (the evaluator's plan and the code generator).
#pragma once

#include "common/generalized_alpha.h"  // SolveInfo
#include "common/objectives.h"

namespace mbsweep {

/// Theta values one system of a thread-per-system kernel for capacity C copies into its
/// thread's local memory at the start (the benchmark models need 4 to 5 per unknown). The chunk's
/// theta is then uploaded by columns, so that the threads of a warp, which hold consecutive
/// systems, read consecutive addresses; in local memory, which the hardware interleaves across
/// threads, every later read coalesces too. A model with longer theta rows, and the
/// warp-per-system kernel, whose lanes share one system, read the rows where they are.
MBS_HD_INLINE constexpr int ThetaLocalBound(int capacity) { return 8 * capacity; }

#if defined(__CUDACC__)

/// Where the fused kernels write decimated signals (BatchProblem::signalRows > 0): `rows`
/// rows of `width` Reals per system of the chunk, and the rows each system recorded.
struct RecordedSignals {
  Real* data = nullptr;
  int* count = nullptr;
  int rows = 0, stride = 1, width = 0;
};

/// What the fused kernels read and write for a chunk: theta in; objective values, statuses,
/// counters and signals out (one row / entry per system of the chunk). A generated kernel
/// ignores L (its layout is a constant).
struct FusedArgs {
  LayoutView L;
  const Real* theta;  ///< by columns (theta[k nSystems + i]) if thetaByColumns, else rows
  bool thetaByColumns;
  int nTheta, nSystems;
  ObjectiveSet set;
  const Real* signal;
  const unsigned char* skip;
  Real* values;
  int nValues;
  int* status;
  SolveInfo* info;
  RecordedSignals rec;
};

/// Start of system i's outputs: NaN values and no recorded signal rows; a skipped row (it
/// broke a parameter rule) gets status invalid_parameter and false (nothing to run).
__device__ __forceinline__ bool BeginSystemOutputs(const FusedArgs& a, int i) {
  Real* out = a.values + static_cast<size_t>(i) * a.nValues;
  for (int k = 0; k < a.nValues; ++k) out[k] = Real(NAN);
  if (a.rec.rows > 0) a.rec.count[i] = 0;
  if (!a.skip[i]) return true;
  a.status[i] = static_cast<int>(SolveStatus::invalid_parameter);
  a.info[i] = SolveInfo{};
  a.info[i].status = SolveStatus::invalid_parameter;
  return false;
}

/// Theta row of system i: gathered from the columns into `local` (ThetaLocalBound values) if
/// the chunk is stored by columns (consecutive threads read consecutive addresses), else the
/// row in global memory.
__device__ __forceinline__ const Real* SystemTheta(const FusedArgs& a, int i, Real* local) {
  if (!a.thetaByColumns) return a.theta + static_cast<size_t>(i) * a.nTheta;
  for (int k = 0; k < a.nTheta; ++k) local[k] = a.theta[static_cast<size_t>(k) * a.nSystems + i];
  return local;
}

/// Theta row of system i (N = a.nTheta values) gathered into `local` from rows or columns
/// alike: with every call inlined (MBSWEEP_INLINE_ALL) its constant indices keep it in registers.
template <int N>
__device__ __forceinline__ void GatherTheta(const FusedArgs& a, int i, Real* local) {
  MBS_UNROLL for (int k = 0; k < N; ++k)
    local[k] = a.thetaByColumns ? a.theta[static_cast<size_t>(k) * a.nSystems + i]
                                : a.theta[static_cast<size_t>(i) * a.nTheta + k];
}

/// The objective observer of system i with its theta row (recording its signal rows if asked).
/// `a` must be the kernel's parameter (the observer refers to a.set).
__device__ __forceinline__ ObjectiveObserver<> MakeSystemObserver(const FusedArgs& a, int i, const Real* theta) {
  ObjectiveObserver<> obs(a.L, theta, a.set, a.signal);
  if (a.rec.rows > 0) {
    obs.signalOut = a.rec.data + static_cast<size_t>(i) * a.rec.rows * a.rec.width;
    obs.signalCapacity = a.rec.rows;
    obs.signalStride = a.rec.stride;
  }
  return obs;
}

/// End of system i's run: counters, status, recorded rows, and the objective values of an ok
/// run (the others stay NaN).
__device__ __forceinline__ void FinishSystemOutputs(const FusedArgs& a, int i, const SolveInfo& r,
                                                    ObjectiveObserver<>& obs) {
  a.info[i] = r;
  a.status[i] = static_cast<int>(r.status);
  if (a.rec.rows > 0) a.rec.count[i] = obs.signalRows;
  if (r.status == SolveStatus::ok) obs.Finalize(a.values + static_cast<size_t>(i) * a.nValues);
}

/// One thread runs system blockIdx.x blockDim.x + threadIdx.x of the chunk: its outputs'
/// start, its theta (ThetaLocal Reals of local memory for a chunk by columns), `run(theta,
/// observer)` (the integrator, returning its SolveInfo) and its outputs' end. With `Gather`,
/// theta (ThetaLocal Reals, the whole row) is gathered whichever way the chunk is stored.
template <int ThetaLocal, bool Gather = false, class Run>
__device__ __forceinline__ void RunThreadSystem(const FusedArgs& a, Run run) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= a.nSystems || !BeginSystemOutputs(a, i)) return;
  Real thetaLocal[ThetaLocal > 0 ? ThetaLocal : 1];
  const Real* theta = thetaLocal;
  if constexpr (Gather)
    GatherTheta<ThetaLocal>(a, i, thetaLocal);
  else
    theta = SystemTheta(a, i, thetaLocal);
  ObjectiveObserver<> obs = MakeSystemObserver(a, i, theta);
  const SolveInfo r = run(theta, obs);
  FinishSystemOutputs(a, i, r, obs);
}

#endif  // __CUDACC__

}  // namespace mbsweep
