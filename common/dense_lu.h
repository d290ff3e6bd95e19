/// @file dense_lu.h
/// Fixed-capacity dense LU with partial pivoting for host/device code: the linear-algebra
/// policy of the batch path (one matrix per system, no allocation). The index-3 iteration
/// matrix has a zero constraint block, so pivoting is not optional.
#pragma once

#include "common/types.h"

namespace mbsweep {

namespace detail {
/// Swaps blocks k and p >= k of `width` values each in x (rows of a row-major n x n matrix:
/// width n; entries of a vector: width 1). Where every call is inlined
/// (MBSWEEP_INLINE_ALL) p is compared with each candidate instead of indexing with it: with no
/// index taken from data, a small model's matrix and vectors stay in registers.
template <class Scalar, class Int>
MBS_HD_INLINE void SwapAt(Scalar* x, Int n, int width, int k, int p) {
#if defined(MBSWEEP_INLINE_ALL)
  MBS_UNROLL for (int i = k + 1; i < n; ++i)
    if (i == p)
      MBS_UNROLL for (int j = 0; j < width; ++j) {
        const Scalar t = x[k * width + j];
        x[k * width + j] = x[i * width + j];
        x[i * width + j] = t;
      }
#else
  (void)n;
  if (p != k)
    for (int j = 0; j < width; ++j) {
      const Scalar t = x[k * width + j];
      x[k * width + j] = x[p * width + j];
      x[p * width + j] = t;
    }
#endif
}
}  // namespace detail

/// In-place LU factorization with partial pivoting of the row-major n x n matrix a (Doolittle,
/// rows interchanged, interchange k <-> piv[k] recorded). Returns false for an exactly zero or
/// non-finite pivot.
template <class Scalar, class Int>
MBS_HD bool LUFactorize(Scalar* a, int* piv, Int n) {
  MBS_UNROLL for (int k = 0; k < n; ++k) {
    int p = k;
    Scalar best = a[k * n + k] < 0 ? -a[k * n + k] : a[k * n + k];
    MBS_UNROLL for (int i = k + 1; i < n; ++i) {
      const Scalar v = a[i * n + k] < 0 ? -a[i * n + k] : a[i * n + k];
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    if (!(best > 0) || !(best < Scalar(1e308))) return false;
    detail::SwapAt(a, n, n, k, p);
    const Scalar inv = Scalar(1) / a[k * n + k];
    MBS_UNROLL for (int i = k + 1; i < n; ++i) {
      const Scalar l = a[i * n + k] * inv;
      a[i * n + k] = l;
      if (l != 0)
        MBS_UNROLL for (int j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return true;
}

/// If the row-major n x n matrix a is diagonal, replaces each diagonal entry by its
/// reciprocal and returns 1; returns 0 (a unchanged) if an off-diagonal entry is non-zero and
/// -1 for a zero or non-finite diagonal entry. Point masses on coordinate springs, the most
/// common tiny study model, give a diagonal iteration matrix: factorizing it this way costs n
/// divisions instead of an LU.
template <class Scalar, class Int>
MBS_HD int InvertIfDiagonal(Scalar* a, Int n) {
  MBS_UNROLL for (int i = 0; i < n; ++i)
    MBS_UNROLL for (int j = 0; j < n; ++j)
      if (i != j && a[i * n + j] != 0) return 0;
  MBS_UNROLL for (int i = 0; i < n; ++i) {
    const Scalar d = a[i * n + i];
    if (!(d != 0) || !(d - d == 0)) return -1;
  }
  MBS_UNROLL for (int i = 0; i < n; ++i) a[i * n + i] = Scalar(1) / a[i * n + i];
  return 1;
}

/// The row-major n x n matrix a inverted if diagonal (`diagonal` set), LU-factorized with
/// partial pivoting otherwise (FactorizeForSolves's first step). Returns false for a singular
/// or non-finite matrix.
template <class Scalar, class Int>
MBS_HD_FORCEINLINE bool FactorizeDense(Scalar* a, int* piv, Int n, bool& diagonal) {
  const int d = InvertIfDiagonal(a, n);
  diagonal = d != 0;
  return diagonal ? d > 0 : LUFactorize(a, piv, n);
}
/// Up to this many unknowns FactorizeForSolves also forms the inverse and SolveFactored
/// multiplies by it.
constexpr int kInverseUpTo = 8;
/// Rows of each stored column of the inverse (even, so that the columns pair up).
MBS_HD_INLINE constexpr int InverseRows(int n) { return (n + 1) & ~1; }

/// Forward and back substitution with the transposed LU factors `a` (row j holds column j of L
/// below the diagonal and of U above it) and U's reciprocal diagonal `d`, in place on x (already
/// permuted). Column by column: each column updates the remaining unknowns independently,
/// instead of one strictly ordered row sum whose additions wait for each other; four columns at
/// a time, so each unknown is loaded and stored once per four.
template <class Scalar, class Int>
MBS_HD void SubstituteTransposed(const Scalar* a, const Scalar* d, Int n, Real* x) {
  int j = 0;
  MBS_UNROLL for (; j + 3 < n; j += 4) {  // unit lower triangle
    const Scalar* c0 = a + j * n;
    const Scalar *c1 = c0 + n, *c2 = c1 + n, *c3 = c2 + n;
    const Real x0 = x[j];
    const Real x1 = x[j + 1] - c0[j + 1] * x0;
    const Real x2 = x[j + 2] - c0[j + 2] * x0 - c1[j + 2] * x1;
    const Real x3 = x[j + 3] - c0[j + 3] * x0 - c1[j + 3] * x1 - c2[j + 3] * x2;
    x[j + 1] = x1;
    x[j + 2] = x2;
    x[j + 3] = x3;
    MBS_NO_OVERLAP
    MBS_UNROLL for (int i = j + 4; i < n; ++i) x[i] = x[i] - c0[i] * x0 - c1[i] * x1 - c2[i] * x2 - c3[i] * x3;
  }
  MBS_UNROLL for (; j < n; ++j) {
    const Scalar* c0 = a + j * n;
    const Real x0 = x[j];
    MBS_UNROLL for (int i = j + 1; i < n; ++i) x[i] = x[i] - c0[i] * x0;
  }
  MBS_UNROLL for (j = n - 1; j >= 3; j -= 4) {  // upper triangle
    const Scalar* c0 = a + j * n;
    const Scalar *c1 = c0 - n, *c2 = c1 - n, *c3 = c2 - n;
    const Real x0 = x[j] * d[j];
    const Real x1 = (x[j - 1] - c0[j - 1] * x0) * d[j - 1];
    const Real x2 = (x[j - 2] - c0[j - 2] * x0 - c1[j - 2] * x1) * d[j - 2];
    const Real x3 = (x[j - 3] - c0[j - 3] * x0 - c1[j - 3] * x1 - c2[j - 3] * x2) * d[j - 3];
    x[j] = x0;
    x[j - 1] = x1;
    x[j - 2] = x2;
    x[j - 3] = x3;
    MBS_NO_OVERLAP
    MBS_UNROLL for (int i = 0; i < j - 3; ++i) x[i] = x[i] - c0[i] * x0 - c1[i] * x1 - c2[i] * x2 - c3[i] * x3;
  }
  MBS_UNROLL for (; j >= 0; --j) {
    const Scalar* c0 = a + j * n;
    const Real x0 = x[j] * d[j];
    x[j] = x0;
    MBS_UNROLL for (int i = 0; i < j; ++i) x[i] = x[i] - c0[i] * x0;
  }
}

/// Applies the row interchanges of an LU factorization to x (in place).
template <class Int>
MBS_HD_INLINE void ApplyPivots(const int* piv, Int n, Real* x) {
  MBS_UNROLL for (int k = 0; k < n; ++k) detail::SwapAt(x, n, 1, k, piv[k]);
}

namespace detail {
/// FactorizeForSolves's transposition, row i: swaps the factors right of the diagonal in row i
/// with those below it in column i (rows are independent: a team runs them on its lanes).
template <class Scalar, class Int>
MBS_HD_INLINE void TransposeFactorsAt(Scalar* a, Int n, int i) {
  MBS_UNROLL for (int j = i + 1; j < n; ++j) {
    const Scalar t = a[i * n + j];
    a[i * n + j] = a[j * n + i];
    a[j * n + i] = t;
  }
}
/// Column j of the inverse (n <= kInverseUpTo) from the transposed factors, by one solve of
/// the unit vector e_j, into inverse + j * InverseRows(n); the padding row of an odd n is 0.
template <class Scalar, class Int>
MBS_HD_INLINE void InverseColumn(const Scalar* a, const int* piv, const Scalar* invDiag, Int n, int j,
                                 Scalar* inverse) {
  Real e[kInverseUpTo];
  MBS_UNROLL for (int i = 0; i < n; ++i) e[i] = i == j ? 1 : 0;
  ApplyPivots(piv, n, e);
  SubstituteTransposed(a, invDiag, n, e);
  const int rows = InverseRows(n);
  MBS_UNROLL for (int i = 0; i < rows; ++i) inverse[j * rows + i] = i < n ? static_cast<Scalar>(e[i]) : Scalar(0);
}
}  // namespace detail

/// The factorization for repeated solves (FixedLU, the reference solver's DenseLA, the host
/// lockstep batch): FactorizeDense, then for an LU the factors transposed in place, U's
/// reciprocal diagonal in `invDiag` (n), and up to kInverseUpTo unknowns the inverse in
/// `inverse` (column j at inverse + j * InverseRows(n); 16-byte aligned), formed by one solve
/// per unit vector. Modified Newton solves many times per factorization: the back
/// substitution's divisions waited for each other, and a small system's substitutions are
/// mostly waits, where the rows of a matrix-vector product are not. The results differ from
/// a row-by-row substitution's in round-off only. Returns false for a singular or non-finite
/// matrix.
template <class Scalar, class Int>
MBS_HD bool FactorizeForSolves(Scalar* a, int* piv, Scalar* invDiag, Scalar* inverse, Int n, bool& diagonal) {
  if (!FactorizeDense(a, piv, n, diagonal)) return false;
  if (diagonal) return true;
  MBS_UNROLL for (int i = 0; i < n; ++i) detail::TransposeFactorsAt(a, n, i);
  MBS_UNROLL for (int i = 0; i < n; ++i) invDiag[i] = Scalar(1) / a[i * n + i];
  if (n <= kInverseUpTo)
    MBS_UNROLL for (int j = 0; j < n; ++j) detail::InverseColumn(a, piv, invDiag, n, j, inverse);
  return true;
}

/// x = inverse * b for N <= kInverseUpTo unknowns; hands each x[i] to f(i, x[i]).
template <int N, class Scalar, class F>
MBS_HD_FORCEINLINE void MultiplyInverse(const Scalar* inverse, const Real* b, Real* x, F&& f) {
  constexpr int R = InverseRows(N);
#if defined(__GNUC__) && !defined(__CUDACC__)
  // written with vector types: left to itself, the vectorizer pairs the columns instead of the
  // rows and spends more instructions on shuffles than it saves
  typedef Real Pair __attribute__((vector_size(2 * sizeof(Real))));
  constexpr int P = R / 2;
  const Pair* col = static_cast<const Pair*>(__builtin_assume_aligned(inverse, 16));
  Pair y[P] = {};
  for (int j = 0; j < N; ++j) {
    const Pair bj = {b[j], b[j]};
    for (int p = 0; p < P; ++p) y[p] += col[j * P + p] * bj;
  }
  for (int i = 0; i < N; ++i) {
    x[i] = y[i / 2][i % 2];
    f(i, y[i / 2][i % 2]);
  }
#else
  Real y[R] = {};
  MBS_UNROLL for (int j = 0; j < N; ++j) {
    const Real bj = b[j];
    MBS_UNROLL for (int i = 0; i < R; ++i) y[i] += inverse[j * R + i] * bj;
  }
  MBS_UNROLL for (int i = 0; i < N; ++i) {
    x[i] = y[i];
    f(i, y[i]);
  }
#endif
}

/// Solves with a factorization from FactorizeForSolves (x may alias b). Up to kInverseUpTo
/// unknowns hands each x[i] to f(i, x[i]) as it is computed and returns true (the Newton update
/// then takes each increment as it comes: generalized_alpha.h's SolveEach); otherwise false.
template <class Scalar, class Int, class F>
MBS_HD_FORCEINLINE bool SolveFactored(const Scalar* a, const int* piv, const Scalar* invDiag, const Scalar* inverse,
                                      Int n, bool diagonal, const Real* b, Real* x, F&& f) {
  if (diagonal) {
    MBS_UNROLL for (int i = 0; i < n; ++i) x[i] = b[i] * a[i * n + i];
    return false;
  }
  switch (n) {
    case 1: return MultiplyInverse<1>(inverse, b, x, f), true;
    case 2: return MultiplyInverse<2>(inverse, b, x, f), true;
    case 3: return MultiplyInverse<3>(inverse, b, x, f), true;
    case 4: return MultiplyInverse<4>(inverse, b, x, f), true;
    case 5: return MultiplyInverse<5>(inverse, b, x, f), true;
    case 6: return MultiplyInverse<6>(inverse, b, x, f), true;
    case 7: return MultiplyInverse<7>(inverse, b, x, f), true;
    case 8: return MultiplyInverse<8>(inverse, b, x, f), true;
    default: break;
  }
  if (x != b)
    MBS_UNROLL for (int i = 0; i < n; ++i) x[i] = b[i];
  ApplyPivots(piv, n, x);
  SubstituteTransposed(a, invDiag, n, x);
  return false;
}

/// A SolveFactored sink that takes nothing.
struct NoSolveSink {
  MBS_HD_INLINE void operator()(int, Real) const {}
};

/// Dense n x n matrix (n <= Capacity) with in-place LU factorization, row-major storage.
/// Implements the LA policy used by the integrators: SetZero, add, Factorize, Solve; factorizes
/// and solves as the reference solver's DenseLA (FactorizeForSolves, SolveFactored). A diagonal
/// matrix is only inverted (InvertIfDiagonal). Exact: n is always Capacity (code generated for
/// one model), and the routines see it as a compile-time constant.
template <int Capacity, class Scalar = Real, bool Exact = false>
struct FixedLU {
  static constexpr int kCapacity = Capacity;
  static constexpr int kInverseSize = Capacity < kInverseUpTo ? Capacity * InverseRows(Capacity)
                                                                : kInverseUpTo * kInverseUpTo;
  int n = 0;
  bool diagonal = false;  ///< the last Factorize found a diagonal matrix (a holds its inverse)
  Scalar a[Capacity * Capacity];
  int piv[Capacity];
  Scalar invDiag[Capacity];
  alignas(16) Scalar inverse[kInverseSize];

  /// n, as a compile-time constant when Exact.
  MBS_HD_INLINE auto Size() const {
    if constexpr (Exact) return FixedInt<Capacity>{};
    else return n;
  }
  MBS_HD_INLINE void Resize(int size) {
    n = size;
    SetZero();
  }
  MBS_HD_INLINE void SetZero() {
    MBS_UNROLL for (int i = 0; i < Size() * Size(); ++i) a[i] = 0;
  }
  MBS_HD_INLINE void add(int i, int j, Real v) { a[i * Size() + j] += static_cast<Scalar>(v); }
  MBS_HD_INLINE bool Factorize() { return FactorizeForSolves(a, piv, invDiag, inverse, Size(), diagonal); }
  MBS_HD_INLINE void Solve(const Real* b, Real* x) const {
    SolveFactored(a, piv, invDiag, inverse, Size(), diagonal, b, x, NoSolveSink{});
  }
};

/// FixedLU's overload of SolveEach (common/generalized_alpha.h).
template <int Capacity, class Scalar, bool Exact, class F>
MBS_HD_FORCEINLINE bool SolveEach(const FixedLU<Capacity, Scalar, Exact>& la, const Real* b, Real* x, F&& f) {
  return SolveFactored(la.a, la.piv, la.invDiag, la.inverse, la.Size(), la.diagonal, b, x, f);
}

}  // namespace mbsweep
