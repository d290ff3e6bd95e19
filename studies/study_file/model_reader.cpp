// The model reader (reader.h): `parameters:` and `model:` (items in Exudyn's names, Real
// fields as numbers or muParser expressions of the parameters, references by name or index).
#include "studies/study_file/reader.h"

#include <muParser.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <type_traits>
#include <variant>

#include "common/expression_compiler.h"

namespace mbsweep::study_reader {

namespace {

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
      DefineExpressionConstants(p);
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

/// The category an item type belongs to.
template <class T> constexpr Category CategoryOfItem() {
  if constexpr (IsAlternative<T, NodeItem>::value) return Category::Node;
  else if constexpr (IsAlternative<T, ObjectItem>::value) return Category::Object;
  else if constexpr (IsAlternative<T, MarkerItem>::value) return Category::Marker;
  else if constexpr (IsAlternative<T, LoadItem>::value) return Category::Load;
  else {
    static_assert(IsAlternative<T, SensorItem>::value, "an item type");
    return Category::Sensor;
  }
}

/// Valid keys of a time function of each type ("type" first).
std::vector<std::string> TimeFunctionKeys(const std::string& type) {
  if (type == "Harmonic") return {"type", "amplitude", "angularFrequency", "phase", "offset"};
  if (type == "Sweep") return {"type", "amplitude", "startFrequency", "endFrequency", "duration"};
  if (type == "Ramp") return {"type", "startTime", "endTime", "startValue", "endValue"};
  if (type == "Step") return {"type", "startTime", "startValue", "endValue"};
  if (type == "Table") return {"type", "times", "values"};
  if (type == "Expression") return {"type", "expression", "parameters"};
  return {"type"};
}
const std::vector<std::string> kTimeFunctionTypes = {"Constant", "Harmonic", "Sweep", "Ramp", "Step", "Table",
                                                     "Expression"};

/// Whether `text` has `name` as a whole identifier.
bool NamesIdentifier(const std::string& text, const std::string& name) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t k = text.find(name); k != std::string::npos; k = text.find(name, k + 1))
    if ((k == 0 || !ident(text[k - 1])) && (k + name.size() == text.size() || !ident(text[k + name.size()])))
      return true;
  return false;
}

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
      : r_(r), eval_(r, parameters), parameters_(parameters), expressions_(expressions) {}

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
  const std::vector<NamedParameter>& StudyParameters() const { return parameters_; }
  /// A theta slot that holds the study parameter `name` (an Expression's parameter).
  void AddParameterSlot(const std::string& path, const std::string& name, const YAML::Node& where) {
    if (expressions_) expressions_->push_back(FieldExpression{path, name, r_.Pos(where)});
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

  /// Visualization fields given in the model (ignored), for the one warning.
  const std::vector<std::string>& IgnoredVisualization() const { return ignoredVisualization_; }

 private:
  template <class T> void BuildItem(const YAML::Node& typeKey, const YAML::Node& fields);
  /// The fields of an item of `type`: a field's name before Exudyn 1.12.258 is read as its
  /// current one, visualization fields (`visualization`, `Vshow`, `Vcolor`, ...) are left out
  /// (and noted), any other key that is not in `valid` is an error.
  template <class Aliases>
  Section ItemFields(const YAML::Node& node, const std::string& type, const std::vector<std::string>& valid,
                     Aliases aliases) {
    const Section given = r_.Map(node, type, {});
    Section s;
    s.node = node;
    for (Entry e : given.entries) {
      for (const FieldAlias& a : aliases)
        if (e.key == a.old) e.key = a.current;
      if (std::find(valid.begin(), valid.end(), e.key) == valid.end()) {
        if (IsVisualizationField(e.key)) {
          if (std::find(ignoredVisualization_.begin(), ignoredVisualization_.end(), e.key) ==
              ignoredVisualization_.end())
            ignoredVisualization_.push_back(e.key);
          continue;
        }
        r_.Fail(e.keyNode, "unknown field '" + e.key + "' of " + type + FieldSuggestion(e.key, valid, aliases));
      }
      if (const Entry* twice = s.Find(e.key)) {
        const std::string old = e.keyNode.Scalar() == e.key ? twice->keyNode.Scalar() : e.keyNode.Scalar();
        r_.Fail(e.keyNode, type + ": '" + old + "' is the field '" + e.key +
                               "' under its name before Exudyn 1.12.258; give the field once");
      }
      s.entries.push_back(e);
    }
    return s;
  }
  /// "; did you mean 'mass'?" also for a misspelled earlier name ('physicsMas').
  template <class Aliases>
  static std::string FieldSuggestion(const std::string& key, const std::vector<std::string>& valid, Aliases aliases) {
    std::vector<std::string> names = valid;
    for (const FieldAlias& a : aliases) names.emplace_back(a.old);
    const std::string near = Closest(key, names);
    if (!IsClose(key, near)) return Suggestion(key, valid);
    for (const FieldAlias& a : aliases)
      if (near == a.old) return "; did you mean '" + std::string(a.current) + "'?";
    return "; did you mean '" + near + "'?";
  }
  /// Exudyn's visualization fields: `visualization` and the V-prefixed keys of its item dicts.
  static bool IsVisualizationField(const std::string& key) {
    return key == "visualization" || (key.size() > 1 && key[0] == 'V' && std::islower(static_cast<unsigned char>(key[1])));
  }
  using BuildFn = void (ModelBuilder::*)(const YAML::Node&, const YAML::Node&);
  struct TypeEntry {
    std::string name;
    const char* shortName;  ///< Exudyn's short name, or nullptr
    BuildFn build;
  };
  static const std::vector<TypeEntry>& Types() {
    static const std::vector<TypeEntry> types = [] {
      std::vector<TypeEntry> t;
      ForEachItemType([&t](auto item, const char*) {
        using T = decltype(item);
        t.push_back(TypeEntry{T::typeName, ItemShortName<T>::value, &ModelBuilder::BuildItem<T>});
      });
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
  std::vector<NamedParameter> parameters_;
  std::vector<FieldExpression>* expressions_;
  Model model_;
  std::vector<std::string> names_[5];
  std::vector<std::string> ignoredVisualization_;
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
  /// An expression's study parameters (those of `parameters:` its text names, unless given
  /// among its own parameters) join its parameters, each a theta slot defined by the study
  /// parameter; then the text is compiled (errors at the text's position).
  void ReadExpression(const YAML::Node& node, const std::string& field, const std::string& text,
                      std::vector<std::pair<std::string, Real>>& parameters, const std::vector<std::string>& args,
                      int components = 1) {
    const std::string p = field + ".";
    for (const NamedParameter& sp : b_.StudyParameters()) {
      bool given = std::find(args.begin(), args.end(), sp.name) != args.end();
      for (const auto& q : parameters) given = given || q.first == sp.name;
      if (given || !NamesIdentifier(text, sp.name)) continue;
      parameters.emplace_back(sp.name, sp.value);
      b_.AddParameterSlot(prefix_ + p + sp.name, sp.name, node);
    }
    std::vector<std::string> names;
    for (const auto& q : parameters) names.push_back(q.first);
    try {
      CompileExpressions(text, args, names, components);
    } catch (const ExpressionError& e) {
      r_.Fail(node, What(p + "expression") + " = '" + text + "': " + e.what());
    }
  }
  /// `{expression: text, parameters: {name: value}}`'s own parameters (values: numbers or
  /// expressions of the study parameters); returns the text's node.
  const YAML::Node& ReadExpressionMap(const Section& s, const YAML::Node& v, const std::string& field,
                                      std::string& text, std::vector<std::pair<std::string, Real>>& parameters,
                                      int components = 1) {
    const std::string p = field + ".";
    const Entry* e = s.Find("expression");
    if (!e) r_.Fail(v, What(field) + " needs 'expression' (a muParser expression)");
    text = ExpressionText(e->value, p + "expression", components);
    if (const Entry* q = s.Find("parameters")) {
      const Section ps = r_.Map(q->value, What(p + "parameters"), {});
      for (const Entry& pe : ps.entries)
        parameters.emplace_back(pe.key, b_.Real(pe.value, What(p + pe.key), prefix_ + p + pe.key));
    }
    return e->value;
  }
  /// The text of a function of `components` values: a text (its values separated by commas) or,
  /// for a vector, a list of as many texts or numbers ([F*cos(w*t), F*sin(w*t), 0]).
  std::string ExpressionText(const YAML::Node& v, const std::string& field, int components) {
    if (v.IsScalar()) return v.Scalar();
    const std::string expected =
        components == 1 ? "a text" : "a list of " + std::to_string(components) + " expressions or one text";
    if (components == 1 || !v.IsSequence()) r_.Fail(v, What(field) + " expects " + expected + ", got " + Got(v));
    if (static_cast<int>(v.size()) != components)
      r_.Fail(v, What(field) + " has " + std::to_string(v.size()) + " entries, expects " + expected);
    std::string text;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].IsScalar())
        r_.Fail(v[i], What(field + "[" + std::to_string(i) + "]") + " expects an expression, got " + Got(v[i]));
      text += (i ? ", " : "") + v[i].Scalar();
    }
    return text;
  }
  void operator()(const char* n, UserFunction& f, const char* argList, int components = 1) {
    const Entry* e = fields_.Find(n);
    if (!e) return;
    const YAML::Node& v = e->value;
    f = UserFunction();
    if (v.IsNull() || (v.IsScalar() && Trim(v.Scalar()) == "0")) return;  // Exudyn's 0: none
    const YAML::Node* text = &v;
    if (v.IsMap()) {
      const Section s = r_.Map(v, What(n), {"expression", "parameters"});
      text = &ReadExpressionMap(s, v, n, f.expression, f.parameters, components);
    } else if (v.IsScalar() || v.IsSequence()) {
      f.expression = ExpressionText(v, n, components);
    } else {
      r_.Fail(v, What(n) + " expects " +
                     (components == 1 ? std::string("the text of an expression")
                                      : "a list of " + std::to_string(components) + " expressions") +
                     " of " + argList + " or {expression: ..., parameters: {name: value}}, got " + Got(v));
    }
    ReadExpression(*text, n, f.expression, f.parameters, UserFunctionArgs(argList), components);
  }
  void operator()(const char* n, TimeFunction& f) {
    const Entry* e = fields_.Find(n);
    if (!e) return;
    const std::string field = n;
    const YAML::Node& v = e->value;
    if (v.IsScalar()) {  // the text of an Expression
      if (std::find(kTimeFunctionTypes.begin(), kTimeFunctionTypes.end(), v.Scalar()) != kTimeFunctionTypes.end())
        r_.Fail(v, What(n) + " = " + v.Scalar() + ": a time function is a map ({type: " + v.Scalar() +
                       ", ...}) or the text of an expression of t");
      f = TimeFunction::Expression(v.Scalar());
      ReadExpression(v, field, f.expression, f.parameters, {"t"});
      return;
    }
    if (!v.IsMap())
      r_.Fail(v, What(n) + " expects a map with 'type' and its parameters, or an expression of t, got " + Got(v));
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
    } else if (type == "Expression") {
      f.type = TimeFunctionType::Expression;
      const YAML::Node& text = ReadExpressionMap(s, v, field, f.expression, f.parameters);
      ReadExpression(text, field, f.expression, f.parameters, {"t"});
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

template <class T> void ModelBuilder::BuildItem(const YAML::Node& typeKey, const YAML::Node& fieldsNode) {
  constexpr Category c = CategoryOfItem<T>();
  T item{};
  const std::string type = T::typeName;
  const Section fields = ItemFields(fieldsNode, type, FieldNamesOf<T>(), ItemFieldAliases<T>());
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
    if constexpr (c == Category::Node) model_.AddNode(std::move(item));
    else if constexpr (c == Category::Object) model_.AddObject(std::move(item));
    else if constexpr (c == Category::Marker) model_.AddMarker(std::move(item));
    else if constexpr (c == Category::Load) model_.AddLoad(std::move(item));
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
      if (t.name == type || (t.shortName && type == t.shortName)) found = &t;
    if (!found) {
      // the type name of Exudyn's item dicts is the full name without its category prefix
      for (const char* prefix : {"Node", "Object", "ObjectConnector", "ObjectJoint", "Marker", "Load", "Sensor"})
        for (const auto& t : typeNames)
          if (!type.empty() && t == prefix + type)
            r_.Fail(key, "unknown item type '" + type + "'; did you mean '" + t + "'?");
      r_.Fail(key, "unknown item type '" + type + "'" + Suggestion(type, typeNames, false));
    }
    (this->*(found->build))(key, it->second);
  }
}

}  // namespace

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

