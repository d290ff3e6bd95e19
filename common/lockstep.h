/// @file lockstep.h
/// Lockstep batch of generalized-alpha systems: every system runs the same integrator as the
/// fused per-system path (GeneralizedAlpha's phases Start/Advance/OnFactorized/OnSolved), but
/// its iteration matrices are assembled into its slot of a strided array of column-major
/// n x n matrices and factorized and solved by the batch, one batched call per phase. The CUDA
/// evaluator "cuda-cublas" runs the phases in kernels and uses cuBLAS getrfBatched /
/// getrsBatched; on the host, HostBatchLU factorizes with FixedLU's arithmetic, so the host
/// lockstep batch reproduces the fused CPU runner bit for bit (tests/cpu/test_lockstep.cpp).
/// The CUDA warp-per-system kernel drives one such system per warp (RunLockstepSystemWithTeam):
/// lane 0 runs the phases, the warp factorizes and solves the system's row-major slot.
#pragma once

#include <new>

#include "common/dense_lu.h"
#include "common/fused_kernel.h"
#include "common/generalized_alpha.h"
#include "common/system_runner.h"
#include "common/team_lu.h"

#if !defined(__CUDA_ARCH__)
#include <vector>
#endif

namespace mbsweep {

/// LA policy of one system of a lockstep batch: assembly into the system's column-major
/// n x n slot `a` (leading dimension n). Factorization and solve are the batch's.
struct BatchSlotLA {
  Real* a = nullptr;
  int n = 0;
  MBS_HD_INLINE void SetZero() {
    for (int i = 0; i < n * n; ++i) a[i] = 0;
  }
  MBS_HD_INLINE void add(int i, int j, Real v) { a[j * n + i] += v; }
};

/// LA policy of a system whose slot a team of lanes factorizes in place (the CUDA
/// warp-per-system kernel, common/team_lu.h): assembly into the row-major n x n slot `a`,
/// FixedLU's storage order, so that TeamFactorizeForSolves sees the matrix FixedLU would.
struct RowMajorSlotLA {
  Real* a = nullptr;
  int n = 0;
  MBS_HD_INLINE void SetZero() {
    for (int i = 0; i < n * n; ++i) a[i] = 0;
  }
  MBS_HD_INLINE void add(int i, int j, Real v) { a[i * n + j] += v; }
};

/// One system of a lockstep batch: its workspace, matrix slot, observer and the integrator
/// bound to them. Built in place (placement new; it refers to its own members, so it is
/// neither copied nor moved); `L`, `theta`, `P` and what the observer refers to must outlive it.
/// SlotLA: the slot's storage order (BatchSlotLA column-major for cuBLAS and HostBatchLU,
/// RowMajorSlotLA for the warp-per-system kernel).
template <class Observer, class SlotLA = BatchSlotLA>
struct LockstepSystem {
  using Integrator = GeneralizedAlpha<SlotLA, Observer>;
  GeneralizedAlphaWork w;
  SlotLA la;
  Observer obs;
  Integrator ga;
  GeneralizedAlphaRequest request = GeneralizedAlphaRequest::finished;  ///< last answer of Advance

  /// `work`: GeneralizedAlphaWorkSize(L) Reals; `matrix`: the n x n slot (n = nODE2 + nODE1 + nAE).
  /// The initial state comes from the theta row, as in RunGeneralizedAlphaSystem; the run is
  /// started (the first Advance is the driver's).
  MBS_HD LockstepSystem(const LayoutView& L, const Real* theta, const GeneralizedAlphaParameters& P, Real* work,
                        Real* matrix, const Observer& observer)
      : la{matrix, L.nODE2 + L.nODE1 + L.nAE}, obs(observer), ga(L, theta, P, w, la, obs) {
    const int size = GeneralizedAlphaWorkSize(L);
    for (int i = 0; i < size; ++i) work[i] = 0;
    MakeGeneralizedAlphaWork(L, work, w);
    InitialStateFromTheta(L, theta, w.q, w.v, w.y);
    la.SetZero();
    ga.Start();
  }
  LockstepSystem(const LockstepSystem&) = delete;
  LockstepSystem& operator=(const LockstepSystem&) = delete;

