#include "studies/grid.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <utility>

#include "common/rules.h"

namespace mbsweep {

// ----------------------------------------------------------------------------------------
// Python str()
// ----------------------------------------------------------------------------------------

std::string PyStr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // Shortest round-trip digits in scientific form, e.g. "-1.2345e+17", "0e+00".
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  const std::string s(buf, r.ptr);
  std::size_t pos = 0;
  std::string sign;
  if (s[0] == '-') {
    sign = "-";
    pos = 1;
  }
  const std::size_t ePos = s.find('e');
  std::string digits;
  for (std::size_t i = pos; i < ePos; ++i)
    if (s[i] != '.') digits += s[i];
  const int exp10 = std::atoi(s.c_str() + ePos + 1);
  // Python's float repr ('r' mode): scientific if decpt <= -4 or decpt > 16, where
  // decpt = exp10 + 1 is the position of the decimal point after the first digit.
  const int decpt = exp10 + 1;
  const int nd = static_cast<int>(digits.size());
  if (decpt <= -4 || decpt > 16) {
    std::string out = sign + digits.substr(0, 1);
    if (nd > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof(eb), "e%+03d", exp10);
    return out + eb;
  }
  if (decpt <= 0) return sign + "0." + std::string(static_cast<std::size_t>(-decpt), '0') + digits;
  if (decpt < nd) return sign + digits.substr(0, static_cast<std::size_t>(decpt)) + "." +
                         digits.substr(static_cast<std::size_t>(decpt));
  return sign + digits + std::string(static_cast<std::size_t>(decpt - nd), '0') + ".0";
}

std::string PyStr(long long v) { return std::to_string(v); }

std::string PyStr(const PyNumber& v) { return v.isInt ? PyStr(v.intValue) : PyStr(v.value); }

std::string PyStrList(const std::vector<double>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + PyStr(values[i]);
  return s + "]";
}

std::string PyStrList(const std::vector<PyNumber>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + PyStr(values[i]);
  return s + "]";
}

// ----------------------------------------------------------------------------------------
// numpy spacing
// ----------------------------------------------------------------------------------------

namespace {
// Product and sum rounded separately, as numpy does (no fused multiply-add, whatever the
// compiler's contraction setting): the product goes through a volatile.
double MulThenAdd(double a, double b, double c) {
  volatile double p = a * b;
  return p + c;
}
}  // namespace

double Spacing::At(long long i) const {
  const long long div = n - 1;
  const double delta = stop - start;
  if (div <= 0) return MulThenAdd(static_cast<double>(i), delta, start);
  if (i == div) return stop;
  const double step = delta / static_cast<double>(div);
  if (step == 0)  // numpy's special case for denormal steps (gh-5437)
    return MulThenAdd(static_cast<double>(i) / static_cast<double>(div), delta, start);
  return MulThenAdd(static_cast<double>(i), step, start);
}

std::vector<double> Linspace(double start, double stop, long long n) {
  if (n < 0)
    throw ValidationError("linspace: n = " + std::to_string(n) + " violates UInt (" +
                          RuleCondition(Rule::UInt) + ")");
  const Spacing s{start, stop, n};
  std::vector<double> y(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) y[static_cast<std::size_t>(i)] = s.At(i);
  return y;
}

std::vector<double> Logspace(double start, double stop, long long n) {
  std::vector<double> y = Linspace(start, stop, n);
  for (double& v : y) v = std::pow(10.0, v);
  return y;
}

// ----------------------------------------------------------------------------------------
// ParameterRange
// ----------------------------------------------------------------------------------------

ParameterRange ParameterRange::Tuple(std::string name, PyNumber begin, PyNumber end, double n) {
  ParameterRange r;
  r.name = std::move(name);
  r.kind = Kind::Tuple;
  r.begin = begin;
  r.end = end;
  r.count = n;
  return r;
}

ParameterRange ParameterRange::List(std::string name, std::vector<PyNumber> values) {
  ParameterRange r;
  r.name = std::move(name);
  r.kind = Kind::List;
  r.values = std::move(values);
  return r;
}

ParameterRange ParameterRange::List(std::string name, const std::vector<double>& values) {
  std::vector<PyNumber> v;
  v.reserve(values.size());
  for (double x : values) v.push_back(PyNumber::Float(x));
  return List(std::move(name), std::move(v));
}

