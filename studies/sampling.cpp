#include "studies/sampling.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <set>

#include "common/rules.h"

namespace mbsweep {

namespace {

std::string Real(double v) { return FormatReal(v); }

/// Unbiased integer in [0, bound] from raw 64-bit outputs (rejection sampling).
std::uint64_t UniformInteger(std::mt19937_64& rng, std::uint64_t bound) {
  if (bound == std::numeric_limits<std::uint64_t>::max()) return rng();
  const std::uint64_t range = bound + 1;
  const std::uint64_t rejectBelow = (0 - range) % range;  // 2^64 mod range
  std::uint64_t x;
  do x = rng();
  while (x < rejectBelow);
  return x % range;
}

/// Uniform double in [0,1) with 53 random bits.
double UniformDouble(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1p-53; }

void CheckCount(std::size_t n, const char* what) {
  if (n == 0) throw ValidationError(std::string(what) + ": n = 0 violates PInt (must be an integer > 0)");
}

void CheckDim(std::size_t dim, const char* what) {
  if (dim == 0) throw ValidationError(std::string(what) + ": dimension = 0 violates PInt (must be an integer > 0)");
}

}  // namespace

void ValidateBounds(const std::vector<ParameterBounds>& bounds) {
  std::set<std::string> seen;
  for (std::size_t k = 0; k < bounds.size(); ++k) {
    const ParameterBounds& b = bounds[k];
    if (b.name.empty()) throw ValidationError("parameter " + std::to_string(k) + ": empty name");
    if (!seen.insert(b.name).second)
      throw ValidationError("parameter '" + b.name + "': duplicate name (parameter " + std::to_string(k) + ")");
    if (!std::isfinite(b.lower))
      throw ValidationError("parameter '" + b.name + "': lower = " + Real(b.lower) + " violates Real (must be finite)");
    if (!std::isfinite(b.upper))
      throw ValidationError("parameter '" + b.name + "': upper = " + Real(b.upper) + " violates Real (must be finite)");
    if (b.lower > b.upper)
      throw ValidationError("parameter '" + b.name + "': lower = " + Real(b.lower) +
                            " violates lower <= upper (upper = " + Real(b.upper) + ")");
  }
}

std::vector<double> Design::Row(std::size_t i) const {
  const std::size_t d = names.size();
  return std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(i * d),
                             values.begin() + static_cast<std::ptrdiff_t>((i + 1) * d));
}

std::vector<double> ScaleToBounds(const std::vector<double>& unit, const std::vector<ParameterBounds>& bounds) {
  const std::size_t d = bounds.size();
  if (d == 0) return {};
  std::vector<double> out(unit.size());
  for (std::size_t i = 0; i < unit.size(); ++i) {
    const ParameterBounds& b = bounds[i % d];
    out[i] = b.lower + unit[i] * (b.upper - b.lower);
  }
  return out;
}

// ----------------------------------------------------------------------------------------
// Latin hypercube, uniform
// ----------------------------------------------------------------------------------------

std::vector<double> LatinHypercubeUnit(std::size_t n, std::size_t dim, std::uint64_t seed) {
  CheckCount(n, "Latin hypercube");
  CheckDim(dim, "Latin hypercube");
  std::mt19937_64 rng(seed);
  std::vector<double> out(n * dim);
  std::vector<std::size_t> perm(n);
  const double dn = static_cast<double>(n);
  for (std::size_t k = 0; k < dim; ++k) {
    for (std::size_t i = 0; i < n; ++i) perm[i] = i;
    for (std::size_t j = n - 1; j > 0; --j) std::swap(perm[j], perm[static_cast<std::size_t>(UniformInteger(rng, j))]);
    for (std::size_t i = 0; i < n; ++i) {
      const double p = static_cast<double>(perm[i]);
      const double lo = p / dn, hi = (p + 1) / dn;
      double u = (p + UniformDouble(rng)) / dn;
      if (u < lo) u = lo;
      if (u >= hi) u = std::nextafter(hi, 0.0);
      out[i * dim + k] = u;
    }
  }
  return out;
}