  /// Resumes after the batch factorized this system's slot (ok: non-singular) and advances
  /// to the next request.
  MBS_HD_INLINE void Factorized(bool ok) {
    ga.OnFactorized(ok);
    request = ga.Advance();
  }
  /// Resumes after the batch solved into w.delta and advances to the next request.
  MBS_HD_INLINE void Solved() {
    ga.OnSolved();
    request = ga.Advance();
  }
};

/// Runs one system to the end with a team of lanes (the CUDA warp-per-system kernel; on the
/// host, tests drive it with an EmulatedTeam): lane 0 owns the system `s` (built, started;
/// other lanes may pass null) and runs its phases; when Advance asks for a factorization or a
/// solve, lane 0 broadcasts the request and the whole team factorizes `s->la`'s row-major
/// slot `matrix` in place (TeamFactorizeForSolves; pivots in `piv`, U's reciprocal diagonal in
/// `invDiag` (n), up to kInverseUpTo unknowns the inverse in `inverse` (n InverseRows(n),
/// 16-byte aligned)) or solves w.res into w.delta (TeamSolveFactored), then lane 0 resumes.
/// `matrix`, `piv`, `invDiag`, `inverse` and the workspace `work` that s->w points into must be
/// shared by the team (n = nODE2 + nODE1 + nAE unknowns).
/// Every lane returns when the system is finished.
template <class Team, class Observer>
MBS_HD void RunLockstepSystemWithTeam(Team& team, LockstepSystem<Observer, RowMajorSlotLA>* s, const LayoutView& L,
                                      Real* work, Real* matrix, int* piv, Real* invDiag, Real* inverse) {
  const int n = L.nODE2 + L.nODE1 + L.nAE;
  GeneralizedAlphaWork w;  // every lane's view of the shared workspace (res and delta never move)
  MakeGeneralizedAlphaWork(L, work, w);
  bool diagonal = false;  // team-uniform: the last factorization's diagonal shortcut
  int request = 0;
  team.ForEachLane([&](int lane) {
    if (lane == 0) request = static_cast<int>(s->request = s->ga.Advance());
  });
  for (;;) {
    request = team.Broadcast(request, 0);
    if (request == static_cast<int>(GeneralizedAlphaRequest::finished)) return;
    team.Sync();  // lane 0's matrix or right-hand side is visible to the team
    if (request == static_cast<int>(GeneralizedAlphaRequest::factorize)) {
      const bool ok = TeamFactorizeForSolves(team, matrix, piv, invDiag, inverse, n, diagonal);
      team.ForEachLane([&](int lane) {
        if (lane != 0) return;
        s->Factorized(ok);
        request = static_cast<int>(s->request);
      });
    } else {
      TeamSolveFactored(team, matrix, piv, invDiag, inverse, n, diagonal, w.res, w.delta);
      team.ForEachLane([&](int lane) {
        if (lane != 0) return;
        s->Solved();
        request = static_cast<int>(s->request);
      });
    }
  }
}

/// Shared memory of one warp of the CUDA warp-per-system kernels, sized for the model's n
/// unknowns (not its capacity): the row-major n x n iteration-matrix slot, the integrator's
/// workspace (GeneralizedAlphaWorkSize Reals), U's reciprocal diagonal (n), up to kInverseUpTo
/// unknowns the inverse (n InverseRows(n), from a 16-byte boundary) and n pivots, padded to 16
/// bytes. The workspace lives in shared memory, not in lane 0's local memory, because the warp's
/// solve reads w.res and writes w.delta; lane 0's integrator object and observer stay in its
/// local memory. Offsets and sizes in Reals.
struct WarpSlot {
  int n = 0;         ///< unknowns nODE2 + nODE1 + nAE
  int workSize = 0;  ///< GeneralizedAlphaWorkSize
  int inverse = 0;   ///< offset of the inverse from the slot's start (16-byte aligned)
  int pivots = 0;    ///< offset of the pivots
  int reals = 0;     ///< Reals per warp (matrix, workspace, diagonal, inverse, pivots, padding)
};
MBS_HD_INLINE constexpr WarpSlot MakeWarpSlot(int n, int workSize) {
  WarpSlot s{n, workSize, 0, 0, 0};
  const int pivotReals = static_cast<int>((static_cast<size_t>(n) * sizeof(int) + sizeof(Real) - 1) / sizeof(Real));
  s.inverse = n * n + workSize + n;
  s.inverse += s.inverse % 2;
  s.pivots = s.inverse + (n <= kInverseUpTo ? n * InverseRows(n) : 0);
  s.reals = s.pivots + pivotReals;
  s.reals += s.reals % 2;  // 16-byte steps between warps
  return s;
}
MBS_HD_INLINE WarpSlot MakeWarpSlot(const LayoutView& L) {
  return MakeWarpSlot(L.nODE2 + L.nODE1 + L.nAE, GeneralizedAlphaWorkSize(L));
}
/// Most warps in a block of a warp-per-system kernel (its launch bound: 32 kWarpKernelMaxWarps
/// threads).
constexpr int kWarpKernelMaxWarps = 4;

#if defined(__CUDACC__)
using WarpSystem = LockstepSystem<ObjectiveObserver<>, RowMajorSlotLA>;

/// One warp integrates system blockIdx.x (blockDim.x / 32) + warp of the chunk
/// (generalized-alpha), in its `slot` of the block's dynamic shared memory: lane 0 builds the
/// system in its local memory over the slot and runs its phases; the warp factorizes and solves
/// (RunLockstepSystemWithTeam, common/team_lu.h: FixedLU's arithmetic). Outputs as
/// RunThreadSystem's. Every lane of a warp stays in the warp's system until it is finished
/// (the exit test is warp-uniform), so every shuffle has all 32 lanes. `a` must be the kernel's
/// parameter (the observer refers to it); L is a.L, or the constant layout of generated code.
__device__ inline void RunWarpSystem(const FusedArgs& a, const LayoutView& L, const GeneralizedAlphaParameters& P,
                                     const WarpSlot& slot) {
  extern __shared__ Real warpSlots[];
  WarpTeam team{static_cast<int>(threadIdx.x % 32)};
  const int warp = static_cast<int>(threadIdx.x / 32);
  const int i = static_cast<int>(blockIdx.x) * static_cast<int>(blockDim.x / 32) + warp;
  if (i >= a.nSystems) return;
  Real* matrix = warpSlots + static_cast<size_t>(warp) * static_cast<size_t>(slot.reals);
  Real* work = matrix + slot.n * slot.n;
  Real* invDiag = work + slot.workSize;
  Real* inverse = matrix + slot.inverse;
  int* piv = reinterpret_cast<int*>(matrix + slot.pivots);
  int run = 0;
  if (team.lane == 0) run = BeginSystemOutputs(a, i) ? 1 : 0;
  if (!team.Broadcast(run, 0)) return;
  alignas(WarpSystem) unsigned char storage[sizeof(WarpSystem)];
  WarpSystem* s = nullptr;
  if (team.lane == 0) {
    const Real* theta = a.theta + static_cast<size_t>(i) * a.nTheta;  // rows (thetaByColumns is false)
    s = new (storage) WarpSystem(L, theta, P, work, matrix, MakeSystemObserver(a, i, theta));
  }
  RunLockstepSystemWithTeam(team, s, L, work, matrix, piv, invDiag, inverse);
  if (team.lane == 0) {
    FinishSystemOutputs(a, i, s->ga.Info(), s->obs);
    s->~WarpSystem();
  }
}
#endif  // __CUDACC__

#if !defined(__CUDA_ARCH__)

/// Host side of the batched linear algebra: per system a row-major copy of its slot, its
/// pivots, reciprocal diagonal, inverse (up to kInverseUpTo unknowns) and FixedLU's diagonal
/// shortcut, factorized and solved with FixedLU's arithmetic (FactorizeForSolves /
/// SolveFactored), one system after the other.
class HostBatchLU {
 public:
  HostBatchLU(int systems, int n)
      : n_(n), a_(Count(systems, n * n)), invDiag_(Count(systems, n)),
        inverse_(Count(systems, n <= kInverseUpTo ? n * InverseRows(n) : 0)), piv_(Count(systems, n)),
        diagonal_(static_cast<size_t>(systems), 0) {}

