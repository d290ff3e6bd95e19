/// @file random.h
/// Random streams for the study drivers.
///
/// * NumpyRandomState reproduces numpy's legacy global RandomState (np.random.seed(int)
///   followed by the legacy np.random.* calls) number for number, so that a study driver
///   that draws in the same order as Exudyn's Python code (GeneticOptimization, see
///   genetic.h) reproduces its individuals bit for bit. Host only.
/// * PhiloxStream is a counter-based stream (Philox4x32-10, Salmon et al., SC'11): the
///   numbers depend only on (seed, stream id, position), never on which thread or in which
///   order streams are used. Header-only, no allocation, usable on host and device.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "common/hostdevice.h"

namespace mbsweep {

// ----------------------------------------------------------------------------------------
// numpy legacy RandomState
// ----------------------------------------------------------------------------------------

/// Exact re-implementation of numpy's legacy `RandomState` for the calls the study drivers
/// use (checked against numpy 2.4.6; the legacy stream is frozen by numpy's compatibility
/// guarantee):
/// * seeding with an int: MT19937 `mt19937_seed` (Knuth's linear init_genrand recurrence,
///   key[0] = seed), *not* init_by_array (numpy uses init_by_array only for array seeds);
///   the cached Gaussian is cleared;
/// * random_sample(): two 32-bit words a, b -> ((a >> 5) * 2^26 + (b >> 6)) / 2^53;
/// * uniform(low, high) = low + (high - low) * random_sample();
/// * randint(low, high): masked rejection sampling on (high-1-low); one 32-bit word per try
///   when that range fits in 32 bits (a 64-bit word = two 32-bit words, high word first,
///   otherwise); no word at all when the range is a single value (randint(1));
/// * normal(loc, scale) = loc + scale * legacy_gauss(); legacy_gauss is the polar
///   Box-Muller method that returns f*x2 and caches f*x1 for the next call.
class NumpyRandomState {
 public:
  static constexpr int kStateLength = 624;

  /// The full state, as numpy's `get_state()` tuple: ('MT19937', key, pos, has_gauss, gauss).
  struct State {
    std::array<std::uint32_t, kStateLength> key{};
    int pos = kStateLength;
    bool hasGauss = false;
    double gauss = 0.0;
  };

  /// Same as np.random.seed(seed).
  explicit NumpyRandomState(std::int64_t seed = 0) { Seed(seed); }

  /// np.random.seed(seed) for an int seed; throws std::invalid_argument unless
  /// 0 <= seed <= 2^32-1 (numpy: "Seed must be between 0 and 2**32 - 1").
  void Seed(std::int64_t seed);

  /// The next raw tempered MT19937 word (numpy's next_uint32).
  std::uint32_t NextUInt32();
  /// numpy's next_uint64: (first word << 32) | second word.
  std::uint64_t NextUInt64();

  /// np.random.random_sample() / np.random.random(): a double in [0, 1), 53 random bits.
  double RandomSample();
  /// np.random.random() (alias of RandomSample).
  double Random() { return RandomSample(); }

  /// np.random.uniform(low, high) = low + (high-low)*random_sample(). high < low is allowed
  /// (as in numpy); throws std::overflow_error if high-low is not finite (numpy:
  /// OverflowError "Range exceeds valid bounds").
  double Uniform(double low, double high);

  /// np.random.randint(high): an integer in [0, high). Throws std::invalid_argument if
  /// high <= 0.
  std::int64_t RandInt(std::int64_t high) { return RandInt(0, high); }
  /// np.random.randint(low, high): an integer in [low, high). Throws std::invalid_argument
  /// if low >= high.
  std::int64_t RandInt(std::int64_t low, std::int64_t high);

  /// np.random.normal(loc, scale) (legacy polar Box-Muller with the cached second value).
  /// Throws std::invalid_argument if scale < 0 (also for -0.0, like numpy's signbit test).
  double Normal(double loc = 0.0, double scale = 1.0);
  /// np.random.standard_normal() (= legacy_gauss, shares the cache with Normal).
  double StandardNormal() { return Gauss(); }

  State GetState() const { return state_; }
  /// Restores a state obtained from GetState() (or numpy's get_state()); pos must lie in
  /// [0, 624], otherwise std::invalid_argument.
  void SetState(const State& state);

 private:
  double Gauss();
  void Regenerate();

  State state_;
};

// ----------------------------------------------------------------------------------------
// Philox4x32-10
// ----------------------------------------------------------------------------------------

/// A 128-bit Philox counter / output block (four 32-bit words).
struct Philox4x32Block {
  std::uint32_t v[4];
};

/// A 64-bit Philox key (two 32-bit words).
struct Philox4x32Key {
  std::uint32_t v[2];
};

namespace philox_detail {
constexpr std::uint32_t kM0 = 0xD2511F53u;  // round multipliers
constexpr std::uint32_t kM1 = 0xCD9E8D57u;
constexpr std::uint32_t kW0 = 0x9E3779B9u;  // Weyl key increments (golden ratio, sqrt(3)-1)
constexpr std::uint32_t kW1 = 0xBB67AE85u;

MBS_HD_INLINE void MulHiLo(std::uint32_t a, std::uint32_t b, std::uint32_t* hi, std::uint32_t* lo) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b);
  *hi = static_cast<std::uint32_t>(p >> 32);
  *lo = static_cast<std::uint32_t>(p);
}

