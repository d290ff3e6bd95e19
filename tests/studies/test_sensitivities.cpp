// ComputeSensitivities against hand derivatives and against Exudyn's
// exudyn.processing.ComputeSensitivities (exudyn 1.13.6) for the analytic objective
// f(a, b) = [a*b^2, sin(a) + b].
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/rules.h"
#include "studies/sensitivities.h"

namespace mbsweep {
namespace {

// Evaluates f for every point; counts the calls (all points must come in one call).
struct Analytic {
  int calls = 0;
  SensitivityObjective Objective() {
    return [this](const SensitivityPoints& points) {
      ++calls;
      std::vector<std::vector<double>> out;
      for (const std::vector<double>& p : points) out.push_back({p[0] * p[1] * p[1], std::sin(p[0]) + p[1]});
      return out;
    };
  }
};

// Exact derivatives at a = 1.3, b = 0.7: [input][output].
const double kExact[2][2] = {{0.7 * 0.7, std::cos(1.3)}, {2.0 * 1.3 * 0.7, 1.0}};

void ExpectRel(const std::vector<std::vector<double>>& s, const double (&exudyn)[2][2]) {
  ASSERT_EQ(s.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(s[i].size(), 2u);
    for (int k = 0; k < 2; ++k) EXPECT_NEAR(s[i][k], exudyn[i][k], 1e-14 * std::fabs(exudyn[i][k])) << i << "," << k;
  }
}

void ExpectPoints(const SensitivityPoints& got, const std::vector<std::vector<double>>& expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t e = 0; e < got.size(); ++e) {
    ASSERT_EQ(got[e].size(), 2u);
    EXPECT_EQ(got[e][0], expected[e][0]) << "point " << e;
    EXPECT_EQ(got[e][1], expected[e][1]) << "point " << e;
  }
}

TEST(Sensitivities, ForwardDifference) {
  // Exudyn: ComputeSensitivities(f, {'a': 1.3, 'b': (0.7, 2e-3)}, showProgress=False)
  Analytic fn;
  const SensitivityResult r = ComputeSensitivities({{"a", 1.3}, {"b", 0.7, 2e-3}}, fn.Objective());
  EXPECT_EQ(fn.calls, 1);
  EXPECT_EQ(r.names, (std::vector<std::string>{"a", "b"}));
  // Exudyn's parameterList: (1.3, 0.7), (1.3013, 0.7), (1.3, 0.7013999999999999).
  ExpectPoints(r.parameterList, {{1.3, 0.7}, {1.3013, 0.7}, {1.3, 0.7013999999999999}});
  ASSERT_EQ(r.valRef.size(), 2u);
  EXPECT_EQ(r.valRef[0], 1.3 * 0.7 * 0.7);
  ASSERT_EQ(r.valuesSorted.size(), 2u);
  EXPECT_EQ(r.valuesSorted[0].size(), 1u);
  EXPECT_EQ(r.valuesSorted[1].size(), 1u);
  // Forward difference: error <= h/2 * max|f''| (h = ref*relStep).
  const double h[2] = {1.3e-3, 0.7 * 2e-3};
  const double f2[2][2] = {{0.0, 1.0}, {2.0 * 1.3, 0.0}};  // |d2f/dx_i^2| bounds
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k) EXPECT_NEAR(r.sensitivity[i][k], kExact[i][k], 0.5 * h[i] * f2[i][k] * 1.01 + 1e-10);
  // Exudyn 1.13.6 returned sensitivity:
  const double exudyn[2][2] = {{0.49000000000005295, 0.26687244054689252}, {1.821820000000046, 1.0000000000000793}};
  ExpectRel(r.sensitivity, exudyn);
}

TEST(Sensitivities, CentralDifferenceScaled) {
  // Exudyn: ComputeSensitivities(f, {'a': (1.3, 1e-3, 2), 'b': (0.7, 1e-2, 1)},
  //                              scaledByReference=True, showProgress=False)
  Analytic fn;
  SensitivityOptions opt;
  opt.scaledByReference = true;
  const SensitivityResult r = ComputeSensitivities({{"a", 1.3, 1e-3, 2}, {"b", 0.7, 1e-2, 1}}, fn.Objective(), opt);
  EXPECT_EQ(fn.calls, 1);
  // Exudyn's parameterList, bit for bit.
  ExpectPoints(r.parameterList,
               {{1.3, 0.7}, {1.2974, 0.7}, {1.2987, 0.7}, {1.3013, 0.7}, {1.3026, 0.7}, {1.3, 0.693}, {1.3, 0.707}});
  ASSERT_EQ(r.valuesSorted.size(), 2u);
  ASSERT_EQ(r.valuesSorted[0].size(), 4u);
  ASSERT_EQ(r.valuesSorted[1].size(), 2u);
  EXPECT_EQ(r.valuesSorted[0][0][0], 1.2974 * 0.7 * 0.7);
  EXPECT_EQ(r.valuesSorted[1][1][1], std::sin(1.3) + 0.707);
  // Central difference over the innermost points: error O(h^2).
  const double ref[2] = {1.3, 0.7};
  const double h[2] = {1.3e-3, 7e-3};
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k) EXPECT_NEAR(r.sensitivity[i][k] / ref[i], kExact[i][k], h[i] * h[i]);
  // Exudyn 1.13.6 returned sensitivity:
  const double exudyn[2][2] = {{0.63700000000001444, 0.34774837926277757}, {1.2740000000000016, 0.69999999999999996}};
  ExpectRel(r.sensitivity, exudyn);
}

