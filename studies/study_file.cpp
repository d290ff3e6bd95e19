// Model and study files (YAML): reader, validation with file:line:column positions, and
// the mapping of a file's parameters and expressions onto theta rows.
#include "studies/study_file.h"

#include <muParser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <type_traits>
#include <utility>
#include <variant>

#include "common/parameters.h"
#include "common/rules.h"

namespace mbsweep {

// ----------------------------------------------------------------------------------------
// Public small types
// ----------------------------------------------------------------------------------------

std::string FilePosition::ToString() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

namespace {
std::string WithPosition(const FilePosition& where, const std::string& message) {
  const std::string p = where.ToString();
  return p.empty() ? message : p + ": " + message;
}
}  // namespace

StudyFileError::StudyFileError(const FilePosition& where, const std::string& message)
    : std::runtime_error(WithPosition(where, message)), where_(where), message_(message) {}

const char* StudyTypeName(StudyType t) {
  switch (t) {
    case StudyType::None: return "None";
    case StudyType::ParameterVariation: return "ParameterVariation";
    case StudyType::Sampling: return "Sampling";
    case StudyType::GeneticOptimization: return "GeneticOptimization";
    case StudyType::Sensitivity: return "Sensitivity";
    case StudyType::Identification: return "Identification";
  }
  return "?";
}

std::vector<std::string> StudySpec::ParameterNames() const {
  std::vector<std::string> names;
  switch (type) {
    case StudyType::None: break;
    case StudyType::ParameterVariation:
      for (const auto& r : ranges) names.push_back(r.name);
      break;
    case StudyType::Sampling:
      for (const auto& b : bounds) names.push_back(b.name);
      break;
    case StudyType::GeneticOptimization:
    case StudyType::Identification:
      for (const auto& g : geneticParameters) names.push_back(g.name);
      break;
    case StudyType::Sensitivity:
      for (const auto& s : sensitivityParameters) names.push_back(s.name);
      break;
  }
  return names;
}

namespace {

// ----------------------------------------------------------------------------------------
// Names and suggestions
// ----------------------------------------------------------------------------------------

/// The candidate closest to `word` by edit distance (first of equals); empty if none.
std::string Closest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestD = std::numeric_limits<size_t>::max();
  for (const auto& c : candidates) {
    const size_t d = EditDistance(word, c);
    if (d < bestD) bestD = d, best = c;
  }
  return best;
}

std::string JoinNames(const std::vector<std::string>& names);

/// "; did you mean 'x'?" for the closest candidate when it is close (edit distance at most
/// max(2, |word|/3)); otherwise, with `listIfFar`, "; valid: a, b, c" (nothing if there are no
/// candidates).
/// True if `candidate` is close enough to `word` to be suggested for it.
bool IsClose(const std::string& word, const std::string& candidate) {
  return !candidate.empty() && EditDistance(word, candidate) <= std::max<size_t>(2, word.size() / 3);
}

std::string Suggestion(const std::string& word, const std::vector<std::string>& candidates, bool listIfFar = true) {
  const std::string c = Closest(word, candidates);
  if (c.empty()) return "";
  if (IsClose(word, c)) return "; did you mean '" + c + "'?";
  return listIfFar ? "; valid: " + JoinNames(candidates) : "";
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s.empty() ? "none" : s;
}

bool IsIdentifier(const std::string& n) {
  if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

/// Name of the map parameter that binds a theta path directly.
std::string MangledPath(const std::string& path) {
  std::string s = path;
  for (char& c : s)
    if (c == '.' || c == '[' || c == ']') c = '_';
  return s;
}

std::string ResolvePath(const std::string& directory, const std::string& p) {
  if (p.empty() || directory.empty() || directory == ".") return p;
  const std::filesystem::path fp(p);
  if (fp.is_absolute()) return p;
  return (std::filesystem::path(directory) / fp).string();
}

// ----------------------------------------------------------------------------------------
// Scalars
// ----------------------------------------------------------------------------------------

/// Parses a decimal number (also YAML's .inf/.nan and Python's inf/nan); no hex.
bool ParseNumber(const std::string& text, double& out) {
  const std::string s = Trim(text);
  if (s.empty()) return false;
  std::string low;
  for (char c : s) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (low == ".inf" || low == "+.inf" || low == "inf" || low == "+inf") return out = HUGE_VAL, true;
  if (low == "-.inf" || low == "-inf") return out = -HUGE_VAL, true;
  if (low == ".nan" || low == "nan") return out = std::numeric_limits<double>::quiet_NaN(), true;
  if (low.find('x') != std::string::npos || low.find("inf") != std::string::npos || low.find("nan") != std::string::npos)
    return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

/// A YAML number as Python reads it: an int if written without '.', 'e', 'E', nan or inf.
bool ParsePyNumber(const std::string& text, PyNumber& out) {
  double v = 0;
  if (!ParseNumber(text, v)) return false;
  const std::string s = Trim(text);
  std::string low;
  for (char c : s) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool isInt = low.find_first_of(".e") == std::string::npos && low.find("inf") == std::string::npos &&
                     low.find("nan") == std::string::npos;
  if (isInt) {
    errno = 0;
    char* end = nullptr;
    const long long i = std::strtoll(s.c_str(), &end, 10);
    if (errno == 0 && end == s.c_str() + s.size()) {
      out = PyNumber::Int(i);
      return true;
    }
  }
  out = PyNumber::Float(v);
  return true;
}

const char* KindOfNode(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "nothing";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a map";
  return "a scalar";
}

/// What a node holds, for "got ..." in messages.
std::string Got(const YAML::Node& n) {
  if (n.IsDefined() && n.IsScalar()) return "'" + n.Scalar() + "'";
  return KindOfNode(n);
}

// ----------------------------------------------------------------------------------------
// Reader: positions and typed values
// ----------------------------------------------------------------------------------------

/// One key of a map with its value.
struct Entry {
  std::string key;
  YAML::Node keyNode;
  YAML::Node value;
};

/// The entries of a YAML map, checked for unknown and duplicate keys.
struct Section {
  YAML::Node node;
  std::vector<Entry> entries;
  const Entry* Find(const std::string& key) const {
    for (const auto& e : entries)
      if (e.key == key) return &e;
    return nullptr;
  }
};

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}
  const std::string& File() const { return file_; }

  FilePosition Pos(const YAML::Node& n) const {
    FilePosition p;
    p.file = file_;
    if (!n.IsDefined()) return p;
    const YAML::Mark m = n.Mark();
    if (m.is_null() || m.line < 0) return p;
    p.line = m.line + 1;
    p.column = m.column + 1;
    return p;
  }
  [[noreturn]] void Fail(const YAML::Node& n, const std::string& msg) const { throw StudyFileError(Pos(n), msg); }

  /// Reads a map (null counts as empty). `valid` lists the allowed keys (empty: any key);
  /// `unknown(key)` phrases the error for a key not in `valid`.
  Section Map(const YAML::Node& n, const std::string& what, const std::vector<std::string>& valid,
              const std::function<std::string(const std::string&)>& unknown = {}) const {
    Section s;
    s.node = n;
    if (!n.IsDefined() || n.IsNull()) return s;
    if (!n.IsMap()) Fail(n, what + " must be a map (key: value), got " + Got(n));
    for (auto it = n.begin(); it != n.end(); ++it) {
      const YAML::Node k = it->first;
      if (!k.IsScalar()) Fail(k, what + ": keys must be names, got " + KindOfNode(k));
      const std::string key = k.Scalar();
      if (!valid.empty() && std::find(valid.begin(), valid.end(), key) == valid.end()) {
        const std::string msg = unknown ? unknown(key) : "unknown key '" + key + "' in " + what;
        Fail(k, msg + Suggestion(key, valid));
      }
      if (s.Find(key)) Fail(k, "duplicate key '" + key + "' in " + what);
      s.entries.push_back(Entry{key, k, it->second});
    }
    return s;
  }

  std::string String(const YAML::Node& n, const std::string& what) const {
    if (!n.IsDefined() || !n.IsScalar()) Fail(n, what + " expects a text, got " + KindOfNode(n));
    return n.Scalar();
  }
  double Number(const YAML::Node& n, const std::string& what) const {
    double v = 0;
    if (!n.IsDefined() || !n.IsScalar() || !ParseNumber(n.Scalar(), v))
      Fail(n, what + " expects a number, got " + Got(n));
    return v;
  }
  PyNumber PyNum(const YAML::Node& n, const std::string& what) const {
    PyNumber v;
    if (!n.IsDefined() || !n.IsScalar() || !ParsePyNumber(n.Scalar(), v))
      Fail(n, what + " expects a number, got " + Got(n));
    return v;
  }
  long long Integer(const YAML::Node& n, const std::string& what) const {
    double v = 0;
    if (!n.IsDefined() || !n.IsScalar() || !ParseNumber(n.Scalar(), v) || !std::isfinite(v) || std::floor(v) != v ||
        std::fabs(v) > 9.007199254740992e15)
      Fail(n, what + " expects an integer, got " + Got(n));
    const std::string s = Trim(n.Scalar());
    char* end = nullptr;
    errno = 0;
    const long long i = std::strtoll(s.c_str(), &end, 10);
    if (errno == 0 && end == s.c_str() + s.size()) return i;
    return static_cast<long long>(v);
  }
  int Int(const YAML::Node& n, const std::string& what) const {
    const long long v = Integer(n, what);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
      Fail(n, what + " = " + std::to_string(v) + " is out of range for an int");
    return static_cast<int>(v);
  }
  std::uint64_t UInt64(const YAML::Node& n, const std::string& what) const {
    const long long v = Integer(n, what);
    if (v < 0) Fail(n, what + " = " + std::to_string(v) + " violates UInt (must be an integer >= 0)");
    return static_cast<std::uint64_t>(v);
  }
  bool Bool(const YAML::Node& n, const std::string& what) const {
    if (n.IsDefined() && n.IsScalar()) {
      const std::string s = n.Scalar();
      if (s == "true" || s == "True" || s == "TRUE") return true;
      if (s == "false" || s == "False" || s == "FALSE") return false;
    }
    Fail(n, what + " expects true or false, got " + Got(n));
  }
  /// A name out of `names` (exact spelling); error with the closest name otherwise.
  size_t Choice(const YAML::Node& n, const std::string& what, const std::vector<std::string>& names) const {
    const std::string s = String(n, what);
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == s) return i;
    Fail(n, what + " = '" + s + "' is not one of: " + JoinNames(names) + Suggestion(s, names, false));
  }
  const YAML::Node& Sequence(const YAML::Node& n, const std::string& what) const {
    if (!n.IsDefined() || !n.IsSequence()) Fail(n, what + " expects a list, got " + Got(n));
    return n;
  }

