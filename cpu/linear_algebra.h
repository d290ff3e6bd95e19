/// @file linear_algebra.h
/// Linear-algebra policies of the CPU reference solver. A policy assembles an n x n matrix
/// through `add(i, j, v)` (it is a sink for the assembly functions of common/system.h),
/// factorizes it and solves. The batch path plugs in a fixed-capacity policy with the
/// same interface.
#pragma once

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <vector>

#include "common/dense_lu.h"
#include "common/types.h"

namespace mbsweep {

/// Exudyn's default "EXUdense": a dense row-major matrix with the project's LU with partial
/// pivoting (the factorization of the batch path's FixedLU, here with dynamic size; no
/// allocation per factorization or solve). The factors are then stored transposed and the
/// substitutions run column by column: each column updates the remaining unknowns
/// independently, instead of one strictly ordered row sum whose additions wait for each
/// other. With modified Newton there are many solves per factorization; for the 21 unknowns
/// of the slider-crank this makes the solver about 14 % faster (CPU time; the instruction
/// count is the same). The back substitution multiplies by the reciprocals of U's diagonal,
/// computed once per factorization: its divisions waited for each other (a division takes
/// several times a multiplication's latency), which made them most of a small system's solve.
/// The results differ from the row form with divisions in round-off only.
///
/// Up to 8 unknowns, Factorize also forms the inverse from the factors (one solve per unit
/// vector) and Solve multiplies by it. Each substitution step waits for the one before it;
/// the rows of a matrix-vector product do not wait for each other. Modified Newton solves
/// many times per factorization, and a small system's solve is mostly that wait. Newton's
/// convergence test, not the solve, decides the accuracy of the result: the iterates differ
/// from those of the substitutions in round-off only.
class DenseLA {
 public:
  void Resize(int n) {
    n_ = n;
    a_.assign(static_cast<size_t>(n) * static_cast<size_t>(n), 0.);
    piv_.assign(static_cast<size_t>(n), 0);
    perm_.assign(static_cast<size_t>(n), 0);
    scratch_.assign(static_cast<size_t>(n), 0.);
    inverseDiagonal_.assign(static_cast<size_t>(n), 0.);
    inverse_.assign(n <= kInverseUpTo ? static_cast<size_t>(n) * static_cast<size_t>(InverseRows(n)) : 0, 0.);
  }
  void SetZero() { std::fill(a_.begin(), a_.end(), 0.); }
  void add(int i, int j, Real v) { a_[static_cast<size_t>(i) * static_cast<size_t>(n_) + static_cast<size_t>(j)] += v; }
  int Size() const { return n_; }
  /// Factorizes; a diagonal matrix (e.g. the mass matrix of point masses) is only inverted.
  bool Factorize() {
    const int d = InvertIfDiagonal(a_.data(), n_);
    diagonal_ = d != 0;
    if (diagonal_) return d > 0;
    if (!LUFactorize(a_.data(), piv_.data(), n_)) return false;
    for (int i = 0; i < n_; ++i)
      for (int j = i + 1; j < n_; ++j) std::swap(a_[Index(i, j)], a_[Index(j, i)]);
    for (int i = 0; i < n_; ++i) inverseDiagonal_[static_cast<size_t>(i)] = 1 / a_[Index(i, i)];
    // the row interchanges as one permutation: row i of P b is b[perm_[i]]
    for (int i = 0; i < n_; ++i) perm_[static_cast<size_t>(i)] = i;
    for (int k = 0; k < n_; ++k)
      std::swap(perm_[static_cast<size_t>(k)], perm_[static_cast<size_t>(piv_[static_cast<size_t>(k)])]);
    if (n_ <= kInverseUpTo) {  // column j = A^-1 e_j at inverse_ + j InverseRows(n)
      Real e[kInverseUpTo];
      const size_t rows = static_cast<size_t>(InverseRows(n_));
      for (int j = 0; j < n_; ++j) {
        for (int i = 0; i < n_; ++i) e[i] = perm_[static_cast<size_t>(i)] == j ? 1 : 0;
        Substitute(a_.data(), inverseDiagonal_.data(), n_, e);
        for (int i = 0; i < n_; ++i) inverse_[static_cast<size_t>(j) * rows + static_cast<size_t>(i)] = e[i];
      }
    }
    return true;
  }
  /// Solves A x = b (x may alias b).
  void Solve(const Real* b, Real* x) const { SolveEach(b, x, NoSink{}); }
  /// Solve(b, x); up to 8 unknowns also f(i, x[i]) for i = 0 .. n - 1 in order, returning true.
  /// f then takes the values of the inverse product as they leave it: the Newton update that
  /// follows the solve does not wait for x to be stored and read back (on the iteration's
  /// critical path). A diagonal matrix or more than 8 unknowns: false, read x.
  template <class F>
  MBS_HD_FORCEINLINE bool SolveEach(const Real* b, Real* x, F&& f) const {
    if (diagonal_) {
      const Real* a = a_.data();
      for (int i = 0; i < n_; ++i) x[i] = b[i] * a[Index(i, i)];
      return false;
    }
    switch (n_) {
      case 1: return MultiplyInverse<1>(b, x, f), true;
      case 2: return MultiplyInverse<2>(b, x, f), true;
      case 3: return MultiplyInverse<3>(b, x, f), true;
      case 4: return MultiplyInverse<4>(b, x, f), true;
      case 5: return MultiplyInverse<5>(b, x, f), true;
      case 6: return MultiplyInverse<6>(b, x, f), true;
      case 7: return MultiplyInverse<7>(b, x, f), true;
      case 8: return MultiplyInverse<8>(b, x, f), true;
      default: return SolveLU(b, x), false;
    }
  }

