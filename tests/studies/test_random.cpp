/// @file test_random.cpp
/// NumpyRandomState against numbers produced by numpy 2.4.6's legacy global RandomState
/// (np.random.seed + legacy calls, Linux x86-64), asserted bit for bit; PhiloxStream against
/// the Random123 known-answer vectors plus statistical and stream-independence checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "studies/random.h"

namespace mbsweep {
namespace {

// ---------------------------------------------------------------------------------------
// NumpyRandomState: per-seed sequences
// ---------------------------------------------------------------------------------------

struct NumpySequence {
  std::int64_t seed;
  double randomSample[5];  // [np.random.random_sample() for _ in range(5)]
  double uniform[3];       // [np.random.uniform(1, 10) for _ in range(3)]
  std::int64_t randint5[10];   // [np.random.randint(5) for _ in range(10)]
  std::int64_t randint1000[5]; // [np.random.randint(1000) for _ in range(5)]
  double normal[5];        // [np.random.normal(3, 2) for _ in range(5)]
};

// Produced by (numpy 2.4.6), for each seed, in this order on one stream:
//   np.random.seed(seed)
//   [np.random.random_sample() for _ in range(5)]; [np.random.uniform(1,10) for _ in range(3)]
//   [np.random.randint(5) for _ in range(10)]; [np.random.randint(1000) for _ in range(5)]
//   [np.random.normal(3,2) for _ in range(5)]
// printed with '%.17g'.
const NumpySequence kNumpySequences[] = {
    {0,
     {0.54881350392732475, 0.71518936637241948, 0.60276337607164387, 0.54488318299689686,
      0.42365479933890471},
     {6.8130470175999047, 4.9382849013642325, 9.0259570070387181},
     {0, 4, 2, 1, 0, 1, 1, 0, 1, 4},
     {115, 976, 755, 709, 847},
     {2.6368348545376081, 5.8204092622624284, 2.2510566180395877, 3.5503966311526405,
      1.0784907765324239}},
    {1,
     {0.417022004702574, 0.7203244934421581, 0.00011437481734488664, 0.30233257263183977,
      0.14675589081711304},
     {1.8310473529191802, 2.676341902399038, 4.1100465433874298},
     {1, 2, 4, 2, 4, 3, 4, 2, 4, 2},
     {580, 215, 983, 753, 503},
     {4.7716588039942049, 4.2638037407577585, 3.0805207018708591, 1.1937542328376709,
      3.3506453458977088}},
    {42,
     {0.37454011884736249, 0.95071430640991617, 0.73199394181140509, 0.5986584841970366,
      0.15601864044243652},
     {2.4039506830258239, 1.5227525095137953, 8.795585311974417},
     {3, 2, 4, 1, 3, 1, 3, 4, 0, 3},
     {313, 21, 252, 747, 856},
     {4.6328901619026546, -0.0477519952317218, 2.143907871647531, 1.5151863257616551,
      1.5933123965851854}},
    {2147483647,  // 2**31 - 1
     {0.39339113155013872, 0.65666184305445185, 0.08629079684294616, 0.96438378034475969,
      0.6211251115394647},
     {7.7057299069306779, 2.0850622893384441, 9.8728918682306155},
     {0, 3, 4, 1, 2, 0, 3, 2, 2, 2},
     {916, 601, 119, 194, 461},
     {2.5449253353940726, 3.1707963811385413, 3.8950214782049173, 2.5565110514080001,
      1.3831997768009923}},
};

TEST(NumpyRandomState, SequencesMatchNumpyLegacyApi) {
  for (const NumpySequence& s : kNumpySequences) {
    SCOPED_TRACE("seed " + std::to_string(s.seed));
    NumpyRandomState rng(s.seed);
    for (double expected : s.randomSample) EXPECT_EQ(rng.RandomSample(), expected);
    for (double expected : s.uniform) EXPECT_EQ(rng.Uniform(1.0, 10.0), expected);
    for (std::int64_t expected : s.randint5) EXPECT_EQ(rng.RandInt(5), expected);
    for (std::int64_t expected : s.randint1000) EXPECT_EQ(rng.RandInt(1000), expected);
    for (double expected : s.normal) EXPECT_EQ(rng.Normal(3.0, 2.0), expected);
  }
}

TEST(NumpyRandomState, ReseedingRestartsTheStream) {
  NumpyRandomState rng(5);
  rng.Seed(0);
  EXPECT_EQ(rng.Random(), 0.54881350392732475);
  rng.Seed(0);
  EXPECT_EQ(rng.Random(), 0.54881350392732475);
}

// ---------------------------------------------------------------------------------------
// NumpyRandomState: interleaved calls (the pattern of GeneticOptimization)
// ---------------------------------------------------------------------------------------

// Produced by (numpy 2.4.6):
//   np.random.seed(seed)
//   for k in range(4):
//     np.random.random(); np.random.randint(3); np.random.random(); np.random.randint(3)
//     np.random.uniform(100, 10000); np.random.normal(0.5, 0.1)
// Each row is one k: {random, randint(3), random, randint(3), uniform, normal}.
struct InterleavedRow {
  double r1;
  std::int64_t i1;
  double r2;
  std::int64_t i2;
  double u;
  double n;
};

struct InterleavedSequence {
  std::int64_t seed;
  InterleavedRow rows[4];
};

const InterleavedSequence kInterleaved[] = {
    {0,
     {{0.54881350392732475, 1, 0.84426574858101733, 1, 6273.2805981811262, 0.34830172654751562},
      {0.056712977317443181, 0, 0.38344151882577771, 2, 8140.4704148773826, 0.41337237893411188},
      {0.47997717237505733, 1, 0.92559663829266103, 1, 3440.221988130957, 0.37218508822969842},
      {0.95715515895304637, 0, 0.978618342232764, 0, 8029.0164445984783, 0.6437370680421205}}},
    {1,
     {{0.417022004702574, 0, 0.9325573593386588, 1, 3093.0924690552138, 0.44718282477365445},
      {0.39676747423066994, 2, 0.8463109166860171, 1, 6883.6730539279188, 0.39270313778438293},
      {0.20445224973151743, 2, 0.22957721372982554, 2, 6737.6283507661819, 0.64621079370449741},
      {0.14038693859523377, 0, 0.77838923633653345, 1, 9685.7895996220359, 0.29398592905023457}}},
    {42,
     {{0.37454011884736249, 0, 0.18343478986616379, 0, 6008.8165636702215, 0.40831731561816281},
      {0.45924889196586716, 0, 0.6011150117432088, 2, 303.78649352844423, 0.48758528197272316},
      {0.96990985216199432, 1, 0.21233911067827616, 0, 6213.0669453143937, 0.50222218266119834},
      {0.39986097171525548, 2, 0.45606998421703593, 2, 6222.0214923975645, 0.45722070863966546}}},
    {2147483647,
     {{0.39339113155013872, 1, 0.63906110887446099, 0, 9647.3994254131212, 0.63931666912751484},
      {0.12056247659316044, 0, 0.448067912278586, 2, 7967.3586603109588, 0.56885372651891308},
      {0.84396626150735188, 2, 0.79684686006925398, 2, 9830.1193351535821, 0.39333700969839608},
      {0.6483284359438426, 1, 0.42422179787874637, 0, 2799.422760377684, 0.55678867805487975}}},
};

TEST(NumpyRandomState, InterleavedCallsMatchNumpy) {
  for (const InterleavedSequence& s : kInterleaved) {
    SCOPED_TRACE("seed " + std::to_string(s.seed));
    NumpyRandomState rng(s.seed);
    for (const InterleavedRow& row : s.rows) {
      EXPECT_EQ(rng.Random(), row.r1);
      EXPECT_EQ(rng.RandInt(3), row.i1);
      EXPECT_EQ(rng.Random(), row.r2);
      EXPECT_EQ(rng.RandInt(3), row.i2);
      EXPECT_EQ(rng.Uniform(100.0, 10000.0), row.u);
      EXPECT_EQ(rng.Normal(0.5, 0.1), row.n);
    }
  }
}

// ---------------------------------------------------------------------------------------
// NumpyRandomState: state, regeneration boundary, integer ranges, Gaussian cache
// ---------------------------------------------------------------------------------------

TEST(NumpyRandomState, IntSeedUsesInitGenrandNotInitByArray) {
  // np.random.seed(2**32-1); s = np.random.get_state(): s[1][0], s[1][1], s[1][623], s[2]
  NumpyRandomState rng(4294967295LL);
  const NumpyRandomState::State s = rng.GetState();
  EXPECT_EQ(s.key[0], 4294967295u);
  EXPECT_EQ(s.key[1], 1340201581u);
  EXPECT_EQ(s.key[623], 3413567280u);
  EXPECT_EQ(s.pos, 624);
  EXPECT_FALSE(s.hasGauss);
  EXPECT_EQ(rng.Random(), 0.097632028994013798);  // then np.random.random()

  // np.random.seed(0): key[:3] == [0, 1, 1812433255]
  const NumpyRandomState::State s0 = NumpyRandomState(0).GetState();
  EXPECT_EQ(s0.key[0], 0u);
  EXPECT_EQ(s0.key[1], 1u);
  EXPECT_EQ(s0.key[2], 1812433255u);
}

TEST(NumpyRandomState, RejectsOutOfRangeSeeds) {
  EXPECT_THROW(NumpyRandomState(-1), std::invalid_argument);
  EXPECT_THROW(NumpyRandomState(4294967296LL), std::invalid_argument);
}

TEST(NumpyRandomState, CrossesTheTwistBoundary) {
  // np.random.seed(0); x = [np.random.random_sample() for _ in range(320)]: x[311], x[312], x[319]
  NumpyRandomState rng(0);
  std::vector<double> x;
  for (int i = 0; i < 320; ++i) x.push_back(rng.RandomSample());
  EXPECT_EQ(x[311], 0.14694664540037505);
  EXPECT_EQ(x[312], 0.079522082586755749);
  EXPECT_EQ(x[319], 0.72704426271132827);

  // np.random.seed(0); np.random.randint(5); then 320 random_sample(): x[310], x[311], x[312]
  // (x[311] takes its two words from either side of the regeneration)
  NumpyRandomState odd(0);
  odd.RandInt(5);
  x.clear();
  for (int i = 0; i < 320; ++i) x.push_back(odd.RandomSample());
  EXPECT_EQ(x[310], 0.30458203067590772);
  EXPECT_EQ(x[311], 0.88285999804379101);
  EXPECT_EQ(x[312], 0.25062272019388543);
}

TEST(NumpyRandomState, WideAndSignedIntegerRanges) {
  // np.random.seed(7)
  // [np.random.randint(2**40) for _ in range(3)]        -> 64-bit masked path
  // [np.random.randint(-5, 7) for _ in range(5)]
  // [np.random.randint(2**32) for _ in range(3)]        -> rng = 2**32-1, raw 32-bit word
  // np.random.randint(-2**63, 2**63-1)
  // np.random.randint(1)                                 -> 0, consumes nothing
  // np.random.random()
  NumpyRandomState rng(7);
  EXPECT_EQ(rng.RandInt(1LL << 40), 752595690692LL);
  EXPECT_EQ(rng.RandInt(1LL << 40), 108744157686LL);
  EXPECT_EQ(rng.RandInt(1LL << 40), 291964244179LL);
  const std::int64_t signedExpected[] = {2, 2, 4, 2, 3};
  for (std::int64_t e : signedExpected) EXPECT_EQ(rng.RandInt(-5, 7), e);
  EXPECT_EQ(rng.RandInt(1LL << 32), 372560217);
  EXPECT_EQ(rng.RandInt(1LL << 32), 309457262);
  EXPECT_EQ(rng.RandInt(1LL << 32), 1801189930);
  EXPECT_EQ(rng.RandInt(INT64_MIN, INT64_MAX), -4271546761957166200LL);
  EXPECT_EQ(rng.RandInt(1), 0);
  EXPECT_EQ(rng.Random(), 0.49988250082555996);
}

TEST(NumpyRandomState, RandIntRejectsEmptyRanges) {
  NumpyRandomState rng(0);
  EXPECT_THROW(rng.RandInt(0), std::invalid_argument);
  EXPECT_THROW(rng.RandInt(-3), std::invalid_argument);
  EXPECT_THROW(rng.RandInt(4, 4), std::invalid_argument);
}

TEST(NumpyRandomState, GaussianCacheIsPartOfTheState) {
  // np.random.seed(3); a = np.random.standard_normal(); b = np.random.normal(0.0, 0.0)
  // c = np.random.normal(-1, 3); np.random.seed(3); e = np.random.normal()
  NumpyRandomState rng(3);
  EXPECT_EQ(rng.StandardNormal(), 1.7886284734303186);
  EXPECT_EQ(rng.Normal(0.0, 0.0), 0.0);  // consumes the cached value
  EXPECT_EQ(rng.Normal(-1.0, 3.0), -0.71050759578397416);
  rng.Seed(3);  // reseeding drops the cache
  EXPECT_EQ(rng.Normal(), 1.7886284734303186);

  // np.random.seed(3); np.random.normal(); s = np.random.get_state(): s[3] == 1, s[4]
  NumpyRandomState cached(3);
  cached.Normal();
  NumpyRandomState::State s = cached.GetState();
  EXPECT_TRUE(s.hasGauss);
  EXPECT_EQ(s.gauss, 0.43650985051198943);

  // Restoring the state restores the cached value and the MT position.
  const double next1 = cached.Normal();
  const double next2 = cached.Random();
  NumpyRandomState restored(99);
  restored.SetState(s);
  EXPECT_EQ(restored.Normal(), next1);
  EXPECT_EQ(next1, 0.43650985051198943);
  EXPECT_EQ(restored.Random(), next2);

  s.pos = 625;
  EXPECT_THROW(restored.SetState(s), std::invalid_argument);
}

TEST(NumpyRandomState, UniformAndNormalArgumentChecks) {
  // np.random.seed(5); np.random.uniform(2, -3)  (high < low is allowed)
  NumpyRandomState rng(5);
  EXPECT_EQ(rng.Uniform(2.0, -3.0), 0.89003414455130248);
  EXPECT_THROW(rng.Uniform(-1e308, 1e308), std::overflow_error);
  EXPECT_THROW(rng.Uniform(0.0, NAN), std::overflow_error);
  EXPECT_THROW(rng.Normal(0.0, -1.0), std::invalid_argument);
  EXPECT_THROW(rng.Normal(0.0, -0.0), std::invalid_argument);  // numpy tests the sign bit
  // The failed calls drew nothing: the stream continues as after one uniform draw.
  NumpyRandomState ref(5);
  ref.Uniform(2.0, -3.0);
  EXPECT_EQ(rng.Random(), ref.Random());
}

// ---------------------------------------------------------------------------------------
// Philox4x32-10
// ---------------------------------------------------------------------------------------

TEST(Philox, Random123KnownAnswerVectors) {
  // Random123 tests/kat_vectors, the three "philox4x32 10" lines (ctr[4] key[2] -> out[4]).
  struct Kat {
    Philox4x32Block ctr;
    Philox4x32Key key;
    Philox4x32Block out;
  };
  const Kat kats[] = {
      {{{0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u}},
       {{0x00000000u, 0x00000000u}},
       {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}},
      {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
       {{0xffffffffu, 0xffffffffu}},
       {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}},
      {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
       {{0xa4093822u, 0x299f31d0u}},
       {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}},
  };
  for (const Kat& k : kats) {
    const Philox4x32Block out = Philox4x32_10(k.ctr, k.key);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out.v[i], k.out.v[i]) << "word " << i;
  }
}

TEST(Philox, StreamLayoutIsCounterAndKey) {
  // Stream (seed, stream) block i = Philox4x32_10({i lo, i hi, stream lo, stream hi},
  // {seed lo, seed hi}); the all-ones KAT is block 2^64-1 of stream 2^64-1, seed 2^64-1.
  const PhiloxStream s(~0ull, ~0ull);
  const Philox4x32Block b = s.Block(~0ull);
  EXPECT_EQ(b.v[0], 0x408f276du);
  EXPECT_EQ(b.v[3], 0x6d5451fdu);
  // ... and the all-zeros KAT the first four words of stream 0, seed 0.
  PhiloxStream z(0, 0);
  EXPECT_EQ(z.NextUInt32(), 0x6627e8d5u);
  EXPECT_EQ(z.NextUInt32(), 0xe169c58du);
  EXPECT_EQ(z.NextUInt32(), 0xbc57ac4cu);
  EXPECT_EQ(z.NextUInt32(), 0x9b00dbd8u);
  EXPECT_EQ(z.BlocksUsed(), 1u);
  // The two-id constructor is the 64-bit id (stream0 | stream1 << 32).
  PhiloxStream a(123, 7u, 3u), c(123, (3ull << 32) | 7ull);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a.NextUInt32(), c.NextUInt32());
}

