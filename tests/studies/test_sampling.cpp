// Tests of studies/sampling.h: Latin hypercube stratification, Sobol points (scipy reference,
// balance of unscrambled and scrambled nets), seeding, uniform designs, CSV designs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/rules.h"
#include "studies/sampling.h"

namespace mbsweep {
namespace {

// ---------------------------------------------------------------- Latin hypercube

void ExpectLatinStrata(const std::vector<double>& u, std::size_t n, std::size_t dim) {
  ASSERT_EQ(u.size(), n * dim);
  for (std::size_t k = 0; k < dim; ++k) {
    std::vector<int> count(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const double x = u[i * dim + k];
      std::size_t j = static_cast<std::size_t>(std::floor(x * static_cast<double>(n)));
      if (j >= n) j = n - 1;
      // the strata are [j/n, (j+1)/n) with bounds as doubles
      while (j > 0 && x < static_cast<double>(j) / static_cast<double>(n)) --j;
      while (j + 1 < n && x >= static_cast<double>(j + 1) / static_cast<double>(n)) ++j;
      ASSERT_GE(x, static_cast<double>(j) / static_cast<double>(n));
      ASSERT_LT(x, static_cast<double>(j + 1) / static_cast<double>(n));
      ++count[j];
    }
    for (std::size_t j = 0; j < n; ++j) EXPECT_EQ(count[j], 1) << "dimension " << k << " stratum " << j;
  }
}

TEST(LatinHypercube, OnePointPerStratum) {
  for (std::size_t n : {1u, 2u, 7u, 10u, 64u, 1000u, 4099u})
    for (std::uint64_t seed : {0u, 1u, 12345u}) ExpectLatinStrata(LatinHypercubeUnit(n, 5, seed), n, 5);
}

TEST(LatinHypercube, SeededReproducible) {
  const auto a = LatinHypercubeUnit(50, 3, 42), b = LatinHypercubeUnit(50, 3, 42), c = LatinHypercubeUnit(50, 3, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(LatinHypercube, DesignOverBounds) {
  const std::vector<ParameterBounds> bounds{{"mass", 1, 2}, {"spring", 2000, 8000}};
  const Design d = LatinHypercubeDesign(bounds, 20, 7);
  EXPECT_EQ(d.Count(), 20u);
  EXPECT_EQ(d.names, (std::vector<std::string>{"mass", "spring"}));
  EXPECT_TRUE(d.warnings.empty());
  const auto unit = LatinHypercubeUnit(20, 2, 7);
  for (std::size_t i = 0; i < 20; ++i) {
    EXPECT_EQ(d.At(i, 0), 1 + unit[2 * i] * 1.0);
    EXPECT_EQ(d.At(i, 1), 2000 + unit[2 * i + 1] * 6000.0);
    EXPECT_GE(d.At(i, 1), 2000);
    EXPECT_LE(d.At(i, 1), 8000);
  }
  EXPECT_EQ(d.Row(3), (std::vector<double>{d.At(3, 0), d.At(3, 1)}));
}

// ---------------------------------------------------------------- uniform

TEST(Uniform, SeededInBounds) {
  const std::vector<ParameterBounds> bounds{{"a", -1, 1}, {"b", 10, 10}};
  const Design d = UniformDesign(bounds, 1000, 3);
  EXPECT_EQ(d.values, UniformDesign(bounds, 1000, 3).values);
  EXPECT_NE(d.values, UniformDesign(bounds, 1000, 4).values);
  double mean = 0;
  for (std::size_t i = 0; i < d.Count(); ++i) {
    EXPECT_GE(d.At(i, 0), -1);
    EXPECT_LT(d.At(i, 0), 1);
    EXPECT_EQ(d.At(i, 1), 10);
    mean += d.At(i, 0) / 1000;
  }
  EXPECT_NEAR(mean, 0, 0.1);
}

// ---------------------------------------------------------------- Sobol

TEST(Sobol, UnscrambledEqualsScipy) {
  // scipy 1.17.1: qmc.Sobol(d=5, scramble=False).random(8)
  const double expected[8][5] = {{0.0, 0.0, 0.0, 0.0, 0.0},           {0.5, 0.5, 0.5, 0.5, 0.5},
                                 {0.75, 0.25, 0.25, 0.25, 0.75},      {0.25, 0.75, 0.75, 0.75, 0.25},
                                 {0.375, 0.375, 0.625, 0.875, 0.375}, {0.875, 0.875, 0.125, 0.375, 0.875},
                                 {0.625, 0.125, 0.875, 0.625, 0.625}, {0.125, 0.625, 0.375, 0.125, 0.125}};
  const SobolSequence s(5);
  for (std::uint64_t i = 0; i < 8; ++i) {
    const auto p = s.Point(i);
    for (std::size_t k = 0; k < 5; ++k) EXPECT_EQ(p[k], expected[i][k]) << "point " << i << " dim " << k;
  }
}

TEST(Sobol, SixtyFourDimensionsEqualScipy) {
  // scipy 1.17.1: s = qmc.Sobol(d=64, scramble=False).random(1024); x = s*2^30 (exact).
  // Spot values x[i][k] and the checksum sum_{i,k} x[i][k]*(64*i+k+1) mod 2^64.
  const SobolSequence s(64);
  const auto x30 = [&](std::uint64_t i, std::size_t k) { return s.Integer(i, k) >> (SobolSequence::kBits - 30); };
  EXPECT_EQ(x30(100, 1), 276824064u);
  EXPECT_EQ(x30(100, 15), 528482304u);
  EXPECT_EQ(x30(100, 31), 444596224u);
  EXPECT_EQ(x30(1000, 32), 317718528u);
  EXPECT_EQ(x30(1000, 47), 986710016u);
  EXPECT_EQ(x30(1023, 63), 42991616u);
  EXPECT_EQ(x30(2, 63), 805306368u);
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < 1024; ++i)
    for (std::size_t k = 0; k < 64; ++k) sum += x30(i, k) * (64 * i + k + 1);
  EXPECT_EQ(sum, 1152868710868844544ull);
  // below 2^30 points, the low 23 of the 53 bits are zero
  for (std::size_t k = 0; k < 64; ++k) EXPECT_EQ(s.Integer(1023, k) & ((1u << 23) - 1), 0u);
}

/// Each dyadic interval of length 2^-k (k <= m) of every coordinate holds 2^(m-k) of the
/// points first..first+2^m-1.
void ExpectBalanced(const SobolSequence& s, int m, std::uint64_t first = 0) {
  const std::uint64_t n = std::uint64_t(1) << m;
  std::vector<std::vector<double>> pts;
  for (std::uint64_t i = first; i < first + n; ++i) pts.push_back(s.Point(i));
  for (std::size_t dim = 0; dim < s.Dimension(); ++dim) {
    for (int k = 0; k <= m; ++k) {
      std::vector<std::uint64_t> count(std::size_t(1) << k, 0);
      for (const auto& p : pts) {
        const double u = p[dim];
        ++count[static_cast<std::size_t>(std::floor(std::ldexp(u, k)))];  // exact: power-of-two scaling
      }
      for (std::size_t j = 0; j < count.size(); ++j)
        ASSERT_EQ(count[j], n >> k) << SobolScrambleName(s.Scramble()) << " m=" << m << " dim=" << dim
                                    << " k=" << k << " interval " << j;
    }
  }
}

TEST(Sobol, BalancedAtPowersOfTwo) {
  for (SobolScramble sc : {SobolScramble::None, SobolScramble::DigitalShift, SobolScramble::LinearMatrix}) {
    const SobolSequence s(32, sc, 2024);
    for (int m : {0, 1, 4, 8}) ExpectBalanced(s, m);
    ExpectBalanced(s, 6, 64 * 5);  // any aligned block of 2^m points
  }
  ExpectBalanced(SobolSequence(64, SobolScramble::LinearMatrix, 1), 10);
}

TEST(Sobol, ScramblingSeededReproducible) {
  for (SobolScramble sc : {SobolScramble::DigitalShift, SobolScramble::LinearMatrix}) {
    const SobolSequence a(8, sc, 5), b(8, sc, 5), c(8, sc, 6), plain(8);
    bool diffSeed = false, diffPlain = false;
    for (std::uint64_t i = 0; i < 64; ++i) {
      EXPECT_EQ(a.Point(i), b.Point(i));
      diffSeed = diffSeed || a.Point(i) != c.Point(i);
      diffPlain = diffPlain || a.Point(i) != plain.Point(i);
      for (double u : a.Point(i)) {
        EXPECT_GE(u, 0.0);
        EXPECT_LT(u, 1.0);
      }
    }
    EXPECT_TRUE(diffSeed) << SobolScrambleName(sc);
    EXPECT_TRUE(diffPlain) << SobolScrambleName(sc);
  }
  // the seed does not matter without scrambling
  EXPECT_EQ(SobolSequence(4, SobolScramble::None, 1).Point(77), SobolSequence(4, SobolScramble::None, 2).Point(77));
}

TEST(Sobol, DesignWarningAndLimits) {
  const std::vector<ParameterBounds> bounds{{"mass", 1, 2}, {"spring", 2000, 8000}};
  const Design a = SobolDesign(bounds, 64, 1);
  EXPECT_TRUE(a.warnings.empty());
  const Design b = SobolDesign(bounds, 100, 1);
  ASSERT_EQ(b.warnings.size(), 1u);
  EXPECT_NE(b.warnings[0].find("n = 100 is not a power of 2"), std::string::npos) << b.warnings[0];
  EXPECT_NE(b.warnings[0].find("64 or 128"), std::string::npos) << b.warnings[0];
  EXPECT_EQ(SobolCountWarning(1), "");
  EXPECT_EQ(SobolCountWarning(1024), "");
  // the design is the scaled sequence
  const SobolSequence s(2, SobolScramble::LinearMatrix, 1);
  for (std::size_t i = 0; i < 64; ++i) {
    const auto p = s.Point(i);
    EXPECT_EQ(a.At(i, 0), 1 + p[0] * 1.0);
    EXPECT_EQ(a.At(i, 1), 2000 + p[1] * 6000.0);
  }
  const Design c = SobolDesign(bounds, 8, 0, SobolScramble::None, 8);
  EXPECT_EQ(c.At(0, 0), 1 + SobolSequence(2).Point(8)[0]);
  EXPECT_THROW(SobolSequence(0), ValidationError);
  EXPECT_THROW(SobolSequence(65), ValidationError);
  EXPECT_NO_THROW(SobolSequence(64));
  EXPECT_THROW(SobolDesign(bounds, 0, 1), ValidationError);
  EXPECT_EQ(ParseSobolScramble("lms"), SobolScramble::LinearMatrix);
  EXPECT_THROW(ParseSobolScramble("owen"), ValidationError);
}

TEST(Bounds, Validation) {
  EXPECT_THROW(LatinHypercubeDesign({{"a", 2, 1}}, 4, 0), ValidationError);
  EXPECT_THROW(UniformDesign({{"a", 0, HUGE_VAL}}, 4, 0), ValidationError);
  EXPECT_THROW(SobolDesign({{"a", 0, 1}, {"a", 0, 1}}, 4, 0), ValidationError);
  EXPECT_THROW(LatinHypercubeDesign({{"", 0, 1}}, 4, 0), ValidationError);
  EXPECT_THROW(LatinHypercubeDesign({}, 4, 0), ValidationError);
  try {
    LatinHypercubeDesign({{"mass", 2, 1}}, 4, 0);
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("'mass'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("lower = 2"), std::string::npos);
  }
}

// ---------------------------------------------------------------- CSV

class CsvDesign : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "mbsweep_test_sampling";
    std::filesystem::create_directories(dir);
    const std::string p = (dir / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  static std::string ErrorOf(const std::string& path, const std::vector<std::string>& names = {}) {
    try {
      ReadDesignCsv(path, names);
    } catch (const ValidationError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(CsvDesign, ReadsColumns) {
  const std::string p = Write("ok.csv", "# points\nmass, \"spring\",force\r\n1.5,2000,80\r\n\n1.6, 4e3 ,-1\r\n");
  const Design all = ReadDesignCsv(p);
  EXPECT_EQ(all.names, (std::vector<std::string>{"mass", "spring", "force"}));
  ASSERT_EQ(all.Count(), 2u);
  EXPECT_EQ(all.Row(1), (std::vector<double>{1.6, 4000, -1}));
  const Design some = ReadDesignCsv(p, {"spring", "mass"});
  EXPECT_EQ(some.names, (std::vector<std::string>{"spring", "mass"}));
  EXPECT_EQ(some.Row(0), (std::vector<double>{2000, 1.5}));
}

TEST_F(CsvDesign, ErrorsNameFileAndLine) {
  const std::string bad = Write("bad.csv", "mass,spring\n1,2\n1,abc\n");
  std::string e = ErrorOf(bad);
  EXPECT_NE(e.find(bad + ":3:"), std::string::npos) << e;
  EXPECT_NE(e.find("'spring'"), std::string::npos) << e;
  EXPECT_NE(e.find("'abc'"), std::string::npos) << e;

  const std::string fields = Write("fields.csv", "# c\nmass,spring\n1,2,3\n");
  e = ErrorOf(fields);
  EXPECT_NE(e.find(fields + ":3:"), std::string::npos) << e;
  EXPECT_NE(e.find("3 fields"), std::string::npos) << e;

  const std::string ok = Write("ok2.csv", "mass,spring\n1,2\n");
  e = ErrorOf(ok, {"mass", "force"});
  EXPECT_NE(e.find(ok + ":1:"), std::string::npos) << e;
  EXPECT_NE(e.find("no column named 'force'"), std::string::npos) << e;

  const std::string inf = Write("inf.csv", "a\ninf\n");
  EXPECT_NE(ErrorOf(inf).find("not a finite number"), std::string::npos);
  const std::string empty = Write("empty.csv", "a,b\n");
  EXPECT_NE(ErrorOf(empty).find("no data rows"), std::string::npos);
  const std::string dup = Write("dup.csv", "a,a\n1,2\n");
  EXPECT_NE(ErrorOf(dup).find("twice"), std::string::npos);
  EXPECT_NE(ErrorOf("/nonexistent/x.csv").find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace mbsweep