  /// Factorizes the column-major slot of system `id`; false if singular or not finite.
  bool Factorize(int id, const Real* slot) {
    Real* a = At(a_, id, n_ * n_);
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < n_; ++j) a[i * n_ + j] = slot[j * n_ + i];
    bool diagonal = false;
    const bool ok = FactorizeForSolves(a, At(piv_, id, n_), At(invDiag_, id, n_), Inverse(id), n_, diagonal);
    diagonal_[static_cast<size_t>(id)] = diagonal ? 1 : 0;
    return ok;
  }
  /// Solves with system `id`'s last factorization: x = A^-1 b.
  void Solve(int id, const Real* b, Real* x) {
    SolveFactored(At(a_, id, n_ * n_), At(piv_, id, n_), At(invDiag_, id, n_), Inverse(id), n_,
                  diagonal_[static_cast<size_t>(id)] != 0, b, x, NoSolveSink{});
  }

 private:
  static size_t Count(int systems, int per) { return static_cast<size_t>(systems) * static_cast<size_t>(per); }
  template <class T>
  static T* At(std::vector<T>& v, int id, int per) {
    return v.data() + static_cast<size_t>(id) * static_cast<size_t>(per);
  }
  Real* Inverse(int id) { return n_ <= kInverseUpTo ? At(inverse_, id, n_ * InverseRows(n_)) : nullptr; }
  int n_;
  std::vector<Real> a_, invDiag_, inverse_;
  std::vector<int> piv_;
  std::vector<unsigned char> diagonal_;
};

