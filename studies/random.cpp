/// @file random.cpp
/// NumpyRandomState: numpy's legacy RandomState (MT19937 + legacy distributions).
#include "studies/random.h"

#include <cmath>
#include <stdexcept>

namespace mbsweep {

namespace {

constexpr int kN = NumpyRandomState::kStateLength;
constexpr int kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfu;
constexpr std::uint32_t kUpperMask = 0x80000000u;
constexpr std::uint32_t kLowerMask = 0x7fffffffu;

/// a*b rounded to double, never fused with a following addition: numpy computes
/// `low + range*u`, `loc + scale*g` and `x1*x1 + x2*x2` with separately rounded products,
/// and a compiler allowed to contract (e.g. -ffp-contract=fast with FMA hardware) would
/// change the last bit. The volatile store forces the rounding.
inline double Product(double a, double b) {
  volatile double p = a * b;
  return p;
}

/// The smallest mask 2^k-1 >= max (numpy's gen_mask).
inline std::uint64_t GenMask(std::uint64_t max) {
  std::uint64_t mask = max;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  return mask;
}

}  // namespace

void NumpyRandomState::Seed(std::int64_t seed) {
  if (seed < 0 || seed > static_cast<std::int64_t>(0xffffffffLL)) {
    throw std::invalid_argument("NumpyRandomState::Seed: seed must be between 0 and 2**32 - 1");
  }
  // numpy's mt19937_seed (the reference init_genrand recurrence).
  std::uint32_t s = static_cast<std::uint32_t>(seed);
  for (int pos = 0; pos < kN; ++pos) {
    state_.key[pos] = s;
    s = 1812433253u * (s ^ (s >> 30)) + static_cast<std::uint32_t>(pos + 1);
  }
  state_.pos = kN;
  // RandomState.seed resets the cached Gaussian.
  state_.hasGauss = false;
  state_.gauss = 0.0;
}

void NumpyRandomState::SetState(const State& state) {
  if (state.pos < 0 || state.pos > kN) {
    throw std::invalid_argument("NumpyRandomState::SetState: pos must lie in [0, 624]");
  }
  state_ = state;
}

void NumpyRandomState::Regenerate() {
  auto& mt = state_.key;
  auto twist = [](std::uint32_t upper, std::uint32_t lower, std::uint32_t far) {
    const std::uint32_t y = (upper & kUpperMask) | (lower & kLowerMask);
    return far ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
  };
  int i = 0;
  for (; i < kN - kM; ++i) mt[i] = twist(mt[i], mt[i + 1], mt[i + kM]);
  for (; i < kN - 1; ++i) mt[i] = twist(mt[i], mt[i + 1], mt[i + kM - kN]);
  mt[kN - 1] = twist(mt[kN - 1], mt[0], mt[kM - 1]);
  state_.pos = 0;
}

std::uint32_t NumpyRandomState::NextUInt32() {
  if (state_.pos == kN) Regenerate();
  std::uint32_t y = state_.key[state_.pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

std::uint64_t NumpyRandomState::NextUInt64() {
  const std::uint64_t hi = NextUInt32();
  const std::uint64_t lo = NextUInt32();
  return (hi << 32) | lo;
}

double NumpyRandomState::RandomSample() {
  const std::uint32_t a = NextUInt32() >> 5;  // 27 bits
  const std::uint32_t b = NextUInt32() >> 6;  // 26 bits
  // a*2^26 + b is an exact 53-bit integer; the division by 2^53 is exact too.
  return (static_cast<double>(a) * 67108864.0 + static_cast<double>(b)) / 9007199254740992.0;
}

double NumpyRandomState::Uniform(double low, double high) {
  const double range = high - low;
  if (!std::isfinite(range)) {
    throw std::overflow_error("NumpyRandomState::Uniform: range exceeds valid bounds");
  }
  return low + Product(range, RandomSample());
}

std::int64_t NumpyRandomState::RandInt(std::int64_t low, std::int64_t high) {
  if (low >= high) {
    throw std::invalid_argument("NumpyRandomState::RandInt: low >= high");
  }
  // numpy works on the closed interval [low, high-1]: rng = high-1-low, off = low.
  const std::uint64_t rng = static_cast<std::uint64_t>(high) - 1u - static_cast<std::uint64_t>(low);
  const std::uint64_t off = static_cast<std::uint64_t>(low);
  if (rng == 0) return low;  // no random word is consumed
  std::uint64_t value;
  if (rng <= 0xffffffffu) {
    // Masked rejection on 32-bit words (rng = 2^32-1 takes the word as is).
    const std::uint32_t mask = static_cast<std::uint32_t>(GenMask(rng));
    const std::uint32_t rng32 = static_cast<std::uint32_t>(rng);
    std::uint32_t v;
    while ((v = (NextUInt32() & mask)) > rng32) {
    }
    value = v;
  } else if (rng == 0xffffffffffffffffULL) {
    value = NextUInt64();
  } else {
    const std::uint64_t mask = GenMask(rng);
    while ((value = (NextUInt64() & mask)) > rng) {
    }
  }
  return static_cast<std::int64_t>(off + value);
}

double NumpyRandomState::Gauss() {
  if (state_.hasGauss) {
    const double cached = state_.gauss;
    state_.hasGauss = false;
    state_.gauss = 0.0;
    return cached;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * RandomSample() - 1.0;  // 2u exact: no contraction issue
    x2 = 2.0 * RandomSample() - 1.0;
    r2 = Product(x1, x1) + Product(x2, x2);
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  state_.gauss = f * x1;
  state_.hasGauss = true;
  return f * x2;
}

double NumpyRandomState::Normal(double loc, double scale) {
  if (!std::isnan(scale) && std::signbit(scale)) {
    throw std::invalid_argument("NumpyRandomState::Normal: scale < 0");
  }
  return loc + Product(scale, Gauss());
}

}  // namespace mbsweep
