/// @file sampling.h
/// Seeded, reproducible sampling designs over box bounds: Latin hypercube, (scrambled) Sobol,
/// uniform random, and explicit point lists read from CSV files. Host only.
///
/// Random numbers: std::mt19937_64 seeded with the user's seed (its output sequence is fixed
/// by the C++ standard, so designs are identical on every platform and standard library).
/// Only its raw 64-bit outputs are used: uniform doubles are (x >> 11) * 2^-53 and bounded
/// integers use rejection sampling, never std::uniform_*_distribution or std::shuffle, whose
/// algorithms are implementation-defined. (studies/random.h's Philox stream did not exist
/// when this file was written; the draw order of every design is documented below, so a
/// switch would be a deliberate, visible change of the designs.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mbsweep {

/// Box bounds of one sampled parameter.
struct ParameterBounds {
  std::string name;
  double lower = 0.0;
  double upper = 1.0;
};

/// Throws ValidationError (naming parameter, field, value, rule) for an empty or duplicate
/// name, non-finite bounds or lower > upper.
void ValidateBounds(const std::vector<ParameterBounds>& bounds);

/// A set of sample points: values row-major, Count() x Dimension().
struct Design {
  std::vector<std::string> names;
  std::size_t count = 0;
  std::vector<double> values;
  std::vector<std::string> warnings;  ///< e.g. a Sobol count that is not a power of two

  std::size_t Dimension() const { return names.size(); }
  std::size_t Count() const { return count; }
  double At(std::size_t i, std::size_t k) const { return values[i * names.size() + k]; }
  std::vector<double> Row(std::size_t i) const;
};

/// Maps unit-cube values u (row-major, n x bounds.size()) to lower + u*(upper-lower).
std::vector<double> ScaleToBounds(const std::vector<double>& unit, const std::vector<ParameterBounds>& bounds);

// ----------------------------------------------------------------------------------------
// Unit-cube designs, [0,1)^dim, row-major n x dim
// ----------------------------------------------------------------------------------------

/// Latin hypercube: in each dimension k the n strata [j/n, (j+1)/n) (bounds computed as
/// doubles j/n) hold exactly one point each. Draw order: for k = 0..dim-1, first a random
/// permutation p_k of 0..n-1 (Fisher-Yates from the top, j = n-1..1, swapping j with a
/// uniform integer in [0, j]), then n uniforms U_i; point i gets (p_k(i) + U_i)/n, clamped
/// into its stratum. Throws ValidationError for n == 0 or dim == 0.
std::vector<double> LatinHypercubeUnit(std::size_t n, std::size_t dim, std::uint64_t seed);

/// Independent uniforms, drawn point by point (row-major order).
std::vector<double> UniformUnit(std::size_t n, std::size_t dim, std::uint64_t seed);

/// Scrambling of a Sobol sequence.
enum class SobolScramble {
  None,          ///< plain Sobol points (point 0 is the origin), equal to scipy's scramble=False
  DigitalShift,  ///< random digital shift: every point XOR one random 53-bit vector per dimension
  LinearMatrix,  ///< Matousek's linear matrix scrambling (random lower-triangular bit matrix
                 ///< with unit diagonal applied to the direction numbers) plus a digital
                 ///< shift, like scipy's scramble=True (different random numbers)
};

/// Name of a scrambling ("none", "shift", "lms") and its inverse (ValidationError if unknown).
const char* SobolScrambleName(SobolScramble s);
SobolScramble ParseSobolScramble(const std::string& name);

/// Sobol sequence with the direction numbers of Joe and Kuo (2008), file
/// "new-joe-kuo-6.21201", for up to kMaxDimension dimensions, in Gray-code order (point i
/// uses the bits of i ^ (i >> 1), as Joe and Kuo's and scipy's generators). Points are
/// 53-bit integers x, u = x * 2^-53 in [0,1). Random access: any index, any order.
/// Both scramblings keep the net property: for m <= 53 and any block of 2^m points starting
/// at a multiple of 2^m, each dyadic interval [j 2^-k, (j+1) 2^-k), k <= m, of every
/// coordinate holds exactly 2^(m-k) points.
class SobolSequence {
 public:
  static constexpr std::size_t kMaxDimension = 64;
  static constexpr int kBits = 53;

  /// Draw order for scrambling (mt19937_64(seed)): for each dimension k, LinearMatrix draws
  /// one 64-bit word per matrix row (row r = output digit r, most significant first), then
  /// every scrambling with a shift draws one 64-bit word for the shift (top 53 bits used).
  /// Throws ValidationError for dim == 0 or dim > kMaxDimension.
  explicit SobolSequence(std::size_t dim, SobolScramble scramble = SobolScramble::None, std::uint64_t seed = 0);

  std::size_t Dimension() const { return dim_; }
  SobolScramble Scramble() const { return scramble_; }
  /// The 53-bit integer coordinate k of point `index` (index < 2^53).
  std::uint64_t Integer(std::uint64_t index, std::size_t k) const;
  /// Point `index` in [0,1)^dim.
  void Point(std::uint64_t index, double* out) const;
  std::vector<double> Point(std::uint64_t index) const;

 private:
  std::size_t dim_;
  SobolScramble scramble_;
  std::vector<std::uint64_t> v_;      ///< direction numbers, dim x kBits (bit k for index bit k)
  std::vector<std::uint64_t> shift_;  ///< per dimension
};

/// Warning text if n is not a power of two (Sobol balance needs n = 2^m), else "".
std::string SobolCountWarning(std::size_t n);

// ----------------------------------------------------------------------------------------
// Designs over bounds
// ----------------------------------------------------------------------------------------

/// n Latin-hypercube points over the bounds (validated; ValidationError for n == 0).
Design LatinHypercubeDesign(const std::vector<ParameterBounds>& bounds, std::size_t n, std::uint64_t seed);
/// n uniform random points over the bounds.
Design UniformDesign(const std::vector<ParameterBounds>& bounds, std::size_t n, std::uint64_t seed);
/// Sobol points with indices first..first+n-1 over the bounds; adds SobolCountWarning(n) to
/// warnings if n is not a power of two.
Design SobolDesign(const std::vector<ParameterBounds>& bounds, std::size_t n, std::uint64_t seed,
                   SobolScramble scramble = SobolScramble::LinearMatrix, std::uint64_t first = 0);

/// Reads explicit points from a CSV file: the first line that is neither blank nor a '#'
/// comment is the header of parameter names (comma-separated, optionally double-quoted);
/// every further non-blank, non-comment line is one point with one finite number per column.
/// With `names` empty, all columns are returned in file order; otherwise exactly those
/// columns, in the order of `names` (other columns are ignored). Errors (ValidationError)
/// name the file and line: unreadable file, empty/duplicate column names, a missing column,
/// a wrong field count, a field that is not a finite number, no data rows.
Design ReadDesignCsv(const std::string& path, const std::vector<std::string>& names = {});

}  // namespace mbsweep
