/// @file grid.h
/// Full tensor grids with the semantics of Exudyn's ParameterVariation
/// (exudyn.processing.ParameterVariation in Exudyn's main/pythonDev/exudyn/processing.py):
///  * a range is a tuple (begin, end, n), expanded with numpy.linspace(begin, end, n), or with
///    numpy.logspace(log10(begin), log10(end), n) when useLogSpace (which then applies to every
///    tuple), or an explicit list of values;
///  * the grid is the full tensor product with the FIRST parameter varying slowest (Exudyn's
///    np.kron expansion); flat index -> sub-indices with the last index fastest (Exudyn's
///    SingleIndex2SubIndices); the computation index of a point is its flat index;
///  * Exudyn's integer quirk: a tuple is "int type" if begin and end are Python ints and
///    (end-begin+1)/n is integral; a list is int type if all entries are Python ints; values of
///    int-type parameters are truncated with int() (so (0,9,5) gives [0,2,4,6,9]), all others
///    are floats.
/// The grid is never materialized: only the per-parameter axes are stored and points are
/// produced on demand, one by one or in chunks of at most C points. Host only.
///
/// Also here: Python-compatible numbers (int or float) and Python's str() of them, shared by
/// the results file (results_file.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mbsweep {

// ----------------------------------------------------------------------------------------
// Python numbers and str()
// ----------------------------------------------------------------------------------------

/// A number as Python sees it: an int or a float. Ints are held exactly in intValue (and as a
/// double in value); Exudyn's integer quirk and the results file's formatting depend on it.
struct PyNumber {
  double value = 0.0;
  bool isInt = false;
  long long intValue = 0;  ///< exact value if isInt

  static PyNumber Int(long long v) { return PyNumber{static_cast<double>(v), true, v}; }
  static PyNumber Float(double v) { return PyNumber{v, false, 0}; }
};

/// Python's str() (== repr()) of a float: shortest round-trip digits, fixed notation for
/// decimal exponents -4..15 with ".0" added to integral values, otherwise scientific with a
/// signed two-digit-minimum exponent: 0.1, 1e-05, 100.0, 1e+16, 1.2345678901234568e+17,
/// -0.0, nan, inf, -inf.
std::string PyStr(double v);
/// Python's str() of an int.
std::string PyStr(long long v);
/// str() of an int or float.
std::string PyStr(const PyNumber& v);
/// Python's str() of a list of floats: "[1.0, 2.5]"; of ints/floats: "[1, 2.5]".
std::string PyStrList(const std::vector<double>& values);
std::string PyStrList(const std::vector<PyNumber>& values);

// ----------------------------------------------------------------------------------------
// numpy spacing
// ----------------------------------------------------------------------------------------

/// numpy.linspace(start, stop, n) (endpoint=True), bit for bit: y[i] = i*step + start with
/// step = (stop-start)/(n-1) (for a zero step: (i/(n-1))*(stop-start) + start), y[n-1] = stop;
/// n == 1 gives [start]; n == 0 gives []. Throws ValidationError for n < 0.
std::vector<double> Linspace(double start, double stop, long long n);
/// Element i of numpy.linspace(start, stop, n), computed alone (the same value as in Linspace).
struct Spacing {
  double start = 0, stop = 0;
  long long n = 0;
  double At(long long i) const;
};
/// numpy.logspace(start, stop, n) = 10**linspace(start, stop, n), computed with std::pow
/// (the grid passes start = std::log10(begin), stop = std::log10(end), as Exudyn does with
/// np.log10). Bit-equal to numpy when numpy evaluates log10/power with the C library (its
/// baseline dispatch, e.g. NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR"); numpy's
/// AVX-512 SIMD log10/power differ by an ulp for some inputs, which Exudyn's int() truncation
/// can turn into a different integer (numpy on AVX-512: int(10**log10(17)) = 16; here 17).
std::vector<double> Logspace(double start, double stop, long long n);

// ----------------------------------------------------------------------------------------
// Parameter ranges and grids
// ----------------------------------------------------------------------------------------

/// One parameter of a ParameterVariation: a tuple (begin, end, n) or an explicit list.
struct ParameterRange {
  enum class Kind { Tuple, List };

  std::string name;
  Kind kind = Kind::Tuple;
  PyNumber begin, end;          ///< Tuple: range bounds (ints or floats, as given)
  double count = 0;             ///< Tuple: number of values n (must be an integer > 0)
  std::vector<PyNumber> values;  ///< List: explicit values

  /// (begin, end, n).
  static ParameterRange Tuple(std::string name, PyNumber begin, PyNumber end, double n);
  /// (begin, end, n) with float bounds (never int type).
  static ParameterRange Tuple(std::string name, double begin, double end, double n) {
    return Tuple(std::move(name), PyNumber::Float(begin), PyNumber::Float(end), n);
  }
  /// [v0, v1, ...].
  static ParameterRange List(std::string name, std::vector<PyNumber> values);
  /// [v0, v1, ...] of floats.
  static ParameterRange List(std::string name, const std::vector<double>& values);