std::vector<double> UniformUnit(std::size_t n, std::size_t dim, std::uint64_t seed) {
  CheckCount(n, "uniform design");
  CheckDim(dim, "uniform design");
  std::mt19937_64 rng(seed);
  std::vector<double> out(n * dim);
  for (double& u : out) u = UniformDouble(rng);
  return out;
}

// ----------------------------------------------------------------------------------------
// Sobol
// ----------------------------------------------------------------------------------------

namespace {

struct JoeKuoRow {
  int s;           ///< degree of the primitive polynomial
  unsigned a;      ///< its inner coefficients
  unsigned m[9];   ///< initial direction numbers m_1..m_s
};

// S. Joe and F. Y. Kuo, "Constructing Sobol sequences with better two-dimensional
// projections", SIAM J. Sci. Comput. 30 (2008) 2635-2654; table "new-joe-kuo-6.21201"
// (https://web.maths.unsw.edu.au/~fkuo/sobol/), rows d = 2..64 as {s, a, {m_1..m_s}}.
// Dimension 1 (all m_i = 1) is implicit. Rows 2..32 were checked against a public copy of
// the table found with the code search, rows 2..64 against the copy shipped with scipy 1.17
// (scipy/stats/_sobol_direction_numbers.npz).
constexpr JoeKuoRow kJoeKuo[] = {
    {1, 0, {1}},  // d=2
    {2, 1, {1, 3}},  // d=3
    {3, 1, {1, 3, 1}},  // d=4
    {3, 2, {1, 1, 1}},  // d=5
    {4, 1, {1, 1, 3, 3}},  // d=6
    {4, 4, {1, 3, 5, 13}},  // d=7
    {5, 2, {1, 1, 5, 5, 17}},  // d=8
    {5, 4, {1, 1, 5, 5, 5}},  // d=9
    {5, 7, {1, 1, 7, 11, 19}},  // d=10
    {5, 11, {1, 1, 5, 1, 1}},  // d=11
    {5, 13, {1, 1, 1, 3, 11}},  // d=12
    {5, 14, {1, 3, 5, 5, 31}},  // d=13
    {6, 1, {1, 3, 3, 9, 7, 49}},  // d=14
    {6, 13, {1, 1, 1, 15, 21, 21}},  // d=15
    {6, 16, {1, 3, 1, 13, 27, 49}},  // d=16
    {6, 19, {1, 1, 1, 15, 7, 5}},  // d=17
    {6, 22, {1, 3, 1, 15, 13, 25}},  // d=18
    {6, 25, {1, 1, 5, 5, 19, 61}},  // d=19
    {7, 1, {1, 3, 7, 11, 23, 15, 103}},  // d=20
    {7, 4, {1, 3, 7, 13, 13, 15, 69}},  // d=21
    {7, 7, {1, 1, 3, 13, 7, 35, 63}},  // d=22
    {7, 8, {1, 3, 5, 9, 1, 25, 53}},  // d=23
    {7, 14, {1, 3, 1, 13, 9, 35, 107}},  // d=24
    {7, 19, {1, 3, 1, 5, 27, 61, 31}},  // d=25
    {7, 21, {1, 1, 5, 11, 19, 41, 61}},  // d=26
    {7, 28, {1, 3, 5, 3, 3, 13, 69}},  // d=27
    {7, 31, {1, 1, 7, 13, 1, 19, 1}},  // d=28
    {7, 32, {1, 3, 7, 5, 13, 19, 59}},  // d=29
    {7, 37, {1, 1, 3, 9, 25, 29, 41}},  // d=30
    {7, 41, {1, 3, 5, 13, 23, 1, 55}},  // d=31
    {7, 42, {1, 3, 7, 3, 13, 59, 17}},  // d=32
    {7, 50, {1, 3, 1, 3, 5, 53, 69}},  // d=33
    {7, 55, {1, 1, 5, 5, 23, 33, 13}},  // d=34
    {7, 56, {1, 1, 7, 7, 1, 61, 123}},  // d=35
    {7, 59, {1, 1, 7, 9, 13, 61, 49}},  // d=36
    {7, 62, {1, 3, 3, 5, 3, 55, 33}},  // d=37
    {8, 14, {1, 3, 1, 15, 31, 13, 49, 245}},  // d=38
    {8, 21, {1, 3, 5, 15, 31, 59, 63, 97}},  // d=39
    {8, 22, {1, 3, 1, 11, 11, 11, 77, 249}},  // d=40
    {8, 38, {1, 3, 1, 11, 27, 43, 71, 9}},  // d=41
    {8, 47, {1, 1, 7, 15, 21, 11, 81, 45}},  // d=42
    {8, 49, {1, 3, 7, 3, 25, 31, 65, 79}},  // d=43
    {8, 50, {1, 3, 1, 1, 19, 11, 3, 205}},  // d=44
    {8, 52, {1, 1, 5, 9, 19, 21, 29, 157}},  // d=45
    {8, 56, {1, 3, 7, 11, 1, 33, 89, 185}},  // d=46
    {8, 67, {1, 3, 3, 3, 15, 9, 79, 71}},  // d=47
    {8, 70, {1, 3, 7, 11, 15, 39, 119, 27}},  // d=48
    {8, 84, {1, 1, 3, 1, 11, 31, 97, 225}},  // d=49
    {8, 97, {1, 1, 1, 3, 23, 43, 57, 177}},  // d=50
    {8, 103, {1, 3, 7, 7, 17, 17, 37, 71}},  // d=51
    {8, 115, {1, 3, 1, 5, 27, 63, 123, 213}},  // d=52
    {8, 122, {1, 1, 3, 5, 11, 43, 53, 133}},  // d=53
    {9, 8, {1, 3, 5, 5, 29, 17, 47, 173, 479}},  // d=54
    {9, 13, {1, 3, 3, 11, 3, 1, 109, 9, 69}},  // d=55
    {9, 16, {1, 1, 1, 5, 17, 39, 23, 5, 343}},  // d=56
    {9, 22, {1, 3, 1, 5, 25, 15, 31, 103, 499}},  // d=57
    {9, 25, {1, 1, 1, 11, 11, 17, 63, 105, 183}},  // d=58
    {9, 44, {1, 1, 5, 11, 9, 29, 97, 231, 363}},  // d=59
    {9, 47, {1, 1, 5, 15, 19, 45, 41, 7, 383}},  // d=60
    {9, 52, {1, 3, 7, 7, 31, 19, 83, 137, 221}},  // d=61
    {9, 55, {1, 1, 1, 3, 23, 15, 111, 223, 83}},  // d=62
    {9, 59, {1, 1, 5, 13, 31, 15, 55, 25, 161}},  // d=63
    {9, 62, {1, 1, 3, 13, 25, 47, 39, 87, 257}},  // d=64
};
static_assert(sizeof(kJoeKuo) / sizeof(kJoeKuo[0]) + 1 == SobolSequence::kMaxDimension,
              "one Joe-Kuo row per dimension after the first");

int Parity(std::uint64_t x) { return __builtin_parityll(x); }

}  // namespace

