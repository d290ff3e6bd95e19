// Tests of studies/grid.h: Exudyn ParameterVariation grid semantics, numpy spacing, chunking,
// Python str() of numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/rules.h"
#include "studies/grid.h"

namespace mbsweep {
namespace {

using P = PyNumber;

ParameterRange T(const std::string& n, long long b, long long e, double c) {
  return ParameterRange::Tuple(n, P::Int(b), P::Int(e), c);
}

void ExpectBitEqual(const std::vector<double>& got, const std::vector<double>& want, const char* call) {
  ASSERT_EQ(got.size(), want.size()) << call;
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(got[i], want[i]) << call << " [" << i << "]: got " << PyStr(got[i]) << ", numpy " << PyStr(want[i]);
}

// ---------------------------------------------------------------- Python str()

TEST(PyStr, FloatsLikePython) {
  // Expected strings: Python 3.11 str(float)
  EXPECT_EQ(PyStr(0.1), "0.1");
  EXPECT_EQ(PyStr(1e-05), "1e-05");
  EXPECT_EQ(PyStr(100.0), "100.0");
  EXPECT_EQ(PyStr(1e16), "1e+16");
  EXPECT_EQ(PyStr(123456789012345678.0), "1.2345678901234568e+17");
  EXPECT_EQ(PyStr(1.0), "1.0");
  EXPECT_EQ(PyStr(0.0), "0.0");
  EXPECT_EQ(PyStr(-0.0), "-0.0");
  EXPECT_EQ(PyStr(0.0001), "0.0001");
  EXPECT_EQ(PyStr(1e15), "1000000000000000.0");
  EXPECT_EQ(PyStr(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(PyStr(2.5e-7), "2.5e-07");
  EXPECT_EQ(PyStr(1.23e-5), "1.23e-05");
  EXPECT_EQ(PyStr(5e-324), "5e-324");
  EXPECT_EQ(PyStr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(PyStr(-1234.5), "-1234.5");
  EXPECT_EQ(PyStr(3.8418270115351496), "3.8418270115351496");
  EXPECT_EQ(PyStr(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(PyStr(9007199254740993.0), "9007199254740992.0");
  EXPECT_EQ(PyStr(1e22), "1e+22");
  EXPECT_EQ(PyStr(std::nan("")), "nan");
  EXPECT_EQ(PyStr(HUGE_VAL), "inf");
  EXPECT_EQ(PyStr(-HUGE_VAL), "-inf");
}

TEST(PyStr, IntsAndLists) {
  EXPECT_EQ(PyStr(42LL), "42");
  EXPECT_EQ(PyStr(-7LL), "-7");
  EXPECT_EQ(PyStr(P::Int(10)), "10");
  EXPECT_EQ(PyStr(P::Float(10)), "10.0");
  EXPECT_EQ(PyStrList(std::vector<double>{1.0, 2.0}), "[1.0, 2.0]");
  EXPECT_EQ(PyStrList(std::vector<PyNumber>{P::Int(1), P::Float(2.5)}), "[1, 2.5]");
  EXPECT_EQ(PyStrList(std::vector<double>{}), "[]");
}

// ---------------------------------------------------------------- numpy spacing

TEST(Linspace, BitEqualToNumpy) {
  // Expected values: numpy 2.4.6, printed with "%.17g".
  ExpectBitEqual(Linspace(1, 2, 16),
                 {1, 1.0666666666666667, 1.1333333333333333, 1.2, 1.2666666666666666, 1.3333333333333333,
                  1.3999999999999999, 1.4666666666666668, 1.5333333333333332, 1.6000000000000001,
                  1.6666666666666665, 1.7333333333333334, 1.8, 1.8666666666666667, 1.9333333333333333, 2},
                 "np.linspace(1, 2, 16)");
  ExpectBitEqual(Linspace(2000, 8000, 16),
                 {2000, 2400, 2800, 3200, 3600, 4000, 4400, 4800, 5200, 5600, 6000, 6400, 6800, 7200, 7600, 8000},
                 "np.linspace(2000, 8000, 16)");
  ExpectBitEqual(Linspace(1.5, 1.7, 16),
                 {1.5, 1.5133333333333334, 1.5266666666666666, 1.54, 1.5533333333333332, 1.5666666666666667,
                  1.5800000000000001, 1.5933333333333333, 1.6066666666666667, 1.6199999999999999,
                  1.6333333333333333, 1.6466666666666667, 1.6599999999999999, 1.6733333333333333,
                  1.6866666666666665, 1.7},
                 "np.linspace(1.5, 1.7, 16)");
  ExpectBitEqual(Linspace(0.1, 0.7, 7),
                 {0.10000000000000001, 0.20000000000000001, 0.29999999999999999, 0.40000000000000002, 0.5,
                  0.59999999999999998, 0.69999999999999996},
                 "np.linspace(0.1, 0.7, 7)");
  ExpectBitEqual(Linspace(-1.3, 2.9, 11),
                 {-1.3, -0.88, -0.45999999999999996, -0.039999999999999813, 0.38000000000000012,
                  0.80000000000000004, 1.2200000000000004, 1.6400000000000003, 2.0600000000000005,
                  2.4800000000000004, 2.8999999999999999},
                 "np.linspace(-1.3, 2.9, 11)");
  ExpectBitEqual(Linspace(1e-3, 5e-3, 5),
                 {0.001, 0.002, 0.0030000000000000001, 0.0040000000000000001, 0.0050000000000000001},
                 "np.linspace(0.001, 0.005, 5)");
  ExpectBitEqual(Linspace(0, 1, 3), {0, 0.5, 1}, "np.linspace(0, 1, 3)");
  ExpectBitEqual(Linspace(3.5, 7, 1), {3.5}, "np.linspace(3.5, 7, 1)");
  EXPECT_TRUE(Linspace(0, 1, 0).empty());
  EXPECT_THROW(Linspace(0, 1, -1), ValidationError);
}

TEST(Logspace, Numpy) {
  // numpy 2.4.6: np.logspace(np.log10(a), np.log10(b), n)
  ExpectBitEqual(Logspace(std::log10(1.0), std::log10(100.0), 3), {1, 10, 100}, "np.logspace(0, 2, 3)");
  ExpectBitEqual(Logspace(std::log10(100.0), std::log10(10000.0), 3), {100, 1000, 10000}, "np.logspace(2, 4, 3)");
  ExpectBitEqual(Logspace(std::log10(1.0), std::log10(1000.0), 4), {1, 10, 100, 1000}, "np.logspace(0, 3, 4)");
  ExpectBitEqual(Logspace(std::log10(0.01), std::log10(10.0), 4), {0.01, 0.10000000000000001, 1, 10},
                 "np.logspace(-2, 1, 4)");
}

// ---------------------------------------------------------------- grid

TEST(ParameterGrid, ExudynExampleOrderFirstSlowest) {
  // {'mass':(1,10,2),'spring':(100,10000,3)}: mass [1,1,1,10,10,10], spring [100,1e3,1e4]*2
  const ParameterGrid g({T("mass", 1, 10, 2), T("spring", 100, 10000, 3)}, /*useLogSpace=*/true);
  ASSERT_EQ(g.Size(), 6u);
  ASSERT_EQ(g.Dimension(), 2u);
  EXPECT_EQ(g.Names(), (std::vector<std::string>{"mass", "spring"}));
  const auto cols = g.Columns();
  EXPECT_EQ(cols[0], (std::vector<double>{1, 1, 1, 10, 10, 10}));
  EXPECT_EQ(cols[1], (std::vector<double>{100, 1e3, 1e4, 100, 1e3, 1e4}));
  // (10-1+1)/2 = 5 is integral -> mass is int type (Exudyn prints 1, 10); 9901/3 is not.
  EXPECT_TRUE(g.IsIntType(0));
  EXPECT_FALSE(g.IsIntType(1));
  const auto p3 = g.PyPoint(3);
  EXPECT_EQ(PyStr(p3[0]), "10");
  EXPECT_EQ(PyStr(p3[1]), "100.0");
}

TEST(ParameterGrid, LinearSpacingSameExample) {
  const ParameterGrid g({T("mass", 1, 10, 2), T("spring", 100, 10000, 3)});
  EXPECT_EQ(g.Columns()[1], (std::vector<double>{100, 5050, 10000, 100, 5050, 10000}));
}

TEST(ParameterGrid, LogSpacingOneToHundred) {
  const ParameterGrid g({ParameterRange::Tuple("k", 1.0, 100.0, 3)}, true);
  EXPECT_EQ(g.Axis(0), (std::vector<double>{1, 10, 100}));
}

TEST(ParameterGrid, IntegerQuirk) {
  // (0,9,5): (9-0+1)/5 = 2 -> int type, int() truncation of linspace [0,2.25,4.5,6.75,9]
  const ParameterGrid a({T("a", 0, 9, 5)});
  EXPECT_TRUE(a.IsIntType(0));
  EXPECT_EQ(a.Axis(0), (std::vector<double>{0, 2, 4, 6, 9}));
  // (1,10,2): (10-1+1)/2 = 5 -> int type too (checked against Exudyn 1.13.6), values exact
  const ParameterGrid b({T("b", 1, 10, 2)});
  EXPECT_TRUE(b.IsIntType(0));
  EXPECT_EQ(b.Axis(0), (std::vector<double>{1, 10}));
  // (0,10,5): 11/5 not integral -> floats [0.0, 2.5, 5.0, 7.5, 10.0]
  const ParameterGrid c({T("c", 0, 10, 5)});
  EXPECT_FALSE(c.IsIntType(0));
  EXPECT_EQ(c.Axis(0), (std::vector<double>{0, 2.5, 5, 7.5, 10}));
  EXPECT_EQ(PyStr(c.PyPoint(1)[0]), "2.5");
  EXPECT_EQ(PyStr(c.PyPoint(0)[0]), "0.0");
  // (1,10,3): 10/3 not integral -> floats
  const ParameterGrid d({T("d", 1, 10, 3)});
  EXPECT_FALSE(d.IsIntType(0));
  EXPECT_EQ(d.Axis(0), (std::vector<double>{1, 5.5, 10}));
  // float bounds are never int type, even if integral: (0.0, 9.0, 5)
  const ParameterGrid e({ParameterRange::Tuple("e", 0.0, 9.0, 5)});
  EXPECT_FALSE(e.IsIntType(0));
  EXPECT_EQ(e.Axis(0), (std::vector<double>{0, 2.25, 4.5, 6.75, 9}));
  // negative values truncate toward zero: (-9,0,5) -> [-9,-6,-4,-2,0]
  const ParameterGrid f({T("f", -9, 0, 5)});
  EXPECT_EQ(f.Axis(0), (std::vector<double>{-9, -6, -4, -2, 0}));
  // lists: int type iff all entries are ints
  const ParameterGrid l({ParameterRange::List("i", {P::Int(1), P::Int(2), P::Int(4)}),
                         ParameterRange::List("m", {P::Int(1), P::Float(2.5)})});
  EXPECT_TRUE(l.IsIntType(0));
  EXPECT_FALSE(l.IsIntType(1));
  EXPECT_EQ(PyStr(l.PyPoint(1)[0]), "1");
  EXPECT_EQ(PyStr(l.PyPoint(0)[1]), "1.0");
}

TEST(ParameterGrid, ThreeParametersLikeExudyn) {
  // Exudyn 1.13.6, {'a':(0,9,5),'b':[1,2.5],'c':(0,10,5)}: rows 0, 13, 27, 49 of its results file
  // "0, ..., 0, 1.0, 0.0", "13, ..., 2, 1.0, 7.5", "27, ..., 4, 2.5, 5.0", "49, ..., 9, 2.5, 10.0"
  const ParameterGrid g({T("a", 0, 9, 5), ParameterRange::List("b", {P::Int(1), P::Float(2.5)}), T("c", 0, 10, 5)});
  ASSERT_EQ(g.Size(), 50u);
  const auto str = [&](std::uint64_t i) {
    std::string s;
    for (const auto& p : g.PyPoint(i)) s += (s.empty() ? "" : ", ") + PyStr(p);
    return s;
  };
  EXPECT_EQ(str(0), "0, 1.0, 0.0");
  EXPECT_EQ(str(13), "2, 1.0, 7.5");
  EXPECT_EQ(str(27), "4, 2.5, 5.0");
  EXPECT_EQ(str(49), "9, 2.5, 10.0");
  EXPECT_EQ(g.SubIndices(27), (std::vector<std::size_t>{2, 1, 2}));
  EXPECT_EQ(g.FlatIndex({2, 1, 2}), 27u);
}

TEST(ParameterGrid, SubIndicesLikeSingleIndex2SubIndices) {
  // exudyn.processing.SingleIndex2SubIndices(i, [10,2,3,2]) for i = 0, 1, 5, 37, 119
  const ParameterGrid g({T("a", 0, 9, 10), T("b", 0, 1, 2), T("c", 0, 2, 3), T("d", 0, 1, 2)});
  EXPECT_EQ(g.SubIndices(0), (std::vector<std::size_t>{0, 0, 0, 0}));
  EXPECT_EQ(g.SubIndices(1), (std::vector<std::size_t>{0, 0, 0, 1}));
  EXPECT_EQ(g.SubIndices(5), (std::vector<std::size_t>{0, 0, 2, 1}));
  EXPECT_EQ(g.SubIndices(37), (std::vector<std::size_t>{3, 0, 0, 1}));
  EXPECT_EQ(g.SubIndices(119), (std::vector<std::size_t>{9, 1, 2, 1}));
  for (std::uint64_t i = 0; i < g.Size(); ++i) EXPECT_EQ(g.FlatIndex(g.SubIndices(i)), i);
}

TEST(ParameterGrid, ChunksEqualFullGrid) {
  const ParameterGrid g({ParameterRange::Tuple("m", 1.0, 2.0, 7), T("k", 0, 9, 5),
                         ParameterRange::List("c", std::vector<double>{0.5, 1.5, 2.5})});
  ASSERT_EQ(g.Size(), 105u);
  const auto cols = g.Columns();
  for (std::uint64_t C : {1u, 4u, 7u, 50u, 105u, 1000u}) {
    const std::uint64_t nc = g.ChunkCount(C);
    EXPECT_EQ(nc, (105 + C - 1) / C);
    std::uint64_t next = 0;
    for (std::uint64_t i = 0; i < nc; ++i) {
      const GridChunk ch = g.Chunk(i, C);
      EXPECT_EQ(ch.begin, i * C);
      EXPECT_EQ(ch.end, std::min<std::uint64_t>((i + 1) * C, 105));
      ASSERT_EQ(ch.values.size(), ch.Size() * 3);
      for (std::size_t r = 0; r < ch.Size(); ++r) {
        EXPECT_EQ(ch.ComputationIndex(r), next);
        for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(ch.At(r, k), cols[k][next]) << "C=" << C << " point " << next;
        ++next;
      }
    }
    EXPECT_EQ(next, 105u);
    std::uint64_t seen = 0;
    g.ForEachChunk(C, [&](const GridChunk& ch) {
      EXPECT_EQ(ch.begin, seen);
      for (std::size_t r = 0; r < ch.Size(); ++r)
        for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(ch.At(r, k), g.Value(ch.begin + r, k));
      seen = ch.end;
    });
    EXPECT_EQ(seen, 105u);
  }
  EXPECT_THROW(g.Chunk(0, 0), ValidationError);
  EXPECT_THROW(g.Chunk(15, 7), ValidationError);
}

TEST(ParameterGrid, MillionPointsStreamInBoundedMemory) {
  // 100 x 100 x 100 = 10^6 points; chunks of 4096 hold at most 4096*3 values.
  const ParameterGrid g({ParameterRange::Tuple("a", 0.0, 1.0, 100), ParameterRange::Tuple("b", 1.0, 2.0, 100),
                         ParameterRange::Tuple("c", -1.0, 1.0, 100)});
  ASSERT_EQ(g.Size(), 1000000u);
  std::uint64_t count = 0;
  std::size_t maxValues = 0;
  double sumA = 0;
  g.ForEachChunk(4096, [&](const GridChunk& ch) {
    count += ch.Size();
    maxValues = std::max(maxValues, ch.values.size());
    for (std::size_t r = 0; r < ch.Size(); ++r) sumA += ch.At(r, 0);
  });
  EXPECT_EQ(count, 1000000u);
  EXPECT_LE(maxValues, 4096u * 3u);
  EXPECT_NEAR(sumA, 10000 * 50.0, 1e-6);  // each a value 10^4 times, sum of linspace(0,1,100) = 50
  const GridChunk last = g.Chunk(g.ChunkCount(4096) - 1, 4096);
  EXPECT_EQ(last.end, 1000000u);
  EXPECT_EQ(last.At(last.Size() - 1, 0), 1.0);
  EXPECT_EQ(last.At(last.Size() - 1, 2), 1.0);
}

TEST(ParameterGrid, NoParametersIsOnePoint) {
  const ParameterGrid g(std::vector<ParameterRange>{});
  EXPECT_EQ(g.Size(), 1u);
  EXPECT_EQ(g.Chunk(0, 10).Size(), 1u);
}

void ExpectError(const std::vector<ParameterRange>& ranges, bool log, const std::vector<std::string>& parts) {
  try {
    ParameterGrid g(ranges, log);
    ADD_FAILURE() << "no ValidationError";
  } catch (const ValidationError& e) {
    const std::string msg = e.what();
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
  }
}

TEST(ParameterGrid, ValidationErrors) {
  ExpectError({T("mass", 1, 2, 0)}, false, {"'mass'", "n = 0", "PInt"});
  ExpectError({T("mass", 1, 2, -3)}, false, {"'mass'", "n = -3", "PInt"});
  ExpectError({T("mass", 1, 2, 2.5)}, false, {"'mass'", "n = 2.5", "PInt"});
  ExpectError({T("spring", 5, 2, 3)}, false, {"'spring'", "begin = 5", "begin <= end", "end = 2"});
  ExpectError({ParameterRange::Tuple("k", 0.0, 10.0, 3)}, true, {"'k'", "begin = 0.0", "PReal", "log"});
  ExpectError({ParameterRange::Tuple("k", -1.0, 10.0, 3)}, true, {"'k'", "begin = -1.0", "PReal"});
  ExpectError({ParameterRange::List("c", std::vector<double>{})}, false, {"'c'", "list size", "0"});
  ExpectError({ParameterRange::List("c", std::vector<double>{1.0, std::nan("")})}, false, {"'c'", "list[1]", "nan"});
  ExpectError({ParameterRange::Tuple("x", 0.0, HUGE_VAL, 3)}, false, {"'x'", "end = inf"});
  ExpectError({T("a", 0, 1, 2), T("a", 0, 1, 2)}, false, {"'a'", "duplicate"});
  ExpectError({T("", 0, 1, 2)}, false, {"empty name"});
  // log spacing does not apply to lists: non-positive list entries are fine
  EXPECT_NO_THROW(ParameterGrid({ParameterRange::List("c", std::vector<double>{-1.0, 0.0})}, true));
  // begin == end is allowed
  EXPECT_EQ(ParameterGrid({T("e", 3, 3, 2)}).Axis(0), (std::vector<double>{3, 3}));
}

// A range's values are computed when needed, bit-equal to numpy.linspace: a grid of 1e9
// points on one axis costs no memory (its axis alone was 8 GB).
TEST(ParameterGrid, LargeRangesAreNotMaterialized) {
  const ParameterGrid g({ParameterRange::Tuple("m", 1.0, 2.0, 1e9)});
  EXPECT_EQ(g.Size(), 1000000000u);
  EXPECT_EQ(g.Value(0, 0), 1.0);
  EXPECT_EQ(g.Value(999999999, 0), 2.0);
  const std::vector<double> small = Linspace(1.0, 2.0, 1001);
  const ParameterGrid s({ParameterRange::Tuple("m", 1.0, 2.0, 1001)}, false);
  for (std::uint64_t i = 0; i < small.size(); ++i) EXPECT_EQ(s.Value(i, 0), small[i]) << i;
  const ParameterGrid l({ParameterRange::Tuple("m", 1.0, 1000.0, 7)}, true);
  EXPECT_EQ(l.Axis(0), Logspace(0.0, 3.0, 7));
}

TEST(ParameterRange, PythonStringAndParse) {
  EXPECT_EQ(T("m", 1, 10, 2).ToPythonString(), "(1, 10, 2)");
  EXPECT_EQ(ParameterRange::Tuple("m", 1.5, 1.7, 16).ToPythonString(), "(1.5, 1.7, 16)");
  EXPECT_EQ(ParameterRange::List("c", {P::Int(1), P::Float(2.5)}).ToPythonString(), "[1, 2.5]");
  const ParameterRange a = ParseParameterRange("m", " (1, 10, 2) ");
  EXPECT_EQ(a.kind, ParameterRange::Kind::Tuple);
  EXPECT_TRUE(a.begin.isInt);
  EXPECT_EQ(a.end.intValue, 10);
  EXPECT_EQ(a.count, 2);
  const ParameterRange b = ParseParameterRange("k", "(1e-3, 0.5, 8)");
  EXPECT_FALSE(b.begin.isInt);
  EXPECT_EQ(b.begin.value, 1e-3);
  const ParameterRange c = ParseParameterRange("c", "[1, 2.5, -3]");
  EXPECT_EQ(c.kind, ParameterRange::Kind::List);
  ASSERT_EQ(c.values.size(), 3u);
  EXPECT_TRUE(c.values[2].isInt);
  EXPECT_EQ(c.values[2].intValue, -3);
  EXPECT_EQ(c.ToPythonString(), "[1, 2.5, -3]");
  EXPECT_THROW(ParseParameterRange("x", "(1, 2)"), ValidationError);
  EXPECT_THROW(ParseParameterRange("x", "1, 2, 3"), ValidationError);
  EXPECT_THROW(ParseParameterRange("x", "[1, abc]"), ValidationError);
}

}  // namespace
}  // namespace mbsweep