TEST(Philox, SequentialMatchesRandomAccessAndIsDeterministic) {
  PhiloxStream s(0x0123456789abcdefull, 17u, 4u);
  PhiloxStream t(0x0123456789abcdefull, 17u, 4u);
  for (std::uint64_t blk = 0; blk < 8; ++blk) {
    const Philox4x32Block b = s.Block(blk);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(t.NextUInt32(), b.v[i]);
  }
  PhiloxStream u1(99, 1u, 2u), u2(99, 1u, 2u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(u1.Uniform(), u2.Uniform());
    EXPECT_EQ(u1.Normal(), u2.Normal());
  }
}

TEST(Philox, UniformRangeAndMean) {
  PhiloxStream s(20250101, 0u, 0u);
  const int n = 1000000;
  double sum = 0.0, sumSq = 0.0;
  double lo = 1.0, hi = 0.0;
  for (int i = 0; i < n; ++i) {
    const double u = s.Uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    lo = std::min(lo, u);
    hi = std::max(hi, u);
    sum += u;
    sumSq += u * u;
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 0.5, 1e-3);
  EXPECT_NEAR(sumSq / n - mean * mean, 1.0 / 12.0, 1e-3);
  EXPECT_LT(lo, 1e-5);
  EXPECT_GT(hi, 1.0 - 1e-5);

  PhiloxStream r(5, 1u, 1u);
  for (int i = 0; i < 1000; ++i) {
    const double v = r.Uniform(-2.0, 3.0);
    EXPECT_GE(v, -2.0);
    EXPECT_LT(v, 3.0);
  }
}