 private:
  std::string file_;
};

// ----------------------------------------------------------------------------------------
// Expressions (muParser) at given parameter values
// ----------------------------------------------------------------------------------------

class ExpressionEvaluator {
 public:
  ExpressionEvaluator(const Reader& r, const std::vector<NamedParameter>& parameters) : r_(r) {
    for (const auto& p : parameters) {
      names_.push_back(p.name);
      values_.push_back(p.value);
    }
  }
  /// Evaluates the scalar `n` (the text of an expression); `usesParameters` tells whether it
  /// depends on a parameter. Errors name `what` and the position of the offending token.
  double Evaluate(const YAML::Node& n, const std::string& what, bool& usesParameters) const {
    const std::string text = n.Scalar();
    mu::Parser p;
    try {
      for (size_t k = 0; k < names_.size(); ++k) p.DefineVar(names_[k], const_cast<double*>(&values_[k]));
      p.SetExpr(text);
      const double v = p.Eval();
      usesParameters = !p.GetUsedVar().empty();
      return v;
    } catch (const mu::Parser::exception_type& e) {
      FilePosition where = r_.Pos(n);
      if (where.line > 0 && e.GetPos() >= 0) {
        const bool quoted = n.Tag() == "!";
        where.column += static_cast<int>(e.GetPos()) + (quoted ? 1 : 0);
      }
      if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN)
        throw StudyFileError(where, what + " = '" + text + "': unknown parameter '" + e.GetToken() +
                                        "' (parameters: " + JoinNames(names_) + ")" +
                                        Suggestion(e.GetToken(), names_, false));
      throw StudyFileError(where, what + " = '" + text + "': " + e.GetMsg());
    }
  }

 private:
  const Reader& r_;
  std::vector<std::string> names_;
  std::vector<double> values_;
};

// ----------------------------------------------------------------------------------------
// The model: one generic field visitor for every item type
// ----------------------------------------------------------------------------------------

enum class Category { Node, Object, Marker, Load, Sensor };
const char* CategoryName(Category c) {
  switch (c) {
    case Category::Node: return "node";
    case Category::Object: return "object";
    case Category::Marker: return "marker";
    case Category::Load: return "load";
    case Category::Sensor: return "sensor";
  }
  return "?";
}
/// "a node", "an object", ...
std::string WithArticle(Category c) { return std::string(c == Category::Object ? "an " : "a ") + CategoryName(c); }
/// Category of an index tag (one function rather than specializations, of which clang flags
/// those no item field uses as unused).
template <class Tag> constexpr Category CategoryOf() {
  if constexpr (std::is_same_v<Tag, NodeTag>) return Category::Node;
  else if constexpr (std::is_same_v<Tag, ObjectTag>) return Category::Object;
  else if constexpr (std::is_same_v<Tag, MarkerTag>) return Category::Marker;
  else if constexpr (std::is_same_v<Tag, LoadTag>) return Category::Load;
  else {
    static_assert(std::is_same_v<Tag, SensorTag>, "an index tag");
    return Category::Sensor;
  }
}

template <class T, class V> struct IsAlternative : std::false_type {};
template <class T, class... A> struct IsAlternative<T, std::variant<A...>> : std::bool_constant<(std::is_same_v<T, A> || ...)> {};

/// Collects the field names of an item.
struct FieldNameCollector {
  std::vector<std::string> names;
  template <class T, class... R> void operator()(const char* n, T&, R...) { names.emplace_back(n); }
};

/// Valid keys of a time function of each type ("type" first).
std::vector<std::string> TimeFunctionKeys(const std::string& type) {
  if (type == "Harmonic") return {"type", "amplitude", "angularFrequency", "phase", "offset"};
  if (type == "Sweep") return {"type", "amplitude", "startFrequency", "endFrequency", "duration"};
  if (type == "Ramp") return {"type", "startTime", "endTime", "startValue", "endValue"};
  if (type == "Step") return {"type", "startTime", "startValue", "endValue"};
  if (type == "Table") return {"type", "times", "values"};
  return {"type"};
}
const std::vector<std::string> kTimeFunctionTypes = {"Constant", "Harmonic", "Sweep", "Ramp", "Step", "Table"};

std::vector<std::string> OutputVariableNames() {
  std::vector<std::string> v;
  for (int i = 0; i < static_cast<int>(OutputVariableType::Count); ++i)
    v.emplace_back(OutputVariableTypeName(static_cast<OutputVariableType>(i)));
  return v;
}

/// Builds a Model from the `model:` list.
class ModelBuilder {
 public:
  ModelBuilder(const Reader& r, const std::vector<NamedParameter>& parameters, std::vector<FieldExpression>* expressions)
      : r_(r), eval_(r, parameters), expressions_(expressions) {}

  void Build(const YAML::Node& list);
  Model TakeModel() { return std::move(model_); }
  const std::vector<std::string>& Names(Category c) const { return names_[static_cast<int>(c)]; }

  // --- used by the field reader ---
  const Reader& R() const { return r_; }
  /// A Real slot: a number or an expression of the parameters (recorded with its path).
  double Real(const YAML::Node& n, const std::string& what, const std::string& path) {
    if (!n.IsDefined() || !n.IsScalar())
      r_.Fail(n, what + " expects a number or an expression of the parameters, got " + KindOfNode(n));
    double v = 0;
    if (ParseNumber(n.Scalar(), v)) return v;
    bool uses = false;
    v = eval_.Evaluate(n, what, uses);
    if (uses && expressions_) expressions_->push_back(FieldExpression{path, n.Scalar(), r_.Pos(n)});
    return v;
  }
  template <class Tag> TypedIndex<Tag> Reference(const YAML::Node& n, const std::string& what) {
    constexpr Category c = CategoryOf<Tag>();
    if (!n.IsDefined() || !n.IsScalar())
      r_.Fail(n, what + " expects " + WithArticle(c) + " name or index, got " + KindOfNode(n));
    const std::string s = Trim(n.Scalar());
    errno = 0;
    char* end = nullptr;
    const long long i = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && end == s.c_str() + s.size() && errno == 0) {
      if (i < 0 || i > std::numeric_limits<int>::max())
        r_.Fail(n, what + " = " + s + " is not a valid " + CategoryName(c) + " index");
      return TypedIndex<Tag>(static_cast<int>(i));
    }
    const auto& names = names_[static_cast<int>(c)];
    for (size_t k = 0; k < names.size(); ++k)
      if (names[k] == s) return TypedIndex<Tag>(static_cast<int>(k));
    if (names.empty())
      r_.Fail(n, what + " = '" + s + "': no " + CategoryName(c) + " has been added before this item (items may only " +
                     "refer to items listed before them)");
    r_.Fail(n, what + " = '" + s + "' is not the name of " + WithArticle(c) + " listed before this item" +
                   Suggestion(s, names, false));
  }
  void AddExpressionPathAlias(const std::string& from, const std::string& to) {
    if (!expressions_) return;
    for (size_t k = 0; k < expressions_->size(); ++k)
      if ((*expressions_)[k].path == from) {
        FieldExpression e = (*expressions_)[k];
        e.path = to;
        expressions_->push_back(e);
        return;
      }
  }

 private:
  template <class T> void BuildItem(Category c, const YAML::Node& typeKey, const YAML::Node& fields);
  using BuildFn = void (ModelBuilder::*)(Category, const YAML::Node&, const YAML::Node&);
  struct TypeEntry {
    std::string name;
    Category category;
    BuildFn build;
  };
  template <class Variant, size_t... I>
  static void Register(std::vector<TypeEntry>& out, Category c, std::index_sequence<I...>) {
    (out.push_back(TypeEntry{std::variant_alternative_t<I, Variant>::typeName, c,
                             &ModelBuilder::BuildItem<std::variant_alternative_t<I, Variant>>}),
     ...);
  }
  static const std::vector<TypeEntry>& Types() {
    static const std::vector<TypeEntry> types = [] {
      std::vector<TypeEntry> t;
      Register<NodeItem>(t, Category::Node, std::make_index_sequence<std::variant_size_v<NodeItem>>());
      Register<ObjectItem>(t, Category::Object, std::make_index_sequence<std::variant_size_v<ObjectItem>>());
      Register<MarkerItem>(t, Category::Marker, std::make_index_sequence<std::variant_size_v<MarkerItem>>());
      Register<LoadItem>(t, Category::Load, std::make_index_sequence<std::variant_size_v<LoadItem>>());
      Register<SensorItem>(t, Category::Sensor, std::make_index_sequence<std::variant_size_v<SensorItem>>());
      return t;
    }();
    return types;
  }
  int Count(Category c) const {
    switch (c) {
      case Category::Node: return static_cast<int>(model_.Nodes().size());
      case Category::Object: return static_cast<int>(model_.Objects().size());
      case Category::Marker: return static_cast<int>(model_.Markers().size());
      case Category::Load: return static_cast<int>(model_.Loads().size());
      case Category::Sensor: return static_cast<int>(model_.Sensors().size());
    }
    return 0;
  }

  const Reader& r_;
  ExpressionEvaluator eval_;
  std::vector<FieldExpression>* expressions_;
  Model model_;
  std::vector<std::string> names_[5];
};