namespace {
std::string CountStr(double n) {
  if (std::isfinite(n) && std::trunc(n) == n && std::fabs(n) < 9.2e18)
    return PyStr(static_cast<long long>(n));
  return PyStr(n);
}
}  // namespace

std::string ParameterRange::ToPythonString() const {
  if (kind == Kind::List) return PyStrList(values);
  return "(" + PyStr(begin) + ", " + PyStr(end) + ", " + CountStr(count) + ")";
}

namespace {

bool ParseIntToken(const std::string& t, long long& out) {
  if (t.empty()) return false;
  std::size_t i = (t[0] == '+' || t[0] == '-') ? 1 : 0;
  if (i == t.size()) return false;
  for (std::size_t j = i; j < t.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(t[j]))) return false;
  const char* first = t.data() + (t[0] == '+' ? 1 : 0);
  const auto r = std::from_chars(first, t.data() + t.size(), out);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

}  // namespace

ParameterRange ParseParameterRange(const std::string& name, const std::string& text) {
  const std::string t = Trim(text);
  const auto fail = [&](const std::string& why) {
    return ValidationError("parameter '" + name + "': range '" + text + "' " + why +
                           "; expected (begin, end, n) or [v0, v1, ...]");
  };
  if (t.size() < 2) throw fail("is not a tuple or list");
  const char open = t.front(), close = t.back();
  const bool isTuple = open == '(' && close == ')';
  const bool isList = open == '[' && close == ']';
  if (!isTuple && !isList) throw fail("is not a tuple or list");
  const std::string body = Trim(t.substr(1, t.size() - 2));
  std::vector<PyNumber> items;
  if (!body.empty()) {
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = body.find(',', start);
      const std::string tok = Trim(body.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (tok.empty()) {
        // Python allows one trailing comma: "(1, 2, 3,)" or "[1,]"
        if (comma == std::string::npos && !items.empty()) break;
        throw fail("has an empty entry");
      }
      long long iv = 0;
      if (ParseIntToken(tok, iv)) {
        items.push_back(PyNumber::Int(iv));
      } else {
        char* endp = nullptr;
        const double v = std::strtod(tok.c_str(), &endp);
        if (endp != tok.c_str() + tok.size()) throw fail("has an entry '" + tok + "' that is not a number");
        items.push_back(PyNumber::Float(v));
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (isList) return ParameterRange::List(name, std::move(items));
  if (items.size() != 3) throw fail("has " + std::to_string(items.size()) + " entries, a tuple needs 3");
  return ParameterRange::Tuple(name, items[0], items[1], items[2].value);
}

// ----------------------------------------------------------------------------------------
// ParameterGrid
// ----------------------------------------------------------------------------------------

namespace {

[[noreturn]] void Violation(const std::string& param, const std::string& field, const std::string& value,
                            const std::string& rule) {
  throw ValidationError("parameter '" + param + "': " + field + " = " + value + " violates " + rule);
}

std::string RuleText(Rule r) { return std::string(RuleName(r)) + " (" + RuleCondition(r) + ")"; }

}  // namespace

double ParameterGrid::Axis_::At(std::uint64_t i) const {
  if (!list.empty()) return list[static_cast<std::size_t>(i)];
  double v = spacing.At(static_cast<long long>(i));
  if (log) v = std::pow(10.0, v);
  return isInt ? std::trunc(v) : v;  // Python int() truncates toward zero
}

std::vector<double> ParameterGrid::Axis(std::size_t k) const {
  std::vector<double> v(static_cast<std::size_t>(axes_[k].Size()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = axes_[k].At(i);
  return v;
}

ParameterGrid::ParameterGrid(std::vector<ParameterRange> ranges, bool useLogSpace)
    : ranges_(std::move(ranges)), useLogSpace_(useLogSpace) {
  const std::size_t dim = ranges_.size();
  axes_.resize(dim);
  std::set<std::string> seen;
  for (std::size_t k = 0; k < dim; ++k) {
    const ParameterRange& r = ranges_[k];
    if (r.name.empty()) throw ValidationError("parameter " + std::to_string(k) + ": empty name");
    if (!seen.insert(r.name).second)
      throw ValidationError("parameter '" + r.name + "': duplicate name (parameter " + std::to_string(k) + ")");
    Axis_& axis = axes_[k];
    if (r.kind == ParameterRange::Kind::Tuple) {
      if (!SatisfiesRule(r.count, Rule::PInt) || r.count > 9.0e15)
        Violation(r.name, "n", PyStr(r.count), RuleText(Rule::PInt));
      if (!std::isfinite(r.begin.value)) Violation(r.name, "begin", PyStr(r.begin), RuleText(Rule::Real));
      if (!std::isfinite(r.end.value)) Violation(r.name, "end", PyStr(r.end), RuleText(Rule::Real));
      if (r.begin.value > r.end.value)
        Violation(r.name, "begin", PyStr(r.begin), "begin <= end (end = " + PyStr(r.end) + ")");
      const long long n = static_cast<long long>(r.count);
      if (useLogSpace) {
        if (!(r.begin.value > 0))
          Violation(r.name, "begin", PyStr(r.begin), RuleText(Rule::PReal) + " with log spacing");
        if (!(r.end.value > 0)) Violation(r.name, "end", PyStr(r.end), RuleText(Rule::PReal) + " with log spacing");
        axis.spacing = Spacing{std::log10(r.begin.value), std::log10(r.end.value), n};
        axis.log = true;
      } else {
        axis.spacing = Spacing{r.begin.value, r.end.value, n};
      }
      // Exudyn: int type if begin and end are ints and (end-begin+1)/n is integral (Python
      // divides the exact integers; up to 2^64, exact in a long double's 64-bit mantissa)
      if (r.begin.isInt && r.end.isInt) {
        const long double span = static_cast<long double>(r.end.intValue) - static_cast<long double>(r.begin.intValue) + 1;
        const double step = static_cast<double>(span / static_cast<long double>(r.count));
        axis.isInt = step == std::trunc(step);
      }
      // the results files print int values as int64: a value beyond would print another
      // number (the axis is monotone: its ends bound it)
      for (const std::uint64_t i : {std::uint64_t(0), static_cast<std::uint64_t>(n - 1)}) {
        const double v = axis.At(i);
        if (axis.isInt && !(v >= -0x1p63 && v < 0x1p63))
          Violation(r.name, "end", PyStr(r.end),
                    "the int64 range of int-type grid values, [-2^63, 2^63) (the grid reaches " + PyStr(v) + ")");
      }
    } else {
      if (r.values.empty())
        Violation(r.name, "list size", "0", RuleText(Rule::PInt) + "; an empty list gives no grid points");
      bool allInt = true;
      axis.list.reserve(r.values.size());
      for (std::size_t i = 0; i < r.values.size(); ++i) {
        if (!std::isfinite(r.values[i].value))
          Violation(r.name, "list[" + std::to_string(i) + "]", PyStr(r.values[i]), RuleText(Rule::Real));
        allInt = allInt && r.values[i].isInt;
        axis.list.push_back(r.values[i].value);
      }
      axis.isInt = allInt;
    }
  }
  strides_.assign(dim, 1);
  const std::uint64_t limit = std::uint64_t(1) << 63;
  size_ = 1;
  for (std::size_t kk = dim; kk-- > 0;) {
    strides_[kk] = size_;
    const std::uint64_t nk = axes_[kk].Size();
    if (size_ > limit / nk)
      throw ValidationError("parameter grid: more than 2^63 points (at parameter '" + ranges_[kk].name + "')");
    size_ *= nk;
  }
}

std::vector<std::string> ParameterGrid::Names() const {
  std::vector<std::string> names;
  names.reserve(ranges_.size());
  for (const auto& r : ranges_) names.push_back(r.name);
  return names;
}

void ParameterGrid::SubIndices(std::uint64_t flat, std::size_t* sub) const {
  for (std::size_t k = 0; k < axes_.size(); ++k) sub[k] = static_cast<std::size_t>((flat / strides_[k]) % axes_[k].Size());
}

std::vector<std::size_t> ParameterGrid::SubIndices(std::uint64_t flat) const {
  std::vector<std::size_t> sub(axes_.size());
  SubIndices(flat, sub.data());
  return sub;
}

std::uint64_t ParameterGrid::FlatIndex(const std::vector<std::size_t>& sub) const {
  if (sub.size() != axes_.size())
    throw ValidationError("parameter grid: " + std::to_string(sub.size()) + " sub-indices given, grid has " +
                          std::to_string(axes_.size()) + " parameters");
  std::uint64_t flat = 0;
  for (std::size_t k = 0; k < sub.size(); ++k) {
    if (sub[k] >= axes_[k].Size())
      throw ValidationError("parameter '" + ranges_[k].name + "': sub-index " + std::to_string(sub[k]) +
                            " out of range (n = " + std::to_string(axes_[k].Size()) + ")");
    flat += sub[k] * strides_[k];
  }
  return flat;
}

double ParameterGrid::Value(std::uint64_t flat, std::size_t k) const {
  return axes_[k].At((flat / strides_[k]) % axes_[k].Size());
}

void ParameterGrid::Point(std::uint64_t flat, double* out) const {
  for (std::size_t k = 0; k < axes_.size(); ++k) out[k] = Value(flat, k);
}

std::vector<double> ParameterGrid::Point(std::uint64_t flat) const {
  std::vector<double> p(axes_.size());
  Point(flat, p.data());
  return p;
}

std::vector<PyNumber> ParameterGrid::PyPoint(std::uint64_t flat) const {
  std::vector<PyNumber> p(axes_.size());
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    const double v = Value(flat, k);
    p[k] = axes_[k].isInt ? PyNumber::Int(static_cast<long long>(v)) : PyNumber::Float(v);
  }
  return p;
}

std::uint64_t ParameterGrid::ChunkCount(std::uint64_t chunkSize) const {
  if (chunkSize == 0) throw ValidationError("parameter grid: chunk size = 0 violates PInt (must be an integer > 0)");
  return size_ / chunkSize + (size_ % chunkSize ? 1 : 0);
}

GridChunk ParameterGrid::Chunk(std::uint64_t i, std::uint64_t chunkSize) const {
  const std::uint64_t count = ChunkCount(chunkSize);
  if (i >= count)
    throw ValidationError("parameter grid: chunk index " + std::to_string(i) + " out of range (" +
                          std::to_string(count) + " chunks of " + std::to_string(chunkSize) + ")");
  GridChunk c;
  const std::uint64_t begin = i * chunkSize;
  const std::uint64_t end = size_ - begin < chunkSize ? size_ : begin + chunkSize;
  FillChunk(begin, end, c);
  return c;
}

void ParameterGrid::FillChunk(std::uint64_t begin, std::uint64_t end, GridChunk& chunk) const {
  if (begin > end || end > size_)
    throw ValidationError("parameter grid: point range [" + std::to_string(begin) + ", " + std::to_string(end) +
                          ") out of range (N = " + std::to_string(size_) + ")");
  const std::size_t dim = axes_.size();
  chunk.begin = begin;
  chunk.end = end;
  chunk.dim = dim;
  chunk.values.resize(static_cast<std::size_t>(end - begin) * dim);
  if (begin == end || dim == 0) return;
  std::vector<std::size_t> sub = SubIndices(begin);  // odometer, last index fastest
  double* out = chunk.values.data();
  for (std::uint64_t f = begin; f < end; ++f) {
    for (std::size_t k = 0; k < dim; ++k) *out++ = axes_[k].At(sub[k]);
    for (std::size_t k = dim; k-- > 0;) {
      if (++sub[k] < axes_[k].Size()) break;
      sub[k] = 0;
    }
  }
}

void ParameterGrid::ForEachChunk(std::uint64_t chunkSize, const std::function<void(const GridChunk&)>& fn) const {
  const std::uint64_t count = ChunkCount(chunkSize);
  GridChunk c;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t begin = i * chunkSize;
    const std::uint64_t end = size_ - begin < chunkSize ? size_ : begin + chunkSize;
    FillChunk(begin, end, c);
    fn(c);
  }
}

std::vector<std::vector<double>> ParameterGrid::Columns() const {
  std::vector<std::vector<double>> cols(axes_.size(), std::vector<double>(static_cast<std::size_t>(size_)));
  for (std::size_t k = 0; k < axes_.size(); ++k)
    for (std::uint64_t f = 0; f < size_; ++f) cols[k][static_cast<std::size_t>(f)] = Value(f, k);
  return cols;
}

}  // namespace mbsweep