  /// Python's str() of the range as Exudyn writes it in the results-file header:
  /// "(1, 10, 2)", "(1.5, 1.7, 16)", "[1, 2.5]".
  std::string ToPythonString() const;
};

/// Parses a range written like Python's str() of a tuple or list of numbers: "(1, 10, 2)",
/// "(1e-3, 0.5, 8)", "[1, 2, 4.5]". Tokens without '.', 'e', 'E', "nan" or "inf" are ints.
/// Throws ValidationError naming the parameter and the text.
ParameterRange ParseParameterRange(const std::string& name, const std::string& text);

/// One chunk of grid points: flat indices [begin, end), values row-major (end-begin) x dim.
/// The computation index of row r is begin + r.
struct GridChunk {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::size_t dim = 0;
  std::vector<double> values;

  std::size_t Size() const { return static_cast<std::size_t>(end - begin); }
  double At(std::size_t row, std::size_t k) const { return values[row * dim + k]; }
  std::uint64_t ComputationIndex(std::size_t row) const { return begin + row; }
};

/// The tensor grid of a ParameterVariation. Stores only the axes (sum of n_k values).
class ParameterGrid {
 public:
  /// Validates and expands the ranges; throws ValidationError naming parameter, field, value
  /// and rule for: an empty or duplicate name, n not an integer > 0, begin > end, non-finite
  /// begin/end/list entries, begin or end <= 0 with useLogSpace, an empty list, or a grid
  /// with more than 2^63 points. No ranges at all gives one point with no parameters (as
  /// Exudyn's ParameterVariation with an empty dict).
  explicit ParameterGrid(std::vector<ParameterRange> ranges, bool useLogSpace = false);

  std::size_t Dimension() const { return ranges_.size(); }
  /// Number of grid points N = product of the n_k.
  std::uint64_t Size() const { return size_; }
  bool UseLogSpace() const { return useLogSpace_; }
  const std::vector<ParameterRange>& Ranges() const { return ranges_; }
  std::vector<std::string> Names() const;
  /// Values of parameter k (after Exudyn's int()/float() cast), length n_k (materialized;
  /// the grid itself computes a range's values when they are needed).
  std::vector<double> Axis(std::size_t k) const;
  /// True if parameter k is Exudyn "int type" (its values are Python ints).
  bool IsIntType(std::size_t k) const { return axes_[k].isInt; }

  /// Sub-indices of a flat index, last index fastest (Exudyn's SingleIndex2SubIndices).
  void SubIndices(std::uint64_t flat, std::size_t* sub) const;
  std::vector<std::size_t> SubIndices(std::uint64_t flat) const;
  /// Inverse of SubIndices.
  std::uint64_t FlatIndex(const std::vector<std::size_t>& sub) const;

  /// Value of parameter k at grid point `flat`.
  double Value(std::uint64_t flat, std::size_t k) const;
  /// All parameter values of grid point `flat` (out has Dimension() entries).
  void Point(std::uint64_t flat, double* out) const;
  std::vector<double> Point(std::uint64_t flat) const;
  /// The point as Python numbers (ints for int-type parameters), as in the results file.
  std::vector<PyNumber> PyPoint(std::uint64_t flat) const;

  /// Number of chunks of at most chunkSize points (chunkSize > 0).
  std::uint64_t ChunkCount(std::uint64_t chunkSize) const;
  /// Chunk i: points [i*C, min((i+1)*C, N)). Throws ValidationError for C == 0 or i out of
  /// range.
  GridChunk Chunk(std::uint64_t i, std::uint64_t chunkSize) const;
  /// Fills `chunk` (reusing its storage) with points [begin, end).
  void FillChunk(std::uint64_t begin, std::uint64_t end, GridChunk& chunk) const;
  /// Calls fn for every chunk in order, reusing one buffer (memory O(C*dim)).
  void ForEachChunk(std::uint64_t chunkSize, const std::function<void(const GridChunk&)>& fn) const;

  /// The whole grid as columns, like the parameterDict returned by ParameterVariation
  /// (without computationIndex). Materializes N*dim values.
  std::vector<std::vector<double>> Columns() const;

 private:
  /// One parameter's values: a list, or a (begin, end, n) range computed on demand (a range of
  /// 1e9 values costs no memory).
  struct Axis_ {
    std::vector<double> list;  ///< list ranges
    Spacing spacing;           ///< tuple ranges (list empty): linspace, or its exponents with log
    bool log = false;
    bool isInt = false;
    std::uint64_t Size() const { return list.empty() ? static_cast<std::uint64_t>(spacing.n) : list.size(); }
    double At(std::uint64_t i) const;
  };
  std::vector<ParameterRange> ranges_;
  bool useLogSpace_ = false;
  std::vector<Axis_> axes_;
  std::vector<std::uint64_t> strides_;  ///< product of later sizes
  std::uint64_t size_ = 1;
};

}  // namespace mbsweep
