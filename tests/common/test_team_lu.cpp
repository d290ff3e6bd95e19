// Team LU (common/team_lu.h) with emulated teams of 1, 4 and 32 lanes against the serial
// FactorizeDense / SolveDense (common/dense_lu.h): factors, pivots, the ok and diagonal
// flags and solutions must be equal bit for bit, for random matrices, matrices with ties in
// the pivot columns, diagonal, singular and non-finite matrices and the index-3 shape
// [[S, Cq^T], [Cq, 0]]. The warp-per-system CUDA kernel runs the same template with a warp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/dense_lu.h"
#include "common/team_lu.h"

namespace mbsweep {
namespace {

constexpr int kTeamSizes[] = {1, 4, 32};

std::uint64_t Bits(Real v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// EXPECT_EQ on the bit patterns: stricter than on the doubles (tells -0 from +0, and NaN
// equals NaN of the same payload).
void ExpectSameBits(const std::vector<Real>& serial, const std::vector<Real>& team, const std::string& what) {
  ASSERT_EQ(serial.size(), team.size()) << what;
  for (size_t k = 0; k < serial.size(); ++k)
    EXPECT_EQ(Bits(serial[k]), Bits(team[k])) << what << " [" << k << "]: " << serial[k] << " vs " << team[k];
}

// Row-major n x n matrix.
struct Matrix {
  int n = 0;
  std::vector<Real> a;
  explicit Matrix(int size) : n(size), a(static_cast<size_t>(size) * static_cast<size_t>(size), 0.0) {}
  Real& operator()(int i, int j) { return a[static_cast<size_t>(i) * static_cast<size_t>(n) + static_cast<size_t>(j)]; }
};

// Factorizes and solves `m` serially and with each team size, and compares everything. The
// solve runs only after a successful factorization (as the integrators call it), once into a
// separate x and once in place (x aliasing b).
void ExpectTeamMatchesSerial(const Matrix& m, const std::string& name, bool expectOk) {
  const int n = m.n;
  std::mt19937_64 rng(1234u + static_cast<unsigned>(n));
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<Real> b(static_cast<size_t>(n));
  for (Real& v : b) v = u(rng);

  std::vector<Real> a0 = m.a;
  std::vector<int> piv0(static_cast<size_t>(n), -7);
  bool diagonal0 = false;
  std::vector<Real> d0(static_cast<size_t>(n)), inv0(static_cast<size_t>(n * InverseRows(n)));
  const bool ok0 = FactorizeForSolves(a0.data(), piv0.data(), d0.data(), inv0.data(), n, diagonal0);
  EXPECT_EQ(ok0, expectOk) << name;
  std::vector<Real> x0(static_cast<size_t>(n), 0.0), y0 = b;
  if (ok0) {
    SolveFactored(a0.data(), piv0.data(), d0.data(), inv0.data(), n, diagonal0, b.data(), x0.data(), NoSolveSink{});
    SolveFactored(a0.data(), piv0.data(), d0.data(), inv0.data(), n, diagonal0, y0.data(), y0.data(), NoSolveSink{});
  }

  for (int size : kTeamSizes) {
    const std::string what = name + " (n = " + std::to_string(n) + ", team of " + std::to_string(size) + ")";
    EmulatedTeam team(size);
    std::vector<Real> a1 = m.a;
    std::vector<int> piv1(static_cast<size_t>(n), -7);
    bool diagonal1 = !diagonal0;
    std::vector<Real> d1(d0.size()), inv1(inv0.size());
    const bool ok1 = TeamFactorizeForSolves(team, a1.data(), piv1.data(), d1.data(), inv1.data(), n, diagonal1);
    EXPECT_EQ(ok0, ok1) << what;
    EXPECT_EQ(diagonal0, diagonal1) << what;
    EXPECT_EQ(piv0, piv1) << what;
    ExpectSameBits(a0, a1, what + " factors");
    if (!ok0 || !ok1) continue;
    if (!diagonal0) ExpectSameBits(d0, d1, what + " reciprocal diagonal");
    if (!diagonal0 && n <= kInverseUpTo) ExpectSameBits(inv0, inv1, what + " inverse");
    std::vector<Real> x1(static_cast<size_t>(n), 0.0), y1 = b;
    TeamSolveFactored(team, a1.data(), piv1.data(), d1.data(), inv1.data(), n, diagonal1, b.data(), x1.data());
    TeamSolveFactored(team, a1.data(), piv1.data(), d1.data(), inv1.data(), n, diagonal1, y1.data(), y1.data());
    ExpectSameBits(x0, x1, what + " solution");
    ExpectSameBits(y0, y1, what + " in-place solution");
  }
}

// What FactorizeDense says about m (for matrices whose singularity depends on rounding).
bool SerialOk(const Matrix& m) {
  std::vector<Real> copy = m.a;
  std::vector<int> piv(static_cast<size_t>(m.n));
  bool diagonal = false;
  return FactorizeDense(copy.data(), piv.data(), m.n, diagonal);
}

Matrix Random(int n, std::mt19937_64& rng) {
  std::uniform_real_distribution<Real> u(-1, 1);
  Matrix m(n);
  for (Real& v : m.a) v = u(rng);
  return m;
}

// Random dense matrices of every size 1..70 (partial pivoting interchanges rows at most
// steps; 70 exceeds two warp widths, so lanes own several rows and columns).
TEST(TeamLU, RandomMatricesAllSizes) {
  std::mt19937_64 rng(42);
  for (int n = 1; n <= 70; ++n) ExpectTeamMatchesSerial(Random(n, rng), "random", true);
}

// Pivoting is forced (tiny diagonal entries) and ties between rows of equal |a[i][k]| (small
// integers of both signs) must be broken as LUFactorize does: the first such row.
TEST(TeamLU, PivotingAndTies) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> small(-2, 2);
  for (int n : {2, 3, 5, 8, 16, 31, 33, 47, 64, 70}) {
    Matrix m = Random(n, rng);
    for (int i = 0; i < n; ++i) m(i, i) *= 1e-6;
    ExpectTeamMatchesSerial(m, "tiny diagonal", true);
    // integer matrix plus a dominant permutation: many equal |values| in the pivot columns
    Matrix t(n);
    for (Real& v : t.a) v = small(rng);
    for (int i = 0; i < n; ++i) t(i, (i * 7 + 3) % n) += 8 * (i % 2 == 0 ? 1 : -1);
    ExpectTeamMatchesSerial(t, "ties", SerialOk(t));
  }
  // a reversed identity: every step interchanges rows
  Matrix r(9);
  for (int i = 0; i < 9; ++i) r(i, 8 - i) = 1;
  ExpectTeamMatchesSerial(r, "anti-diagonal", true);
  // -0 and +0 compare equal: LUFactorize keeps the first row
  Matrix z(3);
  z.a = {-0.0, 1, 2, 0.0, 3, 1, 4, 1, 1};
  ExpectTeamMatchesSerial(z, "signed zeros", true);
}

// Diagonal matrices take the shortcut (inverted entries, no pivots written); a zero or
// non-finite diagonal entry fails it with the matrix unchanged.
TEST(TeamLU, DiagonalShortcut) {
  for (int n : {1, 4, 33, 70}) {
    Matrix d(n);
    for (int i = 0; i < n; ++i) d(i, i) = 0.5 + i;
    ExpectTeamMatchesSerial(d, "diagonal", true);
    d(n / 2, n / 2) = 0;
    ExpectTeamMatchesSerial(d, "diagonal with a zero", false);
    d(n / 2, n / 2) = std::numeric_limits<Real>::infinity();
    ExpectTeamMatchesSerial(d, "diagonal with an infinity", false);
  }
}

// Singular matrices: a zero column, two equal rows, and the zero matrix.
TEST(TeamLU, SingularMatrices) {
  std::mt19937_64 rng(99);
  for (int n : {2, 6, 40}) {
    Matrix c = Random(n, rng);
    for (int i = 0; i < n; ++i) c(i, n / 2) = 0;
    ExpectTeamMatchesSerial(c, "zero column", false);
    Matrix r = Random(n, rng);
    for (int j = 0; j < n; ++j) r(n - 1, j) = r(0, j);
    // x * (1 / x) need not round to 1: exact cancellation is up to rounding
    ExpectTeamMatchesSerial(r, "equal rows", SerialOk(r));
    ExpectTeamMatchesSerial(Matrix(n), "zero matrix", false);
  }
}

// Non-finite entries: a NaN on the diagonal (LUFactorize keeps it as the best pivot and
// fails), a NaN below the diagonal (skipped by the pivot search, spreads through the
// update), an infinity (fails the `best < 1e308` test).
TEST(TeamLU, NonFiniteEntries) {
  std::mt19937_64 rng(5);
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  for (int n : {3, 12, 40}) {
    Matrix m = Random(n, rng);
    m(0, 0) = nan;
    ExpectTeamMatchesSerial(m, "NaN on the diagonal", false);
    Matrix below = Random(n, rng);
    below(n - 1, 0) = nan;
    ExpectTeamMatchesSerial(below, "NaN below the diagonal", SerialOk(below));
    Matrix inf = Random(n, rng);
    inf(n / 2, 0) = std::numeric_limits<Real>::infinity();
    ExpectTeamMatchesSerial(inf, "infinity", false);
  }
}

// The index-3 generalized-alpha iteration matrix's shape: [[S, Cq^T], [Cq, 0]] with S
// symmetric positive definite and a zero constraint block (pivoting is required).
TEST(TeamLU, ZeroConstraintBlock) {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<Real> u(-1, 1);
  const int shapes[][2] = {{2, 1}, {3, 1}, {12, 9}, {21, 12}, {42, 24}, {60, 10}, {77, 44}};
  for (const auto& shape : shapes) {
    const int n2 = shape[0], nA = shape[1], n = n2 + nA;
    Matrix m(n);
    for (int i = 0; i < n2; ++i)
      for (int j = 0; j <= i; ++j) {
        const Real v = 0.1 * u(rng);
        m(i, j) += v;
        if (i != j) m(j, i) += v;
      }
    for (int i = 0; i < n2; ++i) m(i, i) += 2.0 + n2 * 0.1;
    for (int r = 0; r < nA; ++r)
      for (int j = 0; j < n2; ++j) {
        const Real v = (j % nA == r || u(rng) > 0.7) ? u(rng) : 0.0;
        m(n2 + r, j) = v;
        m(j, n2 + r) = v;
      }
    ExpectTeamMatchesSerial(m, "zero constraint block " + std::to_string(n2) + "+" + std::to_string(nA), true);
  }
}

// The candidate order of Team::ArgMax: larger value first, then the lower index; a missing
// proposal loses to any proposal.
TEST(TeamLU, ArgMaxOrder) {
  using C = TeamCandidate<Real>;
  EXPECT_TRUE(TeamCandidateWins(C{2, 5}, C{1, 0}));
  EXPECT_TRUE(TeamCandidateWins(C{1, 0}, C{1, 5}));
  EXPECT_FALSE(TeamCandidateWins(C{1, 5}, C{1, 0}));
  EXPECT_TRUE(TeamCandidateWins(C{-0.0, 1}, C{0.0, 2}));
  EXPECT_TRUE(TeamCandidateWins(C{0, 3}, C{5, -1}));
  EXPECT_FALSE(TeamCandidateWins(C{5, -1}, C{0, 3}));
  EmulatedTeam team(4);
  const C best = team.ArgMax([](int lane) { return C{lane == 0 ? 1.0 : 3.0, lane == 0 ? 0 : 10 - lane}; });
  EXPECT_EQ(best.index, 7);  // lanes 1..3 propose 3 at rows 9, 8, 7
}

}  // namespace
}  // namespace mbsweep