const char* SobolScrambleName(SobolScramble s) {
  switch (s) {
    case SobolScramble::None: return "none";
    case SobolScramble::DigitalShift: return "shift";
    case SobolScramble::LinearMatrix: return "lms";
  }
  return "?";
}

SobolScramble ParseSobolScramble(const std::string& name) {
  for (SobolScramble s : {SobolScramble::None, SobolScramble::DigitalShift, SobolScramble::LinearMatrix})
    if (name == SobolScrambleName(s)) return s;
  throw ValidationError("unknown Sobol scrambling '" + name + "'; valid: none, shift, lms");
}

SobolSequence::SobolSequence(std::size_t dim, SobolScramble scramble, std::uint64_t seed)
    : dim_(dim), scramble_(scramble) {
  if (dim == 0 || dim > kMaxDimension)
    throw ValidationError("Sobol sequence: dimension = " + std::to_string(dim) + " violates 1 <= dimension <= " +
                          std::to_string(kMaxDimension));
  constexpr int B = kBits;
  constexpr std::uint64_t kMask = (std::uint64_t(1) << B) - 1;
  v_.assign(dim * B, 0);
  for (std::size_t k = 0; k < dim; ++k) {
    std::uint64_t* v = &v_[k * B];
    if (k == 0) {
      for (int j = 0; j < B; ++j) v[j] = std::uint64_t(1) << (B - 1 - j);
      continue;
    }
    const JoeKuoRow& row = kJoeKuo[k - 1];
    const int s = row.s;
    for (int j = 0; j < B; ++j) {
      if (j < s) {
        v[j] = std::uint64_t(row.m[j]) << (B - 1 - j);
      } else {
        std::uint64_t x = v[j - s] ^ (v[j - s] >> s);
        for (int t = 1; t < s; ++t)
          if ((row.a >> (s - 1 - t)) & 1u) x ^= v[j - t];
        v[j] = x;
      }
    }
  }
  shift_.assign(dim, 0);
  if (scramble == SobolScramble::None) return;
  std::mt19937_64 rng(seed);
  for (std::size_t k = 0; k < dim; ++k) {
    std::uint64_t* v = &v_[k * B];
    if (scramble == SobolScramble::LinearMatrix) {
      // Row r (output digit r, bit position p = B-1-r) combines input digits 0..r: the
      // diagonal bit p plus random bits above p (lower triangular with unit diagonal).
      std::uint64_t rows[B];
      for (int r = 0; r < B; ++r) {
        const int p = B - 1 - r;
        const std::uint64_t above = kMask & ~((std::uint64_t(2) << p) - 1);
        rows[r] = (std::uint64_t(1) << p) | (rng() & above);
      }
      for (int j = 0; j < B; ++j) {
        std::uint64_t y = 0;
        for (int r = 0; r < B; ++r)
          if (Parity(rows[r] & v[j])) y |= std::uint64_t(1) << (B - 1 - r);
        v[j] = y;
      }
    }
    shift_[k] = rng() >> (64 - B);
  }
}