/// Reads every field of an item from its YAML map (the generic visitor).
class FieldReader {
 public:
  FieldReader(ModelBuilder& b, const Section& fields, std::string label, std::string prefix)
      : b_(b), r_(b.R()), fields_(fields), label_(std::move(label)), prefix_(std::move(prefix)) {}

  void operator()(const char* n, Real& x, Rule) {
    if (const Entry* e = fields_.Find(n)) x = b_.Real(e->value, What(n), prefix_ + n);
  }
  template <size_t N> void operator()(const char* n, std::array<Real, N>& a, Rule) {
    if (const Entry* e = fields_.Find(n)) {
      const YAML::Node& s = Seq(e->value, n, std::to_string(N) + " numbers");
      if (s.size() != N)
        r_.Fail(e->value, What(n) + " expects " + std::to_string(N) + " values, got " + std::to_string(s.size()));
      for (size_t i = 0; i < N; ++i) a[i] = Entry1(s[i], n, i);
    }
  }
  void operator()(const char* n, Vector& a, Rule) {
    if (const Entry* e = fields_.Find(n)) a = ReadVector(e->value, n, prefix_ + n);
  }
  void operator()(const char* n, Matrix3D& m) {
    if (const Entry* e = fields_.Find(n)) ReadFixedMatrix(e->value, n, 3, m.data.data());
  }
  void operator()(const char* n, Matrix6D& m) {
    if (const Entry* e = fields_.Find(n)) ReadFixedMatrix(e->value, n, 6, m.data.data());
  }
  void operator()(const char* n, Matrix& m) {
    const Entry* e = fields_.Find(n);
    if (!e) return;
    const YAML::Node& s = Seq(e->value, n, "a list of rows");
    m = Matrix();
    if (s.size() == 0) return;
    m.rows = static_cast<int>(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
      const std::string row = std::string(n) + "[" + std::to_string(i) + "]";
      if (!s[i].IsSequence()) r_.Fail(s[i], What(row) + " expects a row (a list of numbers), got " + Got(s[i]));
      if (i == 0) m.cols = static_cast<int>(s[i].size());
      if (static_cast<int>(s[i].size()) != m.cols)
        r_.Fail(s[i], What(row) + " has " + std::to_string(s[i].size()) + " entries, but row 0 has " +
                          std::to_string(m.cols));
      for (size_t j = 0; j < s[i].size(); ++j) {
        const std::string p = row + "[" + std::to_string(j) + "]";
        m.data.push_back(b_.Real(s[i][j], What(p), prefix_ + p));
      }
    }
  }
  void operator()(const char* n, TimeFunction& f) {
    const Entry* e = fields_.Find(n);
    if (!e) return;
    const std::string field = n;
    const YAML::Node& v = e->value;
    if (!v.IsMap()) r_.Fail(v, What(n) + " expects a map with 'type' and its parameters, got " + Got(v));
    std::string type = "Constant";
    if (v["type"]) {
      const size_t k = r_.Choice(v["type"], What(field + ".type"), kTimeFunctionTypes);
      type = kTimeFunctionTypes[k];
    }
    const Section s = r_.Map(v, What(n), TimeFunctionKeys(type), [&](const std::string& key) {
      return "unknown parameter '" + key + "' of a " + type + " time function (" + label_ + ": " + field + ")";
    });
    if (!s.Find("type") && !s.entries.empty())
      r_.Fail(s.entries.front().keyNode, What(n) + " needs a 'type' (" + JoinNames(kTimeFunctionTypes) + ")");
    const std::string p = field + ".";
    auto real = [&](const char* key, Real& x) {
      if (const Entry* q = s.Find(key)) x = b_.Real(q->value, What(p + key), prefix_ + p + key);
    };
    f = TimeFunction();
    if (type == "Constant") {
      f.type = TimeFunctionType::Constant;
    } else if (type == "Harmonic") {
      f.type = TimeFunctionType::Harmonic;
      real("amplitude", f.amplitude);
      real("angularFrequency", f.angularFrequency);
      real("phase", f.phase);
      real("offset", f.offset);
    } else if (type == "Sweep") {
      f.type = TimeFunctionType::Sweep;
      real("amplitude", f.amplitude);
      real("startFrequency", f.startFrequency);
      real("endFrequency", f.endFrequency);
      real("duration", f.duration);
    } else if (type == "Ramp") {
      f.type = TimeFunctionType::Ramp;
      real("startTime", f.startTime);
      real("endTime", f.endTime);
      real("startValue", f.startValue);
      real("endValue", f.endValue);
    } else if (type == "Step") {  // a Ramp with endTime = startTime
      f = TimeFunction::Step(0);
      real("startTime", f.startTime);
      f.endTime = f.startTime;
      b_.AddExpressionPathAlias(prefix_ + p + "startTime", prefix_ + p + "endTime");
      real("startValue", f.startValue);
      real("endValue", f.endValue);
    } else {  // Table
      f.type = TimeFunctionType::Table;
      if (const Entry* q = s.Find("times")) f.times = ReadVector(q->value, p + "times", prefix_ + p + "times");
      if (const Entry* q = s.Find("values")) f.values = ReadVector(q->value, p + "values", prefix_ + p + "values");
    }
  }
  void operator()(const char* n, bool& x) {
    if (const Entry* e = fields_.Find(n)) x = r_.Bool(e->value, What(n));
  }
  void operator()(const char* n, int& x, Rule) {
    if (const Entry* e = fields_.Find(n)) x = r_.Int(e->value, What(n));
  }
  template <size_t N> void operator()(const char* n, std::array<int, N>& a) {
    if (const Entry* e = fields_.Find(n)) {
      const YAML::Node& s = Seq(e->value, n, std::to_string(N) + " integers");
      if (s.size() != N)
        r_.Fail(e->value, What(n) + " expects " + std::to_string(N) + " values, got " + std::to_string(s.size()));
      for (size_t i = 0; i < N; ++i) a[i] = r_.Int(s[i], What(std::string(n) + "[" + std::to_string(i) + "]"));
    }
  }
  template <class Tag> void operator()(const char* n, TypedIndex<Tag>& x) {
    if (const Entry* e = fields_.Find(n)) x = b_.Reference<Tag>(e->value, What(n));
  }
  void operator()(const char* n, std::vector<NodeIndex>& v) {
    if (const Entry* e = fields_.Find(n)) {
      const YAML::Node& s = Seq(e->value, n, "node names or indices");
      v.clear();
      for (size_t i = 0; i < s.size(); ++i)
        v.push_back(b_.Reference<NodeTag>(s[i], What(std::string(n) + "[" + std::to_string(i) + "]")));
    }
  }
  void operator()(const char* n, std::array<MarkerIndex, 2>& v) {
    if (const Entry* e = fields_.Find(n)) {
      const YAML::Node& s = Seq(e->value, n, "2 marker names or indices");
      if (s.size() != 2)
        r_.Fail(e->value, What(n) + " expects 2 markers, got " + std::to_string(s.size()));
      for (size_t i = 0; i < 2; ++i)
        v[i] = b_.Reference<MarkerTag>(s[i], What(std::string(n) + "[" + std::to_string(i) + "]"));
    }
  }
  void operator()(const char* n, OutputVariableType& t) {
    if (const Entry* e = fields_.Find(n)) {
      static const std::vector<std::string> names = OutputVariableNames();
      t = static_cast<OutputVariableType>(r_.Choice(e->value, What(n), names));
    }
  }
  void operator()(const char* n, std::string& s) {
    if (const Entry* e = fields_.Find(n)) s = r_.String(e->value, What(n));
  }

 private:
  std::string What(const std::string& field) const { return label_ + ": " + field; }
  const YAML::Node& Seq(const YAML::Node& v, const std::string& field, const std::string& expected) const {
    if (!v.IsSequence()) r_.Fail(v, What(field) + " expects a list (" + expected + "), got " + Got(v));
    return v;
  }
  Real Entry1(const YAML::Node& v, const std::string& field, size_t i) {
    const std::string p = field + "[" + std::to_string(i) + "]";
    return b_.Real(v, What(p), prefix_ + p);
  }
  Vector ReadVector(const YAML::Node& v, const std::string& field, const std::string& path) {
    const YAML::Node& s = Seq(v, field, "numbers");
    Vector out;
    for (size_t i = 0; i < s.size(); ++i) {
      const std::string idx = "[" + std::to_string(i) + "]";
      out.push_back(b_.Real(s[i], What(field + idx), path + idx));
    }
    return out;
  }
  void ReadFixedMatrix(const YAML::Node& v, const std::string& field, size_t n, Real* data) {
    const std::string size = std::to_string(n) + "x" + std::to_string(n);
    const YAML::Node& s = Seq(v, field, "a " + size + " matrix as a list of rows");
    if (s.size() != n) r_.Fail(v, What(field) + " expects " + std::to_string(n) + " rows, got " + std::to_string(s.size()));
    for (size_t i = 0; i < n; ++i) {
      const std::string row = field + "[" + std::to_string(i) + "]";
      if (!s[i].IsSequence() || s[i].size() != n)
        r_.Fail(s[i], What(row) + " expects a row of " + std::to_string(n) + " numbers, got " +
                          (s[i].IsSequence() ? std::to_string(s[i].size()) + " values" : Got(s[i])));
      for (size_t j = 0; j < n; ++j) {
        const std::string p = row + "[" + std::to_string(j) + "]";
        data[i * n + j] = b_.Real(s[i][j], What(p), prefix_ + p);
      }
    }
  }

  ModelBuilder& b_;
  const Reader& r_;
  const Section& fields_;
  std::string label_;
  std::string prefix_;
};

