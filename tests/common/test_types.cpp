// Tests of common/types.h: CosSin, the cosine and sine of every planar rotation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "common/types.h"

namespace mbsweep {
namespace {

/// |x - ref| in units of the last place of the double nearest ref.
double UlpError(double x, long double ref) {
  const double r = static_cast<double>(ref);
  const double ulp = std::nextafter(std::fabs(r), std::numeric_limits<double>::infinity()) - std::fabs(r);
  return static_cast<double>(std::fabs(static_cast<long double>(x) - ref) / ulp);
}

// Within one unit in the last place of cosl/sinl (long double) for |x| <= 1e5: 0.86 ulp was the
// largest error over 1.4e7 arguments, the C library's double sin/cos 0.52.
TEST(CosSin, WithinOneUlpOfLongDouble) {
  std::mt19937_64 rng(7);
  double worst = 0, worstAt = 0;
  for (double range : {0.8, 10.0, 1000.0, 1e5}) {
    std::uniform_real_distribution<double> dist(-range, range);
    for (int i = 0; i < 100000; ++i) {
      const double x = dist(rng);
      Real c, s;
      CosSin(x, c, s);
      const double e = std::fmax(UlpError(c, std::cos(static_cast<long double>(x))),
                                 UlpError(s, std::sin(static_cast<long double>(x))));
      if (e > worst) {
        worst = e;
        worstAt = x;
      }
    }
  }
  EXPECT_LE(worst, 1.0) << "at x = " << worstAt;
}

// Exact values at 0, the quadrant boundaries near multiples of pi/2 (to 1 ulp), and the C
// library's values outside |x| <= 1e5, at infinities and NaN.
TEST(CosSin, SpecialArguments) {
  Real c, s;
  CosSin(0.0, c, s);
  EXPECT_EQ(c, 1.0);
  EXPECT_EQ(s, 0.0);
  for (int k = -8; k <= 8; ++k) {
    const double x = k * 1.5707963267948966;
    CosSin(x, c, s);
    EXPECT_LE(UlpError(c, std::cos(static_cast<long double>(x))), 1.0) << "x = " << x;
    EXPECT_LE(UlpError(s, std::sin(static_cast<long double>(x))), 1.0) << "x = " << x;
  }
  for (double x : {1e5 + 1, -3e7, 1e300}) {
    CosSin(x, c, s);
    EXPECT_EQ(c, std::cos(x));
    EXPECT_EQ(s, std::sin(x));
  }
  CosSin(std::numeric_limits<double>::infinity(), c, s);
  EXPECT_TRUE(std::isnan(c) && std::isnan(s));
  CosSin(std::numeric_limits<double>::quiet_NaN(), c, s);
  EXPECT_TRUE(std::isnan(c) && std::isnan(s));
}

}  // namespace
}  // namespace mbsweep