TEST(Philox, NormalMoments) {
  PhiloxStream s(77, 3u, 0u);
  const int n = 1000000;
  double sum = 0.0, sumSq = 0.0;
  for (int i = 0; i < n; ++i) {
    const double x = s.Normal(2.0, 0.5);
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
    sumSq += x * x;
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 2.0, 5e-3);
  EXPECT_NEAR(std::sqrt(sumSq / n - mean * mean), 0.5, 5e-3);
}

TEST(Philox, StreamsAreIndependent) {
  const std::uint64_t seed = 42;
  auto firstWords = [](PhiloxStream s) {
    std::vector<std::uint32_t> w;
    for (int i = 0; i < 16; ++i) w.push_back(s.NextUInt32());
    return w;
  };
  // Different individuals, different generations, different seeds: all sequences differ,
  // and no 32-bit word repeats across 64 streams x 16 words (a collision would be a
  // ~1e-4 coincidence for independent streams; a shared block would repeat 4 words).
  std::set<std::vector<std::uint32_t>> sequences;
  std::set<std::uint32_t> words;
  std::size_t total = 0;
  for (std::uint32_t individual = 0; individual < 8; ++individual) {
    for (std::uint32_t generation = 0; generation < 8; ++generation) {
      const std::vector<std::uint32_t> w = firstWords(PhiloxStream(seed, individual, generation));
      sequences.insert(w);
      words.insert(w.begin(), w.end());
      total += w.size();
    }
  }
  EXPECT_EQ(sequences.size(), 64u);
  EXPECT_GE(words.size(), total - 1);
  EXPECT_NE(firstWords(PhiloxStream(seed, 0u, 0u)), firstWords(PhiloxStream(seed + 1, 0u, 0u)));

  // Uncorrelated: the sample correlation of two neighbouring streams is ~ N(0, 1/n).
  PhiloxStream a(seed, 10u, 1u), b(seed, 11u, 1u);
  const int n = 100000;
  double sab = 0.0, sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0;
  for (int i = 0; i < n; ++i) {
    const double x = a.Uniform(), y = b.Uniform();
    sa += x;
    sb += y;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  const double cov = sab / n - (sa / n) * (sb / n);
  const double corr = cov / std::sqrt((saa / n - (sa / n) * (sa / n)) * (sbb / n - (sb / n) * (sb / n)));
  EXPECT_LT(std::fabs(corr), 5.0 / std::sqrt(static_cast<double>(n)));
}

}  // namespace
}  // namespace mbsweep