 private:
  static constexpr int kInverseUpTo = 8;  ///< up to this size Solve multiplies by the inverse

  /// Rows of a column of the stored inverse: n padded to an even number, so that every column
  /// starts 16 bytes after the one before it.
  static constexpr int InverseRows(int n) { return (n + 1) & ~1; }
  struct NoSink {
    void operator()(int, Real) const {}
  };
  /// x = A^-1 b for n = N (x may alias b), then f(i, x[i]) for each i: column by column,
  /// y += A^-1[:, j] b_j, which adds the products of each row in the order of a row sum (the same
  /// result) while the rows go in pairs of SIMD lanes.
  template <int N, class F>
  MBS_HD_FORCEINLINE void MultiplyInverse(const Real* b, Real* x, F&& f) const {
    constexpr int R = InverseRows(N);
#if defined(__GNUC__)
    // written with vector types: left to itself, the vectorizer pairs the columns instead of the
    // rows and spends more instructions on shuffles than it saves
    typedef Real Pair __attribute__((vector_size(2 * sizeof(Real))));
    constexpr int P = R / 2;
    const Pair* col = static_cast<const Pair*>(__builtin_assume_aligned(inverse_.data(), 16));
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
    const Real* inv = inverse_.data();
    Real y[R] = {};
    for (int j = 0; j < N; ++j) {
      const Real bj = b[j];
      for (int i = 0; i < R; ++i) y[i] += inv[j * R + i] * bj;
    }
    for (int i = 0; i < N; ++i) {
      x[i] = y[i];
      f(i, y[i]);
    }
#endif
  }
  /// Solves with the LU factors by substitution (x may alias b).
  void SolveLU(const Real* b, Real* x) const {
    const int n = n_;
    if (x == b) {
      for (int i = 0; i < n; ++i) scratch_[static_cast<size_t>(i)] = b[i];
      b = scratch_.data();
    }
    const int* perm = perm_.data();
    for (int i = 0; i < n; ++i) x[i] = b[perm[i]];
    Substitute(a_.data(), inverseDiagonal_.data(), n, x);
  }
  /// Forward and back substitution on the transposed factors (column j of L and U at a + j n,
  /// d the reciprocals of U's diagonal). Columns go in fours: each unknown takes the updates of
  /// columns j to j + 3 in one pass, the same operations in the same order as one column at a
  /// time, with a quarter of the passes over x (each pass is a short vector loop whose set-up
  /// and remainder cost as much as its body at the slider-crank's 21 unknowns).
  static void Substitute(const Real* a, const Real* d, int n, Real* x) {
    const size_t stride = static_cast<size_t>(n);
    int j = 0;
    for (; j + 3 < n; j += 4) {  // unit lower triangle
      const Real* c0 = a + static_cast<size_t>(j) * stride;
      const Real *c1 = c0 + stride, *c2 = c1 + stride, *c3 = c2 + stride;
      const Real x0 = x[j];
      const Real x1 = x[j + 1] - c0[j + 1] * x0;
      const Real x2 = x[j + 2] - c0[j + 2] * x0 - c1[j + 2] * x1;
      const Real x3 = x[j + 3] - c0[j + 3] * x0 - c1[j + 3] * x1 - c2[j + 3] * x2;
      x[j + 1] = x1;
      x[j + 2] = x2;
      x[j + 3] = x3;
      MBS_NO_OVERLAP
      for (int i = j + 4; i < n; ++i) x[i] = x[i] - c0[i] * x0 - c1[i] * x1 - c2[i] * x2 - c3[i] * x3;
    }
    for (; j < n; ++j) {
      const Real* c0 = a + static_cast<size_t>(j) * stride;
      const Real x0 = x[j];
      for (int i = j + 1; i < n; ++i) x[i] = x[i] - c0[i] * x0;
    }
    for (j = n - 1; j >= 3; j -= 4) {  // upper triangle
      const Real* c0 = a + static_cast<size_t>(j) * stride;
      const Real *c1 = c0 - stride, *c2 = c1 - stride, *c3 = c2 - stride;
      const Real x0 = x[j] * d[j];
      const Real x1 = (x[j - 1] - c0[j - 1] * x0) * d[j - 1];
      const Real x2 = (x[j - 2] - c0[j - 2] * x0 - c1[j - 2] * x1) * d[j - 2];
      const Real x3 = (x[j - 3] - c0[j - 3] * x0 - c1[j - 3] * x1 - c2[j - 3] * x2) * d[j - 3];
      x[j] = x0;
      x[j - 1] = x1;
      x[j - 2] = x2;
      x[j - 3] = x3;
      MBS_NO_OVERLAP
      for (int i = 0; i < j - 3; ++i) x[i] = x[i] - c0[i] * x0 - c1[i] * x1 - c2[i] * x2 - c3[i] * x3;
    }
    for (; j >= 0; --j) {
      const Real* c0 = a + static_cast<size_t>(j) * stride;
      const Real x0 = x[j] * d[j];
      x[j] = x0;
      for (int i = 0; i < j; ++i) x[i] = x[i] - c0[i] * x0;
    }
  }
  size_t Index(int i, int j) const { return static_cast<size_t>(i) * static_cast<size_t>(n_) + static_cast<size_t>(j); }

