/// @file dense_lu.h
/// Fixed-capacity dense LU with partial pivoting for host/device code: the linear-algebra
/// policy of the batch path (one matrix per system, no allocation). The index-3 iteration
/// matrix has a zero constraint block, so pivoting is not optional.
#pragma once

#include "common/types.h"

namespace mbsweep {

/// In-place LU factorization with partial pivoting of the row-major n x n matrix a (Doolittle,
/// rows interchanged, interchange k <-> piv[k] recorded). Returns false for an exactly zero or
/// non-finite pivot.
template <class Scalar>
MBS_HD bool LUFactorize(Scalar* a, int* piv, int n) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    Scalar best = a[k * n + k] < 0 ? -a[k * n + k] : a[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      const Scalar v = a[i * n + k] < 0 ? -a[i * n + k] : a[i * n + k];
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    if (!(best > 0) || !(best < Scalar(1e308))) return false;
    if (p != k)
      for (int j = 0; j < n; ++j) {
        const Scalar t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
    const Scalar inv = Scalar(1) / a[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      const Scalar l = a[i * n + k] * inv;
      a[i * n + k] = l;
      if (l != 0)
        for (int j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return true;
}

/// Solves A x = b with a factorization from LUFactorize (x may alias b).
template <class Scalar>
MBS_HD void LUSolve(const Scalar* a, const int* piv, int n, const Real* b, Real* x) {
  if (x != b)
    for (int i = 0; i < n; ++i) x[i] = b[i];
  for (int k = 0; k < n; ++k)
    if (piv[k] != k) {
      const Real t = x[k];
      x[k] = x[piv[k]];
      x[piv[k]] = t;
    }
  for (int i = 1; i < n; ++i) {
    Real s = x[i];
    for (int j = 0; j < i; ++j) s -= a[i * n + j] * x[j];
    x[i] = s;
  }
  for (int i = n - 1; i >= 0; --i) {
    Real s = x[i];
    for (int j = i + 1; j < n; ++j) s -= a[i * n + j] * x[j];
    x[i] = s * (Scalar(1) / a[i * n + i]);  // the division does not wait for s: off the chain of unknowns
  }
}

/// If the row-major n x n matrix a is diagonal, replaces each diagonal entry by its
/// reciprocal and returns 1; returns 0 (a unchanged) if an off-diagonal entry is non-zero and
/// -1 for a zero or non-finite diagonal entry. Point masses on coordinate springs, the most
/// common tiny study model, give a diagonal iteration matrix: factorizing it this way costs n
/// divisions instead of an LU.
template <class Scalar>
MBS_HD int InvertIfDiagonal(Scalar* a, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j && a[i * n + j] != 0) return 0;
  for (int i = 0; i < n; ++i) {
    const Scalar d = a[i * n + i];
    if (!(d != 0) || !(d - d == 0)) return -1;
  }
  for (int i = 0; i < n; ++i) a[i * n + i] = Scalar(1) / a[i * n + i];
  return 1;
}

/// FixedLU's factorization on caller storage: the row-major n x n matrix a is inverted if
/// diagonal (`diagonal` set), LU-factorized with partial pivoting otherwise. Returns false
/// for a singular or non-finite matrix. Used by FixedLU and by the host side of the lockstep
/// batch (common/lockstep.h), so both factorize with the same arithmetic.
template <class Scalar>
MBS_HD_FORCEINLINE bool FactorizeDense(Scalar* a, int* piv, int n, bool& diagonal) {
  const int d = InvertIfDiagonal(a, n);
  diagonal = d != 0;
  return diagonal ? d > 0 : LUFactorize(a, piv, n);
}
/// Solves with a factorization from FactorizeDense (x may alias b).
template <class Scalar>
MBS_HD_FORCEINLINE void SolveDense(const Scalar* a, const int* piv, int n, bool diagonal, const Real* b, Real* x) {
  if (!diagonal) return LUSolve(a, piv, n, b, x);
  for (int i = 0; i < n; ++i) x[i] = b[i] * a[i * n + i];
}

/// Dense n x n matrix (n <= Capacity) with in-place LU factorization, row-major storage.
/// Implements the LA policy used by the integrators: SetZero, add, Factorize, Solve. A
/// diagonal matrix is only inverted (InvertIfDiagonal).
template <int Capacity, class Scalar = Real>
struct FixedLU {
  static constexpr int kCapacity = Capacity;
  int n = 0;
  bool diagonal = false;  ///< the last Factorize found a diagonal matrix (a holds its inverse)
  Scalar a[Capacity * Capacity];
  int piv[Capacity];

  MBS_HD_INLINE void Resize(int size) {
    n = size;
    SetZero();
  }
  MBS_HD_INLINE void SetZero() {
    for (int i = 0; i < n * n; ++i) a[i] = 0;
  }
  MBS_HD_INLINE void add(int i, int j, Real v) { a[i * n + j] += static_cast<Scalar>(v); }
  MBS_HD_INLINE Scalar& operator()(int i, int j) { return a[i * n + j]; }
  MBS_HD_INLINE bool Factorize() { return FactorizeDense(a, piv, n, diagonal); }
  MBS_HD_INLINE void Solve(const Real* b, Real* x) const { SolveDense(a, piv, n, diagonal, b, x); }
};

}  // namespace mbsweep