std::uint64_t SobolSequence::Integer(std::uint64_t index, std::size_t k) const {
  const std::uint64_t* v = &v_[k * kBits];
  std::uint64_t gray = index ^ (index >> 1);
  std::uint64_t x = shift_[k];
  for (int j = 0; gray != 0 && j < kBits; ++j, gray >>= 1)
    if (gray & 1u) x ^= v[j];
  return x;
}

void SobolSequence::Point(std::uint64_t index, double* out) const {
  if (index >> kBits)
    throw ValidationError("Sobol sequence: index = " + std::to_string(index) + " violates index < 2^53");
  for (std::size_t k = 0; k < dim_; ++k) out[k] = static_cast<double>(Integer(index, k)) * 0x1p-53;
}

std::vector<double> SobolSequence::Point(std::uint64_t index) const {
  std::vector<double> p(dim_);
  Point(index, p.data());
  return p;
}

std::string SobolCountWarning(std::size_t n) {
  if (n != 0 && (n & (n - 1)) == 0) return "";
  std::size_t lower = 1;
  while (lower <= n / 2) lower *= 2;
  return "Sobol design: n = " + std::to_string(n) +
         " is not a power of 2; the balance properties of Sobol points need n = 2^m (e.g. " +
         std::to_string(lower) + " or " + std::to_string(lower * 2) + ")";
}

// ----------------------------------------------------------------------------------------
// Designs over bounds
// ----------------------------------------------------------------------------------------

namespace {

Design MakeDesign(const std::vector<ParameterBounds>& bounds, std::size_t n, std::vector<double> unit) {
  Design d;
  for (const auto& b : bounds) d.names.push_back(b.name);
  d.count = n;
  d.values = ScaleToBounds(unit, bounds);
  return d;
}

}  // namespace

Design LatinHypercubeDesign(const std::vector<ParameterBounds>& bounds, std::size_t n, std::uint64_t seed) {
  ValidateBounds(bounds);
  return MakeDesign(bounds, n, LatinHypercubeUnit(n, bounds.size(), seed));
}

Design UniformDesign(const std::vector<ParameterBounds>& bounds, std::size_t n, std::uint64_t seed) {
  ValidateBounds(bounds);
  return MakeDesign(bounds, n, UniformUnit(n, bounds.size(), seed));
}

