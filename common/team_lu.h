/// @file team_lu.h
/// FactorizeForSolves / SolveFactored (common/dense_lu.h, FixedLU's arithmetic) run by a team
/// of lanes that share one row-major n x n matrix: the cooperative linear algebra of the
/// warp-per-system CUDA kernel (cuda/evaluator_cuda.cu), written once for the device warp and for a host team that
/// emulates its lanes (tests/common/test_team_lu.cpp checks it against FactorizeForSolves
/// and SolveFactored bit for bit).
///
/// Every element is computed with the serial routines' arithmetic: the diagonal shortcut
/// (InvertIfDiagonal), the pivot row (the first row with the strictly largest |a[i][k]|, as
/// LUFactorize chooses it), the multipliers l = a[i][k] * inv and the updates
/// a[i][j] -= l * a[k][j] (skipped for l == 0), and in the solve the same subtraction order
/// per unknown. Only the assignment of elements to lanes differs.
///
/// Team concept (what the algorithms below use):
///   int Size() const;                      number of lanes T
///   void ForEachLane(F f);                 runs f(lane) for the calling lane (device) or for
///                                          every lane in turn (host emulation)
///   void Sync();                           barrier: what a lane wrote before it is visible to
///                                          every lane after it
///   TeamCandidate<S> ArgMax(F candidate);  every lane proposes candidate(lane); every lane gets
///                                          the largest value, ties to the lowest index
///   T Broadcast(T v, int source);          lane `source`'s v, on every lane
/// The algorithms are sequences of stages separated by Sync: within a stage a lane writes
/// only elements no other lane reads or writes in that stage, so running the lanes of a
/// stage one after the other (EmulatedTeam) computes exactly what the lanes of a warp
/// compute concurrently. Every lane takes every branch of the algorithms (all branch
/// conditions are team-uniform), so every lane reaches every Sync and shuffle.
#pragma once

#include "common/dense_lu.h"
#include "common/types.h"

