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
/// pivoting, factorized and solved as the batch path's FixedLU (FactorizeForSolves and
/// SolveFactored, common/dense_lu.h: transposed factors with column-wise substitutions, U's
/// reciprocal diagonal, and up to 8 unknowns a product with the inverse), here with dynamic
/// size; no allocation per factorization or solve.
class DenseLA {
 public:
  void Resize(int n) {
    n_ = n;
    a_.assign(static_cast<size_t>(n) * static_cast<size_t>(n), 0.);
    piv_.assign(static_cast<size_t>(n), 0);
    inverseDiagonal_.assign(static_cast<size_t>(n), 0.);
    inverse_.assign(n <= kInverseUpTo ? static_cast<size_t>(n) * static_cast<size_t>(InverseRows(n)) : 0, 0.);
  }
  void SetZero() { std::fill(a_.begin(), a_.end(), 0.); }
  void add(int i, int j, Real v) { a_[static_cast<size_t>(i) * static_cast<size_t>(n_) + static_cast<size_t>(j)] += v; }
  int Size() const { return n_; }
  bool Factorize() {
    return FactorizeForSolves(a_.data(), piv_.data(), inverseDiagonal_.data(), inverse_.data(), n_, diagonal_);
  }
  void Solve(const Real* b, Real* x) const { SolveEach(b, x, NoSolveSink{}); }
  /// Solve that hands each x[i] to f(i, x[i]) where it can (SolveFactored); true if it did.
  template <class F>
  MBS_HD_FORCEINLINE bool SolveEach(const Real* b, Real* x, F&& f) const {
    return SolveFactored(a_.data(), piv_.data(), inverseDiagonal_.data(), inverse_.data(), n_, diagonal_, b, x, f);
  }

 private:
  int n_ = 0;
  std::vector<Real> a_;  ///< the matrix; after an LU factorization its factors, transposed
  std::vector<int> piv_;
  std::vector<Real> inverseDiagonal_;  ///< 1 / U(i, i) after an LU factorization
  std::vector<Real> inverse_;          ///< up to 8 unknowns the inverse, by columns
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
