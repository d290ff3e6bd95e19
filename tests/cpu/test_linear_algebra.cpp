// Tests of cpu/linear_algebra.h: DenseLA (the CPU reference solver's default) against Eigen's LU.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "cpu/linear_algebra.h"

namespace mbsweep {
namespace {

// Every size from 1 to 24: the inverse product up to 8 unknowns, the substitutions in column
// fours above with each remainder of n mod 4; a pivoting matrix (small diagonal), the
// diagonal shortcut, and a solve in place. The solutions agree with Eigen's partial-pivoting LU
// to 1e-12 relative (the matrices' condition numbers are below 1e3).
TEST(DenseLA, SolvesAsEigensLU) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n = 1; n <= 24; ++n) {
    for (bool diagonal : {false, true}) {
      Eigen::MatrixXd A(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          A(i, j) = diagonal ? (i == j ? 2 + u(rng) : 0) : u(rng) + (i == (j + 1) % n ? 4 : 0);
      Eigen::VectorXd b(n);
      for (int i = 0; i < n; ++i) b(i) = u(rng);
      DenseLA la;
      la.Resize(n);
      la.SetZero();
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) la.add(i, j, A(i, j));
      ASSERT_TRUE(la.Factorize()) << "n = " << n;
      const Eigen::VectorXd ref = A.partialPivLu().solve(b);
      Eigen::VectorXd x(n), inPlace = b;
      la.Solve(b.data(), x.data());
      la.Solve(inPlace.data(), inPlace.data());
      EXPECT_LE((x - ref).norm(), 1e-12 * ref.norm()) << "n = " << n << (diagonal ? " diagonal" : "");
      EXPECT_EQ(x, inPlace) << "n = " << n;
    }
  }
}

}  // namespace
}  // namespace mbsweep