template <class T> void ModelBuilder::BuildItem(Category c, const YAML::Node& typeKey, const YAML::Node& fieldsNode) {
  T item{};
  FieldNameCollector fn;
  fn.names.emplace_back("name");
  item.Fields(fn);
  const std::string type = T::typeName;
  const Section fields = r_.Map(fieldsNode, type, fn.names,
                                [&](const std::string& key) { return "unknown field '" + key + "' of " + type; });
  const int idx = Count(c);
  if (const Entry* e = fields.Find("name")) {
    item.name = r_.String(e->value, type + ": name");
    if (item.name.empty()) r_.Fail(e->value, type + ": name must not be empty");
    double number = 0;
    if (ParseNumber(item.name, number))
      r_.Fail(e->value, type + ": name '" + item.name + "' must not be a number (a number in a reference is an index)");
  }
  const std::string name = item.name.empty() ? std::string(CategoryName(c)) + std::to_string(idx) : item.name;
  auto& names = names_[static_cast<int>(c)];
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == name)
      r_.Fail(fields.Find("name") ? fields.Find("name")->value : typeKey,
              type + ": name '" + name + "' is already used by " + CategoryName(c) + " " + std::to_string(k) +
                  " (names must be unique among the " + CategoryName(c) + "s)");
  const std::string label = type + " '" + name + "'";
  FieldReader reader(*this, fields, label, name + ".");
  item.Fields(reader);
  try {
    if constexpr (IsAlternative<T, NodeItem>::value) model_.AddNode(std::move(item));
    else if constexpr (IsAlternative<T, ObjectItem>::value) model_.AddObject(std::move(item));
    else if constexpr (IsAlternative<T, MarkerItem>::value) model_.AddMarker(std::move(item));
    else if constexpr (IsAlternative<T, LoadItem>::value) model_.AddLoad(std::move(item));
    else model_.AddSensor(std::move(item));
  } catch (const ValidationError& err) {
    // Point at the offending field's value when the message names a field given in the file.
    const std::string msg = err.what();
    YAML::Node where = fieldsNode.IsDefined() && !fieldsNode.IsNull() ? fieldsNode : typeKey;
    const std::string desc = label + " (" + CategoryName(c) + " " + std::to_string(idx) + "): ";
    if (msg.compare(0, desc.size(), desc) == 0) {
      const std::string rest = msg.substr(desc.size());
      const std::string field = rest.substr(0, rest.find_first_of(" [."));
      if (const Entry* e = fields.Find(field)) where = e->value;
    }
    r_.Fail(where, msg);
  }
  names.push_back(name);
}

void ModelBuilder::Build(const YAML::Node& list) {
  if (!list.IsDefined() || list.IsNull()) return;
  if (!list.IsSequence())
    r_.Fail(list, "model must be a list of items, each '- <ItemType>: {fields}', got " + Got(list));
  std::vector<std::string> typeNames;
  for (const auto& t : Types()) typeNames.push_back(t.name);
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node entry = list[i];
    if (!entry.IsMap() || entry.size() != 1)
      r_.Fail(entry, "model entry " + std::to_string(i) + " must be a map with one key, '- <ItemType>: {fields}', got " +
                         (entry.IsMap() ? std::to_string(entry.size()) + " keys" : Got(entry)));
    const auto it = entry.begin();
    const YAML::Node key = it->first;
    const std::string type = key.IsScalar() ? key.Scalar() : "";
    const TypeEntry* found = nullptr;
    for (const auto& t : Types())
      if (t.name == type) found = &t;
    if (!found) {
      // Exudyn's short names (MassPoint, SpringDamper, ...) are the type name without its
      // category prefix: suggest the full name.
      for (const char* prefix : {"Node", "Object", "ObjectConnector", "ObjectJoint", "Marker", "Load", "Sensor"})
        for (const auto& t : typeNames)
          if (!type.empty() && t == prefix + type)
            r_.Fail(key, "unknown item type '" + type + "'; did you mean '" + t + "'?");
      r_.Fail(key, "unknown item type '" + type + "'" + Suggestion(type, typeNames, false));
    }
    (this->*(found->build))(found->category, key, it->second);
  }
}

// ----------------------------------------------------------------------------------------
// Settings and option tables
// ----------------------------------------------------------------------------------------

/// One setting or option: a leaf with a reader, or a group of settings.
struct Setting {
  std::string name;
  std::function<void(const Reader&, const YAML::Node&, const std::string&)> read;  ///< leaf
  std::vector<Setting> children;                                                   ///< group
  bool IsGroup() const { return !read; }
};

Setting RealS(const char* n, Real& x) {
  return {n, [&x](const Reader& r, const YAML::Node& v, const std::string& w) { x = r.Number(v, w); }, {}};
}
Setting IntS(const char* n, int& x) {
  return {n, [&x](const Reader& r, const YAML::Node& v, const std::string& w) { x = r.Int(v, w); }, {}};
}
Setting BoolS(const char* n, bool& x) {
  return {n, [&x](const Reader& r, const YAML::Node& v, const std::string& w) { x = r.Bool(v, w); }, {}};
}
Setting StringS(const char* n, std::string& x) {
  return {n, [&x](const Reader& r, const YAML::Node& v, const std::string& w) { x = r.String(v, w); }, {}};
}
Setting UInt64S(const char* n, std::uint64_t& x) {
  return {n, [&x](const Reader& r, const YAML::Node& v, const std::string& w) { x = r.UInt64(v, w); }, {}};
}
Setting DoubleS(const char* n, double& x) { return RealS(n, x); }
Setting Group(const char* n, std::vector<Setting> children) { return {n, {}, std::move(children)}; }

std::vector<std::string> SolverNames() {
  std::vector<std::string> v;
  for (int i = 0; i <= static_cast<int>(DynamicSolverType::VelocityVerlet); ++i)
    v.emplace_back(DynamicSolverTypeName(static_cast<DynamicSolverType>(i)));
  return v;
}
Setting SolverS(const char* n, DynamicSolverType& x) {
  return {n,
          [&x](const Reader& r, const YAML::Node& v, const std::string& w) {
            static const std::vector<std::string> names = SolverNames();
            x = static_cast<DynamicSolverType>(r.Choice(v, w, names));
          },
          {}};
}

std::vector<Setting> NewtonTree(NewtonSettings& n) {
  auto& d = n.numericalDifferentiation;
  return {RealS("relativeTolerance", n.relativeTolerance),
          RealS("absoluteTolerance", n.absoluteTolerance),
          IntS("maxIterations", n.maxIterations),
          BoolS("useModifiedNewton", n.useModifiedNewton),
          IntS("maxModifiedNewtonIterations", n.maxModifiedNewtonIterations),
          IntS("maxModifiedNewtonRestartIterations", n.maxModifiedNewtonRestartIterations),
          RealS("modifiedNewtonContractivity", n.modifiedNewtonContractivity),
          BoolS("modifiedNewtonJacUpdatePerStep", n.modifiedNewtonJacUpdatePerStep),
          BoolS("adaptInitialResidual", n.adaptInitialResidual),
          BoolS("weightTolerancePerCoordinate", n.weightTolerancePerCoordinate),
          RealS("maximumSolutionNorm", n.maximumSolutionNorm),
          Group("numericalDifferentiation", {RealS("relativeEpsilon", d.relativeEpsilon),
                                             RealS("minimumCoordinateSize", d.minimumCoordinateSize),
                                             BoolS("addReferenceCoordinatesToEpsilon", d.addReferenceCoordinatesToEpsilon)})};
}

/// Exudyn's SimulationSettings tree over `s`.
std::vector<Setting> SettingsTree(SimulationSettings& s) {
  auto& ti = s.timeIntegration;
  auto& ga = ti.generalizedAlpha;
  auto& ex = ti.explicitIntegration;
  auto& st = s.staticSolver;
  auto& so = s.solutionSettings;
  return {
      Group("timeIntegration",
            {RealS("startTime", ti.startTime), RealS("endTime", ti.endTime), IntS("numberOfSteps", ti.numberOfSteps),
             BoolS("adaptiveStep", ti.adaptiveStep), RealS("adaptiveStepDecrease", ti.adaptiveStepDecrease),
             RealS("adaptiveStepIncrease", ti.adaptiveStepIncrease),
             IntS("adaptiveStepRecoverySteps", ti.adaptiveStepRecoverySteps),
             IntS("adaptiveStepRecoveryIterations", ti.adaptiveStepRecoveryIterations),
             BoolS("automaticStepSize", ti.automaticStepSize), RealS("absoluteTolerance", ti.absoluteTolerance),
             RealS("relativeTolerance", ti.relativeTolerance), RealS("initialStepSize", ti.initialStepSize),
             RealS("minimumStepSize", ti.minimumStepSize), RealS("stepSizeMaxIncrease", ti.stepSizeMaxIncrease),
             RealS("stepSizeSafety", ti.stepSizeSafety), BoolS("reuseConstantMassMatrix", ti.reuseConstantMassMatrix),
             IntS("verboseMode", ti.verboseMode), IntS("maxStepAttempts", ti.maxStepAttempts),
             Group("newton", NewtonTree(ti.newton)),
             Group("generalizedAlpha",
                   {RealS("spectralRadius", ga.spectralRadius), BoolS("useNewmark", ga.useNewmark),
                    RealS("newmarkBeta", ga.newmarkBeta), RealS("newmarkGamma", ga.newmarkGamma),
                    BoolS("useIndex2Constraints", ga.useIndex2Constraints),
                    BoolS("computeInitialAccelerations", ga.computeInitialAccelerations),
                    BoolS("resetAccelerations", ga.resetAccelerations)}),
             Group("explicitIntegration",
                   {SolverS("dynamicSolverType", ex.dynamicSolverType),
                    BoolS("computeEndOfStepAccelerations", ex.computeEndOfStepAccelerations),
                    BoolS("eliminateConstraints", ex.eliminateConstraints)})}),
      Group("staticSolver",
            {IntS("numberOfLoadSteps", st.numberOfLoadSteps), RealS("loadStepDuration", st.loadStepDuration),
             RealS("loadStepStart", st.loadStepStart), BoolS("loadStepGeometric", st.loadStepGeometric),
             RealS("loadStepGeometricRange", st.loadStepGeometricRange), BoolS("useLoadFactor", st.useLoadFactor),
             BoolS("adaptiveStep", st.adaptiveStep), RealS("adaptiveStepDecrease", st.adaptiveStepDecrease),
             RealS("adaptiveStepIncrease", st.adaptiveStepIncrease),
             IntS("adaptiveStepRecoverySteps", st.adaptiveStepRecoverySteps),
             IntS("adaptiveStepRecoveryIterations", st.adaptiveStepRecoveryIterations),
             RealS("minimumStepSize", st.minimumStepSize), BoolS("computeLoadsJacobian", st.computeLoadsJacobian),
             RealS("stabilizerODE2term", st.stabilizerODE2term), IntS("verboseMode", st.verboseMode),
             Group("newton", NewtonTree(st.newton))}),
      Group("solutionSettings",
            {RealS("sensorsWritePeriod", so.sensorsWritePeriod), IntS("outputPrecision", so.outputPrecision),
             StringS("coordinatesSolutionFileName", so.coordinatesSolutionFileName)}),
      Setting{"linearSolverType",
              [&s](const Reader& r, const YAML::Node& v, const std::string& w) {
                static const std::vector<std::string> names = {"EXUdense", "EigenDense", "EigenSparse"};
                s.linearSolverType = static_cast<LinearSolverType>(r.Choice(v, w, names));
              },
              {}},
  };
}