/// Statistics of a lockstep run.
struct LockstepStatistics {
  int rounds = 0;                 ///< rounds (one batched factorization and one batched solve each)
  long long factorizations = 0;   ///< systems factorized, summed over the rounds
  long long solves = 0;           ///< systems solved, summed over the rounds
};

/// Runs `count` systems in lockstep on the host until all are finished. Each round: the
/// batch factorizes the slots of every system that asked for a factorization, those resume
/// (OnFactorized, Advance); then the batch solves for every system that asks for a solve, and
/// those resume (OnSolved, Advance). A system that asks for a factorization after a
/// factorization or a solve waits for the next round, exactly as on the device.
template <class Observer>
LockstepStatistics RunLockstepOnHost(LockstepSystem<Observer>* const* systems, int count, HostBatchLU& lu) {
  LockstepStatistics stats;
  std::vector<int> list;
  list.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) systems[i]->request = systems[i]->ga.Advance();
  for (;;) {
    bool pending = false;
    list.clear();
    for (int i = 0; i < count; ++i)
      if (systems[i]->request == GeneralizedAlphaRequest::factorize) list.push_back(i);
    if (!list.empty()) {
      pending = true;
      std::vector<unsigned char> ok(list.size());
      for (size_t k = 0; k < list.size(); ++k) ok[k] = lu.Factorize(list[k], systems[list[k]]->la.a) ? 1 : 0;
      for (size_t k = 0; k < list.size(); ++k) systems[list[k]]->Factorized(ok[k] != 0);
      stats.factorizations += static_cast<long long>(list.size());
    }
    list.clear();
    for (int i = 0; i < count; ++i)
      if (systems[i]->request == GeneralizedAlphaRequest::solve) list.push_back(i);
    if (!list.empty()) {
      pending = true;
      for (int id : list) lu.Solve(id, systems[id]->w.res, systems[id]->w.delta);
      for (int id : list) systems[id]->Solved();
      stats.solves += static_cast<long long>(list.size());
    }
    if (!pending) return stats;  // every system is finished
    ++stats.rounds;
  }
}

#endif  // !__CUDA_ARCH__

}  // namespace mbsweep