TEST(Sensitivities, CentralThenForward) {
  // Exudyn: ComputeSensitivities(f, {'a': (1.3, 1e-3, 1), 'b': (0.7, 1e-3)}, showProgress=False)
  Analytic fn;
  const SensitivityResult r = ComputeSensitivities({{"a", 1.3, 1e-3, 1}, {"b", 0.7, 1e-3}}, fn.Objective());
  EXPECT_EQ(fn.calls, 1);
  ExpectPoints(r.parameterList, {{1.3, 0.7}, {1.2987, 0.7}, {1.3013, 0.7}, {1.3, 0.7006999999999999}});
  // Exudyn 1.13.6 returned sensitivity:
  const double exudyn[2][2] = {{0.49000000000001109, 0.26749875327905964}, {1.8209099999999954, 1.0000000000003173}};
  ExpectRel(r.sensitivity, exudyn);
}

TEST(Sensitivities, ZeroValueIsShifted) {
  // relStep 0.5, n = 2: j = -2 gives exactly 0, shifted by max(0.5, 1e-6) to 0.5.
  // Exudyn: ComputeSensitivities(f, {'a': (1.3, 0.5, 2), 'b': (0.7, 1e-3, 1)}, showProgress=False)
  Analytic fn;
  const SensitivityResult r = ComputeSensitivities({{"a", 1.3, 0.5, 2}, {"b", 0.7, 1e-3, 1}}, fn.Objective());
  ExpectPoints(r.parameterList, {{1.3, 0.7},
                                 {0.5, 0.7},
                                 {0.65, 0.7},
                                 {1.9500000000000002, 0.7},
                                 {2.6, 0.7},
                                 {1.3, 0.6992999999999999},
                                 {1.3, 0.7006999999999999}});
  // Exudyn 1.13.6 returned sensitivity:
  const double exudyn[2][2] = {{0.48999999999999988, 0.2490563917444843}, {1.819999999999973, 1.0000000000000793}};
  ExpectRel(r.sensitivity, exudyn);
}

TEST(Sensitivities, ForwardThenCentralUsesInnermostPoints) {
  // Here Exudyn's index bookkeeping differences unrelated evaluations; mbsweep uses b's
  // innermost points (evaluations 3 and 4).
  Analytic fn;
  const SensitivityResult r = ComputeSensitivities({{"a", 1.3}, {"b", 0.7, 1e-3, 2}}, fn.Objective());
  ASSERT_EQ(r.parameterList.size(), 6u);
  const double expected = (r.valuesSorted[1][2][1] - r.valuesSorted[1][1][1]) / (0.7 * 1.001 - 0.7 * 0.999);
  EXPECT_EQ(r.sensitivity[1][1], expected);
  EXPECT_NEAR(r.sensitivity[1][0], kExact[1][0], 1e-5);
}

TEST(Sensitivities, NaNPropagatesAndValidation) {
  const SensitivityObjective nanObjective = [](const SensitivityPoints& points) {
    return std::vector<std::vector<double>>(points.size(), std::vector<double>{std::nan("")});
  };
  const SensitivityResult r = ComputeSensitivities({{"a", 1.0}}, nanObjective);
  EXPECT_TRUE(std::isnan(r.sensitivity[0][0]));

  Analytic fn;
  EXPECT_THROW(ComputeSensitivities({}, fn.Objective()), ValidationError);
  EXPECT_THROW(ComputeSensitivities({{"a", 1.0}, {"a", 2.0}}, fn.Objective()), ValidationError);
  EXPECT_THROW(ComputeSensitivities({{"a", 1.0, 1e-3, -1}}, fn.Objective()), ValidationError);
  EXPECT_THROW(ComputeSensitivities({{"a", 1.0, 0.0}}, fn.Objective()), ValidationError);
  // 2n points of n = 2^31-1 (the signed 2n overflowed) are more than one batch holds
  try {
    SensitivityPointsFor({{"a", 1.6, 1e-3, 2147483647}});
    ADD_FAILURE() << "no ValidationError";
  } catch (const ValidationError& e) {
    EXPECT_STREQ(e.what(), "ComputeSensitivities: 4294967295 points violate points <= 2^31-1 (they are evaluated as "
                           "one batch); use smaller n");
  }
  const SensitivityObjective shortAnswer = [](const SensitivityPoints&) {
    return std::vector<std::vector<double>>{{1.0}};
  };
  EXPECT_THROW(ComputeSensitivities({{"a", 1.0}}, shortAnswer), ValidationError);
  const SensitivityObjective ragged = [](const SensitivityPoints& points) {
    std::vector<std::vector<double>> out(points.size(), std::vector<double>{1.0});
    out.back().push_back(2.0);
    return out;
  };
  EXPECT_THROW(ComputeSensitivities({{"a", 1.0}}, ragged), ValidationError);
}

}  // namespace
}  // namespace mbsweep