std::string CurrentFieldPath(const std::string& path) {
  static const std::vector<FieldAlias> aliases = [] {
    std::vector<FieldAlias> a;
    ForEachItemType([&a](auto item, const char*) {
      using T = decltype(item);
      a.insert(a.end(), ItemFieldAliases<T>::begin(), ItemFieldAliases<T>::end());
    });
    return a;
  }();
  const size_t dot = path.find('.');
  if (dot == std::string::npos) return path;
  const size_t end = path.find_first_of(".[", dot + 1);
  const std::string field = path.substr(dot + 1, end == std::string::npos ? std::string::npos : end - dot - 1);
  for (const FieldAlias& a : aliases)
    if (field == a.old) return path.substr(0, dot + 1) + a.current + (end == std::string::npos ? "" : path.substr(end));
  return path;
}

Model BuildModel(const Reader& r, const Section& top, const std::vector<NamedParameter>& values,
                 std::vector<FieldExpression>* expressions, std::vector<std::string>* sensorNames,
                 std::vector<std::string>* warnings) {
  const Entry* e = top.Find("model");
  if (!e) throw StudyFileError(FilePosition{r.File(), 0, 0}, "a 'model:' section is required");
  ModelBuilder b(r, values, expressions);
  b.Build(e->value);
  if (sensorNames) *sensorNames = b.Names(Category::Sensor);
  if (warnings && !b.IgnoredVisualization().empty())
    warnings->push_back("model: the visualization fields " + JoinNames(b.IgnoredVisualization()) +
                        " are ignored (mbsweep draws no model)");
  return b.TakeModel();
}

}  // namespace mbsweep::study_reader