/// Every leaf path of a tree ("a.b.c"), for suggestions.
void LeafPaths(const std::vector<Setting>& level, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& s : level) {
    if (s.IsGroup()) LeafPaths(s.children, prefix + s.name + ".", out);
    else out.push_back(prefix + s.name);
  }
}

/// Reads the map `node` against a settings/options tree. Keys may be nested maps or dotted
/// paths ("timeIntegration.newton.relativeTolerance: 1e-6"). `label` names the section in
/// messages ("simulationSettings"); `seen` receives each given leaf path with its value.
class TreeReader {
 public:
  TreeReader(const Reader& r, const std::vector<Setting>& root, std::string label, std::string kind)
      : r_(r), root_(root), label_(std::move(label)), kind_(std::move(kind)) {
    LeafPaths(root_, "", leaves_);
  }
  void Read(const YAML::Node& node) { ReadMap(root_, "", node); }
  /// Position of the value of a given leaf path (or of the section).
  std::vector<std::pair<std::string, YAML::Node>> seen;

 private:
  void ReadMap(const std::vector<Setting>& level, const std::string& prefix, const YAML::Node& node) {
    const std::string what = prefix.empty() ? label_ : label_ + "." + prefix.substr(0, prefix.size() - 1);
    const Section s = r_.Map(node, what, {});
    for (const auto& e : s.entries) Apply(level, prefix, e.key, e.keyNode, e.value);
  }
  void Apply(const std::vector<Setting>& level, const std::string& prefix, const std::string& key,
             const YAML::Node& keyNode, const YAML::Node& value) {
    const size_t dot = key.find('.');
    const std::string first = key.substr(0, dot);
    const Setting* found = nullptr;
    for (const auto& s : level)
      if (s.name == first) found = &s;
    if (!found) {
      // Suggest the same name elsewhere in the tree, else the closest name on this level.
      std::string hint;
      const std::string leaf = key.substr(key.rfind('.') == std::string::npos ? 0 : key.rfind('.') + 1);
      for (const auto& p : leaves_)
        if (p.size() >= leaf.size() && p.compare(p.size() - leaf.size(), leaf.size(), leaf) == 0 &&
            (p.size() == leaf.size() || p[p.size() - leaf.size() - 1] == '.'))
          hint = p;
      std::vector<std::string> here;
      for (const auto& s : level) here.push_back(prefix + s.name);
      const std::string near = hint.empty() ? Closest(prefix + first, here) : hint;
      r_.Fail(keyNode, "unknown " + kind_ + " '" + prefix + first + "' in " + label_ +
                           (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
    const std::string path = prefix + first;
    if (dot != std::string::npos) {
      if (!found->IsGroup()) r_.Fail(keyNode, label_ + "." + path + " is a " + kind_ + ", not a section");
      Apply(found->children, path + ".", key.substr(dot + 1), keyNode, value);
      return;
    }
    if (found->IsGroup()) {
      ReadMap(found->children, path + ".", value);
      return;
    }
    for (const auto& p : seen)
      if (p.first == path) r_.Fail(keyNode, label_ + "." + path + " is given twice");
    found->read(r_, value, label_ + "." + path);
    seen.emplace_back(path, value);
  }

  const Reader& r_;
  const std::vector<Setting>& root_;
  std::string label_, kind_;
  std::vector<std::string> leaves_;
};

/// Maps a ValidationError about a setting to the position of the setting's value.
[[noreturn]] void FailSetting(const Reader& r, const TreeReader& t, const YAML::Node& section, const std::string& msg) {
  size_t best = 0;
  YAML::Node where = section;
  for (const auto& [path, node] : t.seen) {
    const size_t at = msg.find(path);
    if (at != std::string::npos && path.size() > best) {
      const size_t after = at + path.size();
      if (after == msg.size() || msg[after] == ' ') best = path.size(), where = node;
    }
  }
  r.Fail(where, msg);
}

// ----------------------------------------------------------------------------------------
// The whole file
// ----------------------------------------------------------------------------------------

const std::vector<std::string> kTopKeys = {"parameters", "model", "solver", "simulationSettings", "objectives", "study"};

YAML::Node LoadYaml(const std::string& text, const std::string& name) {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    FilePosition p{name, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0};
    throw StudyFileError(p, "malformed YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    FilePosition p{name, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0};
    throw StudyFileError(p, "malformed YAML: " + e.msg);
  }
}

Section TopLevel(const Reader& r, const YAML::Node& root) {
  if (!root.IsDefined() || root.IsNull())
    throw StudyFileError(FilePosition{r.File(), 0, 0}, "the file is empty; a 'model:' section is required");
  return r.Map(root, "the file", kTopKeys, [](const std::string& key) { return "unknown top-level key '" + key + "'"; });
}

std::vector<NamedParameter> ReadParameters(const Reader& r, const Section& top) {
  std::vector<NamedParameter> out;
  const Entry* e = top.Find("parameters");
  if (!e) return out;
  const Section s = r.Map(e->value, "parameters", {});
  for (const auto& p : s.entries) {
    if (!IsIdentifier(p.key))
      r.Fail(p.keyNode, "parameter name '" + p.key +
                            "' must be an identifier (letters, digits and '_', not starting with a digit)");
    NamedParameter np;
    np.name = p.key;
    np.value = r.Number(p.value, "parameters: " + p.key);
    if (!std::isfinite(np.value)) r.Fail(p.value, "parameters: " + p.key + " must be finite");
    np.where = r.Pos(p.keyNode);
    out.push_back(np);
  }
  return out;
}

Model BuildModel(const Reader& r, const Section& top, const std::vector<NamedParameter>& values,
                 std::vector<FieldExpression>* expressions, std::vector<std::string>* sensorNames) {
  const Entry* e = top.Find("model");
  if (!e) throw StudyFileError(FilePosition{r.File(), 0, 0}, "a 'model:' section is required");
  ModelBuilder b(r, values, expressions);
  b.Build(e->value);
  if (sensorNames) *sensorNames = b.Names(Category::Sensor);
  return b.TakeModel();
}

/// Sensor by name or index (objectives, measured channels).
int SensorIndexOf(const Reader& r, const YAML::Node& v, const std::string& what, const std::vector<std::string>& names) {
  if (!v.IsDefined() || !v.IsScalar()) r.Fail(v, what + " expects a sensor name or index, got " + KindOfNode(v));
  const std::string s = Trim(v.Scalar());
  char* end = nullptr;
  errno = 0;
  const long long i = std::strtoll(s.c_str(), &end, 10);
  if (!s.empty() && end == s.c_str() + s.size() && errno == 0) {
    if (i < 0 || i >= static_cast<long long>(names.size()))
      r.Fail(v, what + " = " + s + " is not a valid sensor index (the model has " + std::to_string(names.size()) +
                    " sensors)");
    return static_cast<int>(i);
  }
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == s) return static_cast<int>(k);
  r.Fail(v, what + " = '" + s + "' is not the name of a sensor" +
                (names.empty() ? " (the model has no sensors)" : Suggestion(s, names, false)));
}

const std::vector<std::string> kObjectiveKeys = {"name",         "kind",         "sensor",           "component",
                                                 "weight",       "signalTimes",  "signalValues",     "signalFile",
                                                 "signalColumn", "signalColumnName", "errorDivisor", "errorMultiplier"};

void ReadObjectives(const Reader& r, const Section& top, const std::string& directory, bool readDataFiles,
                    const std::vector<std::string>& sensorNames, const Layout* layout, const std::vector<Real>& theta,
                    ObjectiveSetDescription& out) {
  const Entry* e = top.Find("objectives");
  if (!e) return;
  const Section s = r.Map(e->value, "objectives", {"samplePeriod", "weightedSum", "list"},
                          [](const std::string& k) { return "unknown key '" + k + "' in objectives"; });
  if (const Entry* q = s.Find("samplePeriod")) {
    out.samplePeriod = r.Number(q->value, "objectives.samplePeriod");
    if (!SatisfiesRule(out.samplePeriod, Rule::UReal))
      r.Fail(q->value, "objectives.samplePeriod = " + FormatReal(out.samplePeriod) + " violates UReal (" +
                           RuleCondition(Rule::UReal) + ")");
  }
  if (const Entry* q = s.Find("weightedSum")) out.weightedSum = r.Bool(q->value, "objectives.weightedSum");
  const Entry* list = s.Find("list");
  if (!list) return;
  const YAML::Node& l = r.Sequence(list->value, "objectives.list");
  std::vector<std::string> kinds;
  {
    std::stringstream ss(ObjectiveKindNames());
    std::string k;
    while (std::getline(ss, k, ',')) kinds.push_back(Trim(k));
  }
  bool allChecked = true;
  for (size_t i = 0; i < l.size(); ++i) {
    const std::string ctx = "objectives.list[" + std::to_string(i) + "]";
    const Section o = r.Map(l[i], ctx, kObjectiveKeys,
                            [&](const std::string& k) { return "unknown key '" + k + "' in objective " + std::to_string(i); });
    ObjectiveDescription d;
    if (const Entry* q = o.Find("name")) d.name = r.String(q->value, ctx + ".name");
    const std::string label = d.name.empty() ? ctx : "objective '" + d.name + "'";
    if (const Entry* q = o.Find("kind")) d.kind = kinds[r.Choice(q->value, label + ": kind", kinds)];
    else r.Fail(l[i], label + ": 'kind' is required (" + JoinNames(kinds) + ")");
    if (const Entry* q = o.Find("sensor")) d.sensor = SensorIndexOf(r, q->value, label + ": sensor", sensorNames);
    else r.Fail(l[i], label + ": 'sensor' is required (a sensor name or index)");
    if (const Entry* q = o.Find("component")) d.component = r.Int(q->value, label + ": component");
    if (const Entry* q = o.Find("weight")) d.weight = r.Number(q->value, label + ": weight");
    auto vec = [&](const char* key, std::vector<Real>& v) {
      if (const Entry* q = o.Find(key)) {
        const YAML::Node& seq = r.Sequence(q->value, label + ": " + key);
        for (size_t k = 0; k < seq.size(); ++k)
          v.push_back(r.Number(seq[k], label + ": " + key + "[" + std::to_string(k) + "]"));
      }
    };
    vec("signalTimes", d.signalTimes);
    vec("signalValues", d.signalValues);
    if (const Entry* q = o.Find("signalFile")) d.signalFile = ResolvePath(directory, r.String(q->value, label + ": signalFile"));
    if (const Entry* q = o.Find("signalColumn")) d.signalColumn = r.Int(q->value, label + ": signalColumn");
    if (const Entry* q = o.Find("signalColumnName")) d.signalColumnName = r.String(q->value, label + ": signalColumnName");
    if (const Entry* q = o.Find("errorDivisor")) d.errorDivisor = r.Number(q->value, label + ": errorDivisor");
    if (const Entry* q = o.Find("errorMultiplier")) d.errorMultiplier = r.Number(q->value, label + ": errorMultiplier");
    // Validate this objective alone (named as in the full set) so the error points at it;
    // without readDataFiles, one whose signal file does not exist yet is not checked.
    const bool check = readDataFiles || d.signalFile.empty() || std::filesystem::exists(d.signalFile);
    allChecked = allChecked && check;
    if (layout && check) {
      ObjectiveSetDescription one;
      one.samplePeriod = out.samplePeriod;
      one.objectives.push_back(d);
      if (one.objectives[0].name.empty()) one.objectives[0].name = "objective" + std::to_string(i);
      try {
        BuildObjectives(one, *layout, theta);
      } catch (const ValidationError& err) {
        const std::string msg = err.what();
        YAML::Node where = l[i];
        for (const char* key : {"signalFile", "signalColumnName", "signalColumn", "signalTimes", "signalValues",
                                "component", "errorDivisor", "errorMultiplier", "weight", "sensor", "kind"})
          if (const Entry* q = o.Find(key); q && msg.find(std::string(": ") + key) != std::string::npos) {
            where = q->value;
            break;
          }
        r.Fail(where, msg);
      }
    }
    out.objectives.push_back(d);
  }
  if (layout && allChecked && !out.objectives.empty()) {
    try {
      BuildObjectives(out, *layout, theta);
    } catch (const ValidationError& err) {
      r.Fail(list->value, err.what());
    }
  }
}

/// Value names of an objective set (objective names, then weightedSum).
std::vector<std::string> ObjectiveValueNames(const ObjectiveSetDescription& d) {
  std::vector<std::string> v;
  for (size_t i = 0; i < d.objectives.size(); ++i)
    v.push_back(d.objectives[i].name.empty() ? "objective" + std::to_string(i) : d.objectives[i].name);
  if (d.weightedSum) v.emplace_back("weightedSum");
  return v;
}

const std::vector<std::string> kStudyTypes = {"ParameterVariation", "Sampling", "GeneticOptimization", "Sensitivity",
                                              "Identification"};

std::vector<Setting> GeneticTree(StudySpec& s) {
  GeneticOptions& g = s.genetic;
  return {IntS("populationSize", g.populationSize),
          IntS("numberOfGenerations", g.numberOfGenerations),
          DoubleS("elitistRatio", g.elitistRatio),
          DoubleS("crossoverProbability", g.crossoverProbability),
          DoubleS("crossoverAmount", g.crossoverAmount),
          DoubleS("rangeReductionFactor", g.rangeReductionFactor),
          DoubleS("distanceFactor", g.distanceFactor),
          Setting{"childDistribution",
                  [&g](const Reader& r, const YAML::Node& v, const std::string& w) {
                    static const std::vector<std::string> names = {"uniform", "normal"};
                    g.childDistribution = ParseChildDistribution(names[r.Choice(v, w, names)]);
                  },
                  {}},
          IntS("distanceFactorGenerations", g.distanceFactorGenerations),
          IntS("initialPopulationSize", g.initialPopulationSize),
          Setting{"randomizerInitialization",
                  [&g](const Reader& r, const YAML::Node& v, const std::string& w) {
                    g.randomizerInitialization = r.Integer(v, w);
                  },
                  {}},
          Setting{"randomStream",
                  [&g](const Reader& r, const YAML::Node& v, const std::string& w) {
                    static const std::vector<std::string> names = {"numpy", "philox"};
                    g.randomStream = ParseGeneticRandomStream(names[r.Choice(v, w, names)]);
                  },
                  {}}};
}

/// Reads a [a, b] pair of numbers.
std::pair<double, double> ReadPair(const Reader& r, const YAML::Node& v, const std::string& what, const char* form) {
  if (!v.IsSequence() || v.size() != 2) r.Fail(v, what + " expects " + form + ", got " + Got(v));
  return {r.Number(v[0], what + "[0]"), r.Number(v[1], what + "[1]")};
}

/// Checks study parameter names: declared in `parameters:` or a theta path of the model.
void CheckStudyParameter(const Reader& r, const Entry& p, const std::vector<NamedParameter>& declared,
                         const Layout* layout) {
  for (const auto& d : declared)
    if (d.name == p.key) return;
  std::vector<std::string> names;
  for (const auto& d : declared) names.push_back(d.name);
  if (!layout) r.Fail(p.keyNode, "study parameter '" + p.key + "' is not declared in 'parameters:'");
  try {
    layout->ThetaIndex(p.key);
  } catch (const ValidationError& e) {
    const std::string near = Closest(p.key, names);
    const bool close = IsClose(p.key, near);
    r.Fail(p.keyNode, "study parameter '" + p.key + "' is neither declared in 'parameters:' (" + JoinNames(names) +
                          ") nor a parameter path of the model (" + e.what() + ")" +
                          (close ? "; or did you mean the parameter '" + near + "'?" : ""));
  }
}

void ReadStudy(const Reader& r, const Section& top, const std::string& directory, bool readDataFiles,
               const std::vector<NamedParameter>& declared, const Layout* layout,
               const std::vector<std::string>& sensorNames, const ObjectiveSetDescription& objectives, StudySpec& st) {
  const Entry* e = top.Find("study");
  if (!e) return;
  st.where = r.Pos(e->keyNode);
  const YAML::Node& node = e->value;
  if (!node.IsMap()) r.Fail(node, "study must be a map with 'type' and 'parameters', got " + Got(node));
  if (!node["type"]) r.Fail(node, "study: 'type' is required (" + JoinNames(kStudyTypes) + ")");
  const size_t t = r.Choice(node["type"], "study: type", kStudyTypes);
  st.type = static_cast<StudyType>(t + 1);
  const std::string type = kStudyTypes[t];

  std::vector<std::string> valid = {"type", "objective", "parameters"};
  StudySpec& s = st;
  std::vector<Setting> options;
  switch (st.type) {
    case StudyType::ParameterVariation:
      options = {BoolS("useLogSpace", s.useLogSpace), BoolS("addComputationIndex", s.addComputationIndex),
                 UInt64S("chunkSize", s.chunkSize)};
      break;
    case StudyType::Sampling:
      options = {Setting{"design",
                         [&s](const Reader& rr, const YAML::Node& v, const std::string& w) {
                           static const std::vector<std::string> names = {"lhs", "sobol", "uniform", "csv"};
                           s.design = names[rr.Choice(v, w, names)];
                         },
                         {}},
                 UInt64S("count", s.count),
                 UInt64S("seed", s.seed),
                 Setting{"scramble",
                         [&s](const Reader& rr, const YAML::Node& v, const std::string& w) {
                           static const std::vector<std::string> names = {
                               SobolScrambleName(SobolScramble::None), SobolScrambleName(SobolScramble::DigitalShift),
                               SobolScrambleName(SobolScramble::LinearMatrix)};
                           s.scramble = names[rr.Choice(v, w, names)];
                         },
                         {}},
                 StringS("designFile", s.designFile),
                 UInt64S("chunkSize", s.chunkSize)};
      break;
    case StudyType::GeneticOptimization: options = GeneticTree(s); break;
    case StudyType::Sensitivity: options = {BoolS("scaledByReference", s.sensitivity.scaledByReference)}; break;
    case StudyType::Identification: valid.insert(valid.end(), {"measured", "genetic", "refinement"}); break;
    case StudyType::None: break;
  }
  for (const auto& o : options) valid.push_back(o.name);
  const Section sec = r.Map(node, "study", valid, [&](const std::string& k) {
    return "unknown key '" + k + "' in a " + type + " study";
  });
  // Options (everything but type/objective/parameters and the identification sub-sections).
  for (const auto& en : sec.entries)
    for (const auto& o : options)
      if (o.name == en.key) o.read(r, en.value, "study." + en.key);

  if (const Entry* q = sec.Find("objective")) {
    s.objective = r.String(q->value, "study: objective");
    const auto names = ObjectiveValueNames(objectives);
    if (st.type != StudyType::Identification &&
        std::find(names.begin(), names.end(), s.objective) == names.end())
      r.Fail(q->value, "study: objective = '" + s.objective + "' is not an objective value (" + JoinNames(names) + ")" +
                           Suggestion(s.objective, names, false));
  }

  const Entry* params = sec.Find("parameters");
  const bool csvDesign = st.type == StudyType::Sampling && s.design == "csv";
  if (!params && !csvDesign) r.Fail(node, "study: 'parameters' is required for a " + type + " study");
  Section ps;
  if (params) {
    if (csvDesign && params->value.IsSequence()) {
      // csv design: a list of column names is enough
      for (size_t i = 0; i < params->value.size(); ++i) {
        Entry en{r.String(params->value[i], "study.parameters[" + std::to_string(i) + "]"), params->value[i],
                 params->value[i]};
        CheckStudyParameter(r, en, declared, layout);
        s.bounds.push_back(ParameterBounds{en.key, 0.0, 0.0});
      }
    } else {
      ps = r.Map(params->value, "study.parameters", {});
      if (ps.entries.empty()) r.Fail(params->value, "study: 'parameters' must name at least one parameter");
    }
  }
  for (const auto& p : ps.entries) CheckStudyParameter(r, p, declared, layout);
  for (size_t a = 0; a < ps.entries.size(); ++a)
    for (size_t b = 0; b < a; ++b)
      if (MangledPath(ps.entries[a].key) == MangledPath(ps.entries[b].key) && ps.entries[a].key != ps.entries[b].key)
        r.Fail(ps.entries[a].keyNode, "study parameters '" + ps.entries[b].key + "' and '" + ps.entries[a].key +
                                          "' map to the same name '" + MangledPath(ps.entries[a].key) + "'");

  auto fail = [&](const YAML::Node& n, const std::exception& err) { r.Fail(n, err.what()); };
  switch (st.type) {
    case StudyType::ParameterVariation: {
      for (const auto& p : ps.entries) {
        const std::string what = "study.parameters." + p.key;
        ParameterRange range;
        if (p.value.IsSequence()) {
          if (p.value.size() != 3)
            r.Fail(p.value, what + " expects [begin, end, n] or {values: [...]}, got a list of " +
                                std::to_string(p.value.size()) + " values");
          range = ParameterRange::Tuple(p.key, r.PyNum(p.value[0], what + "[0]"), r.PyNum(p.value[1], what + "[1]"),
                                        r.Number(p.value[2], what + "[2]"));
        } else if (p.value.IsMap()) {
          const Section m = r.Map(p.value, what, {"values"});
          const Entry* v = m.Find("values");
          if (!v) r.Fail(p.value, what + " expects [begin, end, n] or {values: [...]}");
          const YAML::Node& seq = r.Sequence(v->value, what + ".values");
          std::vector<PyNumber> vals;
          for (size_t k = 0; k < seq.size(); ++k) vals.push_back(r.PyNum(seq[k], what + ".values[" + std::to_string(k) + "]"));
          range = ParameterRange::List(p.key, vals);
        } else {
          r.Fail(p.value, what + " expects [begin, end, n] or {values: [...]}, got " + Got(p.value));
        }
        try {
          ParameterGrid g({range}, s.useLogSpace);
        } catch (const ValidationError& err) {
          fail(p.value, err);
        }
        s.ranges.push_back(range);
      }
      try {
        ParameterGrid g(s.ranges, s.useLogSpace);
      } catch (const ValidationError& err) {
        fail(params->value, err);
      }
      if (s.chunkSize == 0) r.Fail(sec.Find("chunkSize")->value, "study.chunkSize = 0 violates PInt (must be > 0)");
      break;
    }
    case StudyType::Sampling: {
      for (const auto& p : ps.entries) {
        const auto [lo, hi] = ReadPair(r, p.value, "study.parameters." + p.key, "[lower, upper]");
        s.bounds.push_back(ParameterBounds{p.key, lo, hi});
        if (!csvDesign) {
          try {
            ValidateBounds({s.bounds.back()});
          } catch (const ValidationError& err) {
            fail(p.value, err);
          }
        }
      }
      if (s.chunkSize == 0) r.Fail(sec.Find("chunkSize")->value, "study.chunkSize = 0 violates PInt (must be > 0)");
      if (csvDesign) {
        const Entry* f = sec.Find("designFile");
        if (!f) r.Fail(node, "study: design = csv needs 'designFile'");
        s.designFile = ResolvePath(directory, s.designFile);
        std::vector<std::string> names;
        for (const auto& b : s.bounds) names.push_back(b.name);
        Design d;
        if (readDataFiles) try {
            d = ReadDesignCsv(s.designFile, names);
          } catch (const ValidationError& err) {
            fail(f->value, err);
          }
        if (s.bounds.empty()) {  // names from the file's header; bounds = the columns' ranges
          for (size_t k = 0; k < d.Dimension(); ++k) {
            ParameterBounds b{d.names[k], HUGE_VAL, -HUGE_VAL};
            for (size_t i = 0; i < d.Count(); ++i) b.lower = std::min(b.lower, d.At(i, k)), b.upper = std::max(b.upper, d.At(i, k));
            Entry en{b.name, f->value, f->value};
            CheckStudyParameter(r, en, declared, layout);
            s.bounds.push_back(b);
          }
        }
        s.count = d.Count();
      } else {
        if (const Entry* f = sec.Find("designFile"))
          r.Fail(f->keyNode, "study: designFile is only used with design: csv (design is '" + s.design + "')");
        if (!sec.Find("count")) r.Fail(node, "study: 'count' (number of samples) is required for design " + s.design);
        if (s.count == 0) r.Fail(sec.Find("count")->value, "study.count = 0 violates PInt (must be > 0)");
        if (!s.scramble.empty() && s.design != "sobol")
          r.Fail(sec.Find("scramble")->keyNode, "study: scramble is only used with design: sobol");
        if (s.design == "sobol" && s.bounds.size() > SobolSequence::kMaxDimension)
          r.Fail(params->value, "study: a sobol design has at most " + std::to_string(SobolSequence::kMaxDimension) +
                                    " parameters, got " + std::to_string(s.bounds.size()));
      }
      break;
    }
    case StudyType::GeneticOptimization:
    case StudyType::Identification: {
      if (st.type == StudyType::Identification) {
        if (const Entry* g = sec.Find("genetic")) {
          const std::vector<Setting> tree = GeneticTree(s);
          TreeReader tr(r, tree, "study.genetic", "option");
          tr.Read(g->value);
        }
        if (const Entry* q = sec.Find("refinement")) {
          static const std::vector<std::string> methods = {"NelderMead", "none"};
          if (q->value.IsScalar()) {
            s.identification.refinement = methods[r.Choice(q->value, "study.refinement", methods)];
          } else {
            IdentificationOptions& io = s.identification;
            const std::vector<Setting> tree = {
                Setting{"refinement",
                        [&io](const Reader& rr, const YAML::Node& v, const std::string& w) {
                          io.refinement = methods[rr.Choice(v, w, methods)];
                        },
                        {}},
                IntS("maxIterations", io.maxIterations), DoubleS("tolerance", io.tolerance),
                DoubleS("initialStep", io.initialStep)};
            TreeReader tr(r, tree, "study.refinement", "option");
            tr.Read(q->value);
            if (io.maxIterations < 0) r.Fail(q->value, "study.refinement.maxIterations violates UInt (must be >= 0)");
            if (!(io.tolerance >= 0)) r.Fail(q->value, "study.refinement.tolerance violates UReal (must be >= 0)");
            if (!(io.initialStep > 0)) r.Fail(q->value, "study.refinement.initialStep violates PReal (must be > 0)");
          }
        }
        const Entry* m = sec.Find("measured");
        if (!m) r.Fail(node, "study: an Identification needs 'measured' (a list of measured channels)");
        const YAML::Node& list = r.Sequence(m->value, "study.measured");
        if (list.size() == 0) r.Fail(m->value, "study.measured must list at least one channel");
        for (size_t i = 0; i < list.size(); ++i) {
          const std::string ctx = "study.measured[" + std::to_string(i) + "]";
          const Section c = r.Map(list[i], ctx, {"sensor", "component", "file", "column", "columnName", "weight"});
          MeasuredChannel ch;
          const Entry* se = c.Find("sensor");
          if (!se) r.Fail(list[i], ctx + ": 'sensor' is required");
          SensorIndexOf(r, se->value, ctx + ".sensor", sensorNames);
          ch.sensor = Trim(se->value.Scalar());
          if (const Entry* q = c.Find("component")) ch.component = r.Int(q->value, ctx + ".component");
          const Entry* fe = c.Find("file");
          if (!fe) r.Fail(list[i], ctx + ": 'file' (the measured CSV file) is required");
          ch.file = ResolvePath(directory, r.String(fe->value, ctx + ".file"));
          if (const Entry* q = c.Find("column")) ch.column = r.Int(q->value, ctx + ".column");
          if (const Entry* q = c.Find("columnName")) ch.columnName = r.String(q->value, ctx + ".columnName");
          if (const Entry* q = c.Find("weight")) ch.weight = r.Number(q->value, ctx + ".weight");
          if (ch.component < 0) r.Fail(c.Find("component")->value, ctx + ".component violates UInt (must be >= 0)");
          if (!(ch.weight >= 0) || !std::isfinite(ch.weight))
            r.Fail(c.Find("weight")->value, ctx + ".weight = " + FormatReal(ch.weight) + " violates UReal (must be >= 0)");
          if (readDataFiles) try {
              ReadSignalCsv(ch.file, ch.column, ch.columnName);
            } catch (const ValidationError& err) {
              fail(fe->value, err);
            }
          s.measured.push_back(ch);
        }
      }
      for (const auto& p : ps.entries) {
        const auto [lo, hi] = ReadPair(r, p.value, "study.parameters." + p.key, "[min, max]");
        PyNumber a, b;  // ints as Python reads them, for the results file's ranges line
        ParsePyNumber(p.value[0].Scalar(), a);
        ParsePyNumber(p.value[1].Scalar(), b);
        s.geneticParameters.push_back(GeneticParameter{p.key, lo, hi, a.isInt, b.isInt});
        try {
          ValidateGeneticSetup({s.geneticParameters.back()}, GeneticOptions{});
        } catch (const ValidationError& err) {
          fail(p.value, err);
        }
      }
      try {
        GeneticOptions g = s.genetic;
        ValidateGeneticSetup(s.geneticParameters, g);
      } catch (const ValidationError& err) {
        // Point at the option the message names (the longest matching key), else the study.
        YAML::Node where = node;
        size_t best = 0;
        const std::string msg = err.what();
        const Section* opts = &sec;
        Section genetic;
        if (const Entry* g = sec.Find("genetic"); g && st.type == StudyType::Identification) {
          genetic = r.Map(g->value, "study.genetic", {});
          opts = &genetic;
          where = g->value;
        }
        for (const auto& en : opts->entries)
          if (en.key.size() > best && en.key != "parameters" && en.key != "type" &&
              msg.find(en.key + " =") != std::string::npos)
            best = en.key.size(), where = en.value;
        fail(where, err);
      }
      break;
    }
    case StudyType::Sensitivity: {
      for (const auto& p : ps.entries) {
        const std::string what = "study.parameters." + p.key;
        SensitivityParameter sp;
        sp.name = p.key;
        if (p.value.IsScalar()) {
          sp.ref = r.Number(p.value, what);
        } else if (p.value.IsSequence() && (p.value.size() == 2 || p.value.size() == 3)) {
          sp.ref = r.Number(p.value[0], what + "[0]");
          sp.relStep = r.Number(p.value[1], what + "[1]");
          if (p.value.size() == 3) sp.n = r.Int(p.value[2], what + "[2]");
        } else {
          r.Fail(p.value, what + " expects ref, [ref, relStep] or [ref, relStep, n], got " + Got(p.value));
        }
        try {
          SensitivityPointsFor({sp});
        } catch (const ValidationError& err) {
          fail(p.value, err);
        }
        s.sensitivityParameters.push_back(sp);
      }
      break;
    }
    case StudyType::None: break;
  }
}

}  // namespace

// ----------------------------------------------------------------------------------------
// Public functions
// ----------------------------------------------------------------------------------------

StudyFile ParseStudyText(const std::string& text, const std::string& name, const std::string& directory,
                         bool readDataFiles) {
  StudyFile f;
  f.path = name;
  f.directory = directory;
  f.source = text;
  const Reader r(name);
  const YAML::Node root = LoadYaml(text, name);
  const Section top = TopLevel(r, root);

  f.parameters = ReadParameters(r, top);
  std::vector<std::string> sensorNames;
  f.model = BuildModel(r, top, f.parameters, &f.expressions, &sensorNames);

  if (const Entry* e = top.Find("solver")) {
    static const std::vector<std::string> names = SolverNames();
    f.solver = static_cast<DynamicSolverType>(r.Choice(e->value, "solver", names));
  }
  if (const Entry* e = top.Find("simulationSettings")) {
    const std::vector<Setting> tree = SettingsTree(f.settings);
    TreeReader tr(r, tree, "simulationSettings", "setting");
    tr.Read(e->value);
    try {
      ValidateSettings(f.settings, false);
      ValidateSettings(f.settings, true);
    } catch (const ValidationError& err) {
      FailSetting(r, tr, e->value, err.what());
    }
  }

  // Compile once to check objectives and study parameter paths against the layout.
  std::optional<Layout> layout;
  std::vector<Real> theta;
  try {
    layout = f.model.Compile();
    theta = f.model.Theta0();
  } catch (const ValidationError& err) {
    r.Fail(top.Find("model")->value, err.what());
  }
  ReadObjectives(r, top, directory, readDataFiles, sensorNames, &*layout, theta, f.objectives);
  ReadStudy(r, top, directory, readDataFiles, f.parameters, &*layout, sensorNames, f.objectives, f.study);

  // Every expression names a theta slot of the compiled layout.
  for (const auto& x : f.expressions) {
    try {
      layout->ThetaIndex(x.path);
    } catch (const ValidationError& err) {
      throw StudyFileError(x.where, std::string("internal error: expression path not in the layout: ") + err.what());
    }
  }
  return f;
}

StudyFile LoadStudyFile(const std::string& path, bool readDataFiles) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw StudyFileError(FilePosition{path, 0, 0}, "cannot open the file for reading");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  return ParseStudyText(ss.str(), path, dir, readDataFiles);
}