Design SobolDesign(const std::vector<ParameterBounds>& bounds, std::size_t n, std::uint64_t seed,
                   SobolScramble scramble, std::uint64_t first) {
  ValidateBounds(bounds);
  CheckCount(n, "Sobol design");
  CheckDim(bounds.size(), "Sobol design");
  if (first >> SobolSequence::kBits || n > (std::uint64_t(1) << SobolSequence::kBits) - first)
    throw ValidationError("Sobol design: points " + std::to_string(first) + ".." + std::to_string(first + n - 1) +
                          " violate index < 2^53");
  const SobolSequence seq(bounds.size(), scramble, seed);
  std::vector<double> unit(n * bounds.size());
  for (std::size_t i = 0; i < n; ++i) seq.Point(first + i, &unit[i * bounds.size()]);
  Design d = MakeDesign(bounds, n, std::move(unit));
  const std::string w = SobolCountWarning(n);
  if (!w.empty()) d.warnings.push_back(w);
  return d;
}

// ----------------------------------------------------------------------------------------
// CSV
// ----------------------------------------------------------------------------------------

namespace {

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> f;
  std::size_t start = 0;
  while (true) {
    const std::size_t c = line.find(',', start);
    f.push_back(Trim(line.substr(start, c == std::string::npos ? std::string::npos : c - start)));
    if (c == std::string::npos) break;
    start = c + 1;
  }
  return f;
}

}  // namespace

Design ReadDesignCsv(const std::string& path, const std::vector<std::string>& names) {
  const std::string where = "design file '" + path + "'";
  std::ifstream in(path);
  if (!in) throw ValidationError(where + ": cannot open the file for reading");
  std::vector<std::string> header;
  int headerLine = 0;
  std::vector<std::size_t> pick;  // file column of each output column
  Design d;
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    const std::string t = Trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::string at = path + ":" + std::to_string(lineNo);
    std::vector<std::string> fields = SplitCsv(t);
    if (header.empty()) {
      headerLine = lineNo;
      std::set<std::string> seen;
      for (std::size_t c = 0; c < fields.size(); ++c) {
        std::string name = fields[c];
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = Trim(name.substr(1, name.size() - 2));
        if (name.empty()) throw ValidationError(at + ": header column " + std::to_string(c + 1) + " has an empty name");
        if (!seen.insert(name).second) throw ValidationError(at + ": header has column '" + name + "' twice");
        header.push_back(name);
      }
      if (names.empty()) {
        for (std::size_t c = 0; c < header.size(); ++c) pick.push_back(c);
        d.names = header;
      } else {
        for (const std::string& n : names) {
          std::size_t c = 0;
          while (c < header.size() && header[c] != n) ++c;
          if (c == header.size()) {
            std::string all;
            for (const auto& h : header) all += (all.empty() ? "" : ", ") + h;
            throw ValidationError(at + ": no column named '" + n + "' in the header (columns: " + all + ")");
          }
          pick.push_back(c);
        }
        d.names = names;
      }
      continue;
    }
    if (fields.size() != header.size())
      throw ValidationError(at + ": " + std::to_string(fields.size()) + " fields, the header (line " +
                            std::to_string(headerLine) + ") has " + std::to_string(header.size()) + " columns");
    for (std::size_t c : pick) {
      const std::string& f = fields[c];
      char* end = nullptr;
      const double v = f.empty() ? 0.0 : std::strtod(f.c_str(), &end);
      if (f.empty() || end != f.c_str() + f.size() || !std::isfinite(v))
        throw ValidationError(at + ": column '" + header[c] + "' = '" + f + "' is not a finite number");
      d.values.push_back(v);
    }
    ++d.count;
  }
  if (in.bad()) throw ValidationError(where + ": read error after line " + std::to_string(lineNo));
  if (header.empty()) throw ValidationError(where + ": no header line (the file is empty or only comments)");
  if (d.count == 0) throw ValidationError(where + ": no data rows after the header (line " + std::to_string(headerLine) + ")");
  return d;
}

}  // namespace mbsweep