namespace mbsweep {

/// One lane's proposal to Team::ArgMax: a value and the index it belongs to (index < 0: no
/// proposal; it loses to every proposal).
template <class Scalar>
struct TeamCandidate {
  Scalar value;
  int index;
};

/// True if candidate a wins over b: the larger value, ties (and equal values such as -0 and
/// +0) to the lower index; a missing proposal (index < 0) never wins over a proposal. NaN
/// values are never proposed (the algorithms skip them, as LUFactorize's `v > best` does).
template <class Scalar>
MBS_HD_INLINE bool TeamCandidateWins(const TeamCandidate<Scalar>& a, const TeamCandidate<Scalar>& b) {
  if (a.index < 0) return false;
  if (b.index < 0) return true;
  return a.value > b.value || (a.value == b.value && a.index < b.index);
}

namespace detail {
template <class Scalar>
MBS_HD_INLINE Scalar TeamAbs(Scalar v) {
  return v < 0 ? -v : v;  // as LUFactorize writes it (keeps -0, which compares equal to +0)
}

/// Shape of the row-major n x n matrix `a` for the diagonal shortcut (InvertIfDiagonal), on
/// every lane: 2 if it has a non-zero off-diagonal entry, else 1 if it has a zero or
/// non-finite diagonal entry, else 0 (per lane the worst of its elements; the largest wins).
template <class Team, class Scalar> MBS_HD_FORCEINLINE Scalar TeamDiagonalShape(Team& team, const Scalar* a, int n) {
  const int T = team.Size();
  const TeamCandidate<Scalar> shape = team.ArgMax([&](int lane) {
    int worst = 0;
    for (int e = lane; e < n * n; e += T) {
      const int i = e / n, j = e - i * n;
      if (i != j) {
        if (a[e] != 0) worst = 2;
      } else if (worst == 0) {
        const Scalar d = a[e];
        if (!(d != 0) || !(d - d == 0)) worst = 1;
      }
    }
    return TeamCandidate<Scalar>{Scalar(worst), lane};
  });
  return shape.value;
}

/// Pivot of column k, on every lane: the row LUFactorize picks (the first of the largest
/// |a[i][k]|, i >= k) and its |a[i][k]|, or row k if |a[k][k]| is NaN.
template <class Team, class Scalar>
MBS_HD_FORCEINLINE TeamCandidate<Scalar> TeamPivot(Team& team, const Scalar* a, int n, int k) {
  const int T = team.Size();
  // Each lane scans its rows k + lane, k + lane + T, ... with LUFactorize's strict
  // `v > best` (the first of equal values, NaN skipped); the team takes the largest, the
  // lowest row on ties: the row LUFactorize's scan from k downwards picks.
  TeamCandidate<Scalar> best = team.ArgMax([&](int lane) {
    TeamCandidate<Scalar> c{Scalar(0), -1};
    for (int i = k + lane; i < n; i += T) {
      const Scalar v = TeamAbs(a[i * n + k]);
      if (c.index < 0 ? v == v : v > c.value) c = TeamCandidate<Scalar>{v, i};
    }
    return c;
  });
  // LUFactorize starts its scan at |a[k][k]|: a NaN there stays the "best" and fails below.
  const Scalar diagonalValue = TeamAbs(a[k * n + k]);
  if (!(diagonalValue == diagonalValue)) best = TeamCandidate<Scalar>{diagonalValue, k};
  return best;
}

/// Interchanges rows k and p of `a`, columns split over the lanes; starts and ends with a
/// Sync.
template <class Team, class Scalar> MBS_HD_FORCEINLINE void TeamSwapRows(Team& team, Scalar* a, int n, int k, int p) {
  const int T = team.Size();
  team.Sync();  // every lane has read a[k][k] (TeamPivot) before row k changes
  team.ForEachLane([&](int lane) {
    for (int j = lane; j < n; j += T) {
      const Scalar t = a[k * n + j];
      a[k * n + j] = a[p * n + j];
      a[p * n + j] = t;
    }
  });
  team.Sync();
}

/// Elimination below the pivot a[k][k]: the multipliers of column k, then the update of the
/// trailing rows and columns k+1..; ends with a Sync.
template <class Team, class Scalar> MBS_HD_FORCEINLINE void TeamEliminateBelow(Team& team, Scalar* a, int n, int k) {
  const int T = team.Size();
  // multipliers: column k below the diagonal, rows split over the lanes
  const Scalar inv = Scalar(1) / a[k * n + k];
  team.ForEachLane([&](int lane) {
    for (int i = k + 1 + lane; i < n; i += T) a[i * n + k] = a[i * n + k] * inv;
  });
  team.Sync();
  // trailing update: columns k+1.. split over the lanes (each lane walks its columns down
  // the rows: consecutive lanes touch consecutive elements of a row)
  team.ForEachLane([&](int lane) {
    for (int i = k + 1; i < n; ++i) {
      const Scalar l = a[i * n + k];
      if (l != 0)
        for (int j = k + 1 + lane; j < n; j += T) a[i * n + j] -= l * a[k * n + j];
    }
  });
  team.Sync();
}
}  // namespace detail

/// FactorizeDense on the row-major n x n matrix `a` by a team: inverted in place if diagonal
/// (`diagonal` set on every lane), LU-factorized with partial pivoting otherwise, interchange
/// k <-> piv[k] recorded. Returns false (on every lane) for a singular or non-finite matrix;
/// then `a` and `piv` hold what FactorizeDense leaves there. `a` and `piv` are shared by the
/// team; the call ends with a Sync.
template <class Team, class Scalar>
MBS_HD bool TeamFactorizeDense(Team& team, Scalar* a, int* piv, int n, bool& diagonal) {
  const int T = team.Size();
  // diagonal shortcut (InvertIfDiagonal)
  const Scalar shape = detail::TeamDiagonalShape(team, a, n);
  diagonal = shape < 2;
  if (diagonal) {
    if (shape > 0) {
      team.Sync();
      return false;  // zero or non-finite diagonal entry: a unchanged
    }
    team.ForEachLane([&](int lane) {
      for (int i = lane; i < n; i += T) a[i * n + i] = Scalar(1) / a[i * n + i];
    });
    team.Sync();
    return true;
  }

  for (int k = 0; k < n; ++k) {
    const TeamCandidate<Scalar> best = detail::TeamPivot(team, a, n, k);
    const int p = best.index;
    team.ForEachLane([&](int lane) {
      if (lane == 0) piv[k] = p;
    });
    if (!(best.value > 0) || !(best.value < Scalar(1e308))) {
      team.Sync();
      return false;
    }
    if (p != k) detail::TeamSwapRows(team, a, n, k, p);
    detail::TeamEliminateBelow(team, a, n, k);
  }
  return true;
}

/// FactorizeForSolves (common/dense_lu.h) by a team: TeamFactorizeDense, then for an LU the
/// factors transposed, U's reciprocal diagonal in `invDiag` and, up to kInverseUpTo unknowns,
/// the inverse in `inverse` (one column per lane, each with FactorizeForSolves's arithmetic).
/// `a`, `piv`, `invDiag` and `inverse` are shared by the team; the call ends with a Sync.
template <class Team, class Scalar>
MBS_HD bool TeamFactorizeForSolves(Team& team, Scalar* a, int* piv, Scalar* invDiag, Scalar* inverse, int n,
                                   bool& diagonal) {
  if (!TeamFactorizeDense(team, a, piv, n, diagonal)) return false;
  if (diagonal) return true;
  const int T = team.Size();
  team.ForEachLane([&](int lane) {
    for (int i = lane; i < n; i += T) detail::TransposeFactorsAt(a, n, i);
  });
  team.Sync();
  team.ForEachLane([&](int lane) {
    for (int i = lane; i < n; i += T) invDiag[i] = Scalar(1) / a[i * n + i];
  });
  team.Sync();
  if (n <= kInverseUpTo) {
    team.ForEachLane([&](int lane) {
      for (int j = lane; j < n; j += T) detail::InverseColumn(a, piv, invDiag, n, j, inverse);
    });
    team.Sync();
  }
  return true;
}

/// SolveFactored by a team: x = A^-1 b with a factorization from TeamFactorizeForSolves (or
/// FactorizeForSolves); x may alias b. `a`, `piv`, `invDiag`, `inverse`, `b` and `x` are
/// shared by the team; the call starts by reading b (write it before a Sync) and ends with a
/// Sync.
///
/// Up to kInverseUpTo unknowns each lane forms its rows of the product with the inverse (the
/// terms in column order, as MultiplyInverse). Above, both substitutions run column by column
/// over the lanes: unknown i receives the update of column j after those of the columns
/// before it, in SubstituteTransposed's order (ascending in the forward, descending in the
/// back substitution).
template <class Team, class Scalar>
MBS_HD void TeamSolveFactored(Team& team, const Scalar* a, const int* piv, const Scalar* invDiag,
                              const Scalar* inverse, int n, bool diagonal, const Real* b, Real* x) {
  const int T = team.Size();
  if (diagonal) {
    team.ForEachLane([&](int lane) {
      for (int i = lane; i < n; i += T) x[i] = b[i] * a[i * n + i];
    });
    team.Sync();
    return;
  }
  if (n <= kInverseUpTo) {
    const int rows = InverseRows(n);
    Real y[kInverseUpTo];  // y[i] belongs to the lane of row i
    team.ForEachLane([&](int lane) {
      for (int i = lane; i < n; i += T) {
        Real s = 0;
        for (int j = 0; j < n; ++j) s += inverse[j * rows + i] * b[j];
        y[i] = s;
      }
    });
    team.Sync();  // every lane has read b before x (which may alias it) is written
    team.ForEachLane([&](int lane) {
      for (int i = lane; i < n; i += T) x[i] = y[i];
    });
    team.Sync();
    return;
  }
  if (x != b) {
    team.ForEachLane([&](int lane) {
      for (int i = lane; i < n; i += T) x[i] = b[i];
    });
    team.Sync();
  }
  team.ForEachLane([&](int lane) {
    if (lane == 0) ApplyPivots(piv, n, x);
  });
  team.Sync();
  for (int j = 0; j + 1 < n; ++j) {
    team.ForEachLane([&](int lane) {
      const Real xj = x[j];
      for (int i = j + 1 + lane; i < n; i += T) x[i] = x[i] - a[j * n + i] * xj;
    });
    team.Sync();
  }
  for (int j = n - 1; j >= 0; --j) {
    const Real xj = x[j] * invDiag[j];
    team.Sync();  // every lane has read x[j]
    team.ForEachLane([&](int lane) {
      for (int i = lane; i < j; i += T) x[i] = x[i] - a[j * n + i] * xj;
      if (lane == j % T) x[j] = xj;
    });
    team.Sync();
  }
}

#if !defined(__CUDA_ARCH__)
/// Host team of `size` lanes that runs each stage's lanes one after the other (tests, and the
/// statement of what the warp computes). Sync has nothing to wait for; Broadcast returns its
/// argument (values outside a stage are the same on every lane).
class EmulatedTeam {
 public:
  explicit EmulatedTeam(int size) : size_(size) {}
  int Size() const { return size_; }
  template <class F>
  void ForEachLane(F&& f) {
    for (int lane = 0; lane < size_; ++lane) f(lane);
  }
  void Sync() {}
  template <class F>
  auto ArgMax(F&& candidate) -> decltype(candidate(0)) {
    auto best = candidate(0);
    for (int lane = 1; lane < size_; ++lane) {
      const auto c = candidate(lane);
      if (TeamCandidateWins(c, best)) best = c;
    }
    return best;
  }
  template <class T>
  T Broadcast(T v, int /*source*/) {
    return v;
  }

 private:
  int size_;
};
#endif

#if defined(__CUDACC__)
/// Device team: the 32 lanes of one warp, all active (full-mask shuffles; the caller must
/// keep the whole warp in the call).
struct WarpTeam {
  static constexpr unsigned kFullMask = 0xffffffffu;
  int lane;  ///< threadIdx.x % 32
  __device__ int Size() const { return 32; }
  template <class F>
  __device__ void ForEachLane(F&& f) {
    f(lane);
  }
  __device__ void Sync() { __syncwarp(kFullMask); }
  /// Butterfly reduction: after five exchanges every lane holds the winner.
  template <class F>
  __device__ auto ArgMax(F&& candidate) -> decltype(candidate(0)) {
    auto best = candidate(lane);
    for (int offset = 16; offset > 0; offset >>= 1) {
      auto other = best;
      other.value = __shfl_xor_sync(kFullMask, best.value, offset);
      other.index = __shfl_xor_sync(kFullMask, best.index, offset);
      if (TeamCandidateWins(other, best)) best = other;
    }
    return best;
  }
  template <class T>
  __device__ T Broadcast(T v, int source) {
    return __shfl_sync(kFullMask, v, source);
  }
};
#endif

}  // namespace mbsweep