std::vector<NamedParameter> WithOverrides(const std::vector<NamedParameter>& parameters,
                                          const std::vector<std::string>& overrides) {
  std::vector<NamedParameter> out = parameters;
  std::vector<std::string> names;
  for (const auto& p : parameters) names.push_back(p.name);
  const FilePosition cmd{"command line", 0, 0};
  for (const auto& o : overrides) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos)
      throw StudyFileError(cmd, "parameter override '" + o + "' must have the form name=value");
    const std::string name = Trim(o.substr(0, eq));
    const std::string text = Trim(o.substr(eq + 1));
    double v = 0;
    if (!ParseNumber(text, v) || !std::isfinite(v))
      throw StudyFileError(cmd, "parameter override '" + o + "': '" + text + "' is not a finite number");
    bool found = false;
    for (auto& p : out)
      if (p.name == name) p.value = v, found = true;
    if (!found)
      throw StudyFileError(cmd, "parameter override '" + o + "': '" + name + "' is not a parameter of the file (" +
                                    JoinNames(names) + ")" + Suggestion(name, names, false));
  }
  return out;
}

Model BuildModelAt(const StudyFile& file, const std::vector<NamedParameter>& values) {
  std::vector<NamedParameter> v = file.parameters;
  std::vector<std::string> names;
  for (const auto& p : file.parameters) names.push_back(p.name);
  for (const auto& x : values) {
    bool found = false;
    for (auto& p : v)
      if (p.name == x.name) p.value = x.value, found = true;
    if (!found)
      throw StudyFileError(x.where.file.empty() ? FilePosition{file.path, 0, 0} : x.where,
                           "'" + x.name + "' is not a parameter of the file (" + JoinNames(names) + ")" +
                               Suggestion(x.name, names, false));
  }
  const Reader r(file.path);
  const YAML::Node root = LoadYaml(file.source, file.path);
  const Section top = TopLevel(r, root);
  return BuildModel(r, top, v, nullptr, nullptr);
}