  int n_ = 0;
  std::vector<Real> a_;  ///< the matrix; after an LU factorization its factors, transposed
  std::vector<int> piv_;
  std::vector<int> perm_;               ///< the row interchanges of piv_ as one permutation
  mutable std::vector<Real> scratch_;   ///< b of a solve in place
  std::vector<Real> inverseDiagonal_;   ///< 1 / U(i, i) after an LU factorization
  /// A^-1 by columns (InverseRows(n) each) after an LU factorization of n <= kInverseUpTo
  std::vector<Real> inverse_;
  bool diagonal_ = false;
};

/// DenseLA's overload of SolveEach (common/generalized_alpha.h).
template <class F>
MBS_HD_FORCEINLINE bool SolveEach(const DenseLA& la, const Real* b, Real* x, F&& f) {
  return la.SolveEach(b, x, f);
}

/// Dense matrix with Eigen's LU factorization (partial pivoting).
class EigenDenseLA {
 public:
  void Resize(int n) {
    A_.setZero(n, n);
  }
  void SetZero() { A_.setZero(); }
  void add(int i, int j, Real v) { A_(i, j) += v; }
  int Size() const { return static_cast<int>(A_.rows()); }
  /// Factorizes; returns false if the matrix is (numerically) singular.
  bool Factorize() {
    if (A_.rows() == 0) return true;
    lu_.compute(A_);
    // partial-pivoting LU does not report singularity: a zero (or non-finite) pivot of U
    // means the matrix is singular
    const auto& LU = lu_.matrixLU();
    for (int i = 0; i < LU.rows(); ++i)
      if (!(std::abs(LU(i, i)) > 0) || !std::isfinite(LU(i, i))) return false;
    return true;
  }
  /// Solves A x = b (x may alias b).
  void Solve(const Real* b, Real* x) const {
    const int n = static_cast<int>(A_.rows());
    if (n == 0) return;
    Eigen::Map<const Eigen::VectorXd> bb(b, n);
    Eigen::VectorXd r = lu_.solve(bb);
    Eigen::Map<Eigen::VectorXd>(x, n) = r;
  }
  const Eigen::MatrixXd& Matrix() const { return A_; }

 private:
  Eigen::MatrixXd A_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

/// Sparse matrix (triplets) with Eigen's SparseLU.
class EigenSparseLA {
 public:
  void Resize(int n) {
    n_ = n;
    triplets_.clear();
  }
  void SetZero() { triplets_.clear(); }
  void add(int i, int j, Real v) { triplets_.emplace_back(i, j, v); }
  int Size() const { return n_; }
  bool Factorize() {
    if (n_ == 0) return true;
    A_.resize(n_, n_);
    A_.setFromTriplets(triplets_.begin(), triplets_.end());
    A_.makeCompressed();
    if (!patternAnalyzed_ || A_.nonZeros() != lastNonZeros_) {
      lu_.analyzePattern(A_);
      patternAnalyzed_ = true;
      lastNonZeros_ = A_.nonZeros();
    }
    lu_.factorize(A_);
    return lu_.info() == Eigen::Success;
  }
  void Solve(const Real* b, Real* x) const {
    if (n_ == 0) return;
    Eigen::Map<const Eigen::VectorXd> bb(b, n_);
    Eigen::VectorXd r = const_cast<Eigen::SparseLU<Eigen::SparseMatrix<Real>>&>(lu_).solve(bb);
    Eigen::Map<Eigen::VectorXd>(x, n_) = r;
  }

 private:
  int n_ = 0;
  std::vector<Eigen::Triplet<Real>> triplets_;
  Eigen::SparseMatrix<Real> A_;
  Eigen::SparseLU<Eigen::SparseMatrix<Real>> lu_;
  bool patternAnalyzed_ = false;
  Eigen::Index lastNonZeros_ = -1;
};

}  // namespace mbsweep