MBS_HD_INLINE Philox4x32Block Round(const Philox4x32Block& c, const Philox4x32Key& k) {
  std::uint32_t hi0, lo0, hi1, lo1;
  MulHiLo(kM0, c.v[0], &hi0, &lo0);
  MulHiLo(kM1, c.v[2], &hi1, &lo1);
  Philox4x32Block r;
  r.v[0] = hi1 ^ c.v[1] ^ k.v[0];
  r.v[1] = lo1;
  r.v[2] = hi0 ^ c.v[3] ^ k.v[1];
  r.v[3] = lo0;
  return r;
}
}  // namespace philox_detail

/// The Philox4x32 bijection with 10 rounds (Random123's philox4x32_R(10, ctr, key)).
MBS_HD_INLINE Philox4x32Block Philox4x32_10(Philox4x32Block counter, Philox4x32Key key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key.v[0] += philox_detail::kW0;
      key.v[1] += philox_detail::kW1;
    }
    counter = philox_detail::Round(counter, key);
  }
  return counter;
}

/// A deterministic, counter-based random stream.
///
/// Block i of stream (seed, stream) is Philox4x32_10(counter, key) with
///   key     = {seed low word, seed high word},
///   counter = {i low word, i high word, stream low word, stream high word},
/// and the stream returns the four words of block 0, then block 1, ... Two streams with the
/// same seed and different stream ids (e.g. individual index and generation) never share a
/// block; the numbers do not depend on thread scheduling. Uniform doubles are
/// bit-identical on host and device; Normal() uses log/sqrt/sin/cos, whose last bits may
/// differ between the host libm and the CUDA math library.
class PhiloxStream {
 public:
  /// Stream `stream` of the generator keyed by `seed`.
  MBS_HD_INLINE PhiloxStream(std::uint64_t seed, std::uint64_t stream)
      : key_{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
        stream_{stream} {}
  /// Stream (stream0, stream1), e.g. (individual index, generation): the same as
  /// PhiloxStream(seed, stream0 | (uint64_t(stream1) << 32)).
  MBS_HD_INLINE PhiloxStream(std::uint64_t seed, std::uint32_t stream0, std::uint32_t stream1)
      : PhiloxStream(seed, static_cast<std::uint64_t>(stream0) | (static_cast<std::uint64_t>(stream1) << 32)) {}

  /// The raw block `block` of this stream (random access; does not change the stream).
  MBS_HD_INLINE Philox4x32Block Block(std::uint64_t block) const {
    Philox4x32Block c;
    c.v[0] = static_cast<std::uint32_t>(block);
    c.v[1] = static_cast<std::uint32_t>(block >> 32);
    c.v[2] = static_cast<std::uint32_t>(stream_);
    c.v[3] = static_cast<std::uint32_t>(stream_ >> 32);
    return Philox4x32_10(c, key_);
  }

  /// The next 32-bit word (words 0..3 of block 0, then of block 1, ...).
  MBS_HD_INLINE std::uint32_t NextUInt32() {
    if (used_ == 4) {
      buffer_ = Block(nextBlock_++);
      used_ = 0;
    }
    return buffer_.v[used_++];
  }

  /// The next 64-bit value: (first word << 32) | second word.
  MBS_HD_INLINE std::uint64_t NextUInt64() {
    const std::uint64_t hi = NextUInt32();
    const std::uint64_t lo = NextUInt32();
    return (hi << 32) | lo;
  }

  /// A uniform double in [0, 1) with 53 random bits: (NextUInt64() >> 11) * 2^-53.
  MBS_HD_INLINE double Uniform() {
    return static_cast<double>(NextUInt64() >> 11) * (1.0 / 9007199254740992.0);
  }

  /// A uniform double in [low, high): low + (high-low)*Uniform().
  MBS_HD_INLINE double Uniform(double low, double high) { return low + (high - low) * Uniform(); }

  /// A standard normal variate (Box-Muller; the second value of each pair is cached).
  MBS_HD_INLINE double Normal() {
    if (hasCached_) {
      hasCached_ = false;
      return cached_;
    }
    const double u1 = 1.0 - Uniform();  // (0, 1]: log(u1) is finite
    const double u2 = Uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double theta = 6.283185307179586476925286766559 * u2;
    cached_ = r * std::sin(theta);
    hasCached_ = true;
    return r * std::cos(theta);
  }

  /// A normal variate with mean `mean` and standard deviation `sigma`.
  MBS_HD_INLINE double Normal(double mean, double sigma) { return mean + sigma * Normal(); }

  /// Index of the next block to be generated (how many blocks were consumed).
  MBS_HD_INLINE std::uint64_t BlocksUsed() const { return nextBlock_; }

 private:
  Philox4x32Key key_;
  std::uint64_t stream_;
  std::uint64_t nextBlock_ = 0;
  Philox4x32Block buffer_{{0u, 0u, 0u, 0u}};
  int used_ = 4;  // words of buffer_ already returned (4: buffer empty)
  bool hasCached_ = false;
  double cached_ = 0.0;
};

}  // namespace mbsweep