StudyMapping MakeStudyMapping(const StudyFile& file, const Layout& layout, ParameterMap& map) {
  StudyMapping m;
  const FilePosition where = file.study.where.file.empty() ? FilePosition{file.path, 0, 0} : file.study.where;
  for (const auto& p : file.parameters) {
    m.mapParameters.push_back(p.name);
    m.nominal.push_back(p.value);
  }
  const std::vector<std::string> study = file.study.ParameterNames();
  std::vector<std::pair<std::string, std::string>> bindings;  // (path, map name)
  for (const auto& name : study) {
    int col = -1;
    for (size_t k = 0; k < file.parameters.size(); ++k)
      if (file.parameters[k].name == name) col = static_cast<int>(k);
    if (col < 0) {
      int idx = -1;
      try {
        idx = layout.ThetaIndex(name);
      } catch (const ValidationError& e) {
        throw StudyFileError(where, "study parameter '" + name + "': " + e.what());
      }
      for (const auto& x : file.expressions)
        if (x.path == name)
          throw StudyFileError(x.where, "study parameter '" + name + "' is defined in the model by the expression '" +
                                            x.expression + "'; vary the parameters of the expression instead");
      col = static_cast<int>(m.mapParameters.size());
      m.mapParameters.push_back(MangledPath(name));
      m.nominal.push_back(map.Theta0()[static_cast<size_t>(idx)]);
      bindings.emplace_back(name, MangledPath(name));
    }
    m.studyColumn.push_back(col);
  }
  try {
    map.SetParameters(m.mapParameters);
    for (const auto& [path, name] : bindings) map.Bind(path, name);
  } catch (const ValidationError& e) {
    throw StudyFileError(where, e.what());
  }
  for (const auto& x : file.expressions) {
    try {
      map.Define(x.path, x.expression);
    } catch (const ValidationError& e) {
      throw StudyFileError(x.where, e.what());
    }
  }
  return m;
}

std::vector<double> StudyRows(const StudyMapping& mapping, const std::vector<std::vector<double>>& points) {
  const size_t n = mapping.nominal.size();
  std::vector<double> rows;
  rows.reserve(points.size() * n);
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i].size() != mapping.studyColumn.size())
      throw ValidationError("StudyRows: point " + std::to_string(i) + " has " + std::to_string(points[i].size()) +
                            " values but the study has " + std::to_string(mapping.studyColumn.size()) + " parameters");
    const size_t at = rows.size();
    rows.insert(rows.end(), mapping.nominal.begin(), mapping.nominal.end());
    for (size_t k = 0; k < points[i].size(); ++k) rows[at + static_cast<size_t>(mapping.studyColumn[k])] = points[i][k];
  }
  return rows;
}

}  // namespace mbsweep
