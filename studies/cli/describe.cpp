// mbsweep describe: the item types, or one item's fields (kind, rule, default, earlier name)
// and the outputs its sensors may ask for, read from the item definitions (commands.h).
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "common/items.h"
#include "common/rules.h"
#include "studies/cli/commands.h"
#include "studies/study_file/reader.h"

namespace mbsweep::cli {

namespace {

std::string Number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}
template <class C> std::string List(const C& c) {
  std::string s = "[";
  for (const auto& x : c) s += (s.size() > 1 ? ", " : "") + Number(static_cast<double>(x));
  return s + "]";
}
std::string RuleText(Rule r) { return std::string(RuleName(r)) + " (" + RuleCondition(r) + ")"; }

template <class Tag> const char* IndexKind() {
  if constexpr (std::is_same_v<Tag, NodeTag>) return "node (name or index)";
  else if constexpr (std::is_same_v<Tag, ObjectTag>) return "object (name or index)";
  else if constexpr (std::is_same_v<Tag, MarkerTag>) return "marker (name or index)";
  else if constexpr (std::is_same_v<Tag, LoadTag>) return "load (name or index)";
  else return "sensor (name or index)";
}

/// One line per field: name, kind, rule, default.
struct FieldTable {
  struct Row {
    std::string name, kind, rule, value;
  };
  std::vector<Row> rows;

  void operator()(const char* n, Real& x, Rule r) { rows.push_back({n, "Real", RuleText(r), Number(x)}); }
  template <size_t N> void operator()(const char* n, std::array<Real, N>& a, Rule r) {
    rows.push_back({n, "Vector" + std::to_string(N) + "D", RuleText(r), List(a)});
  }
  void operator()(const char* n, Vector& a, Rule r) {
    rows.push_back({n, "Vector (any length)", RuleText(r), List(a)});
  }
  void operator()(const char* n, Matrix3D& m) { rows.push_back({n, "Matrix3D (rows)", "", List(m.data)}); }
  void operator()(const char* n, Matrix6D& m) { rows.push_back({n, "Matrix6D (rows)", "", List(m.data)}); }
  void operator()(const char* n, Matrix&) { rows.push_back({n, "Matrix (list of rows)", "", "[]"}); }
  void operator()(const char* n, TimeFunction&) {
    rows.push_back({n, "time function", "Constant, Harmonic, Sweep, Ramp, Step, Table or an expression of t", "Constant"});
  }
  void operator()(const char* n, UserFunction&, const char* args, int components = 1) {
    rows.push_back({n, "user function",
                    (components == 1 ? std::string("an expression of ")
                                     : "a list of " + std::to_string(components) + " expressions of ") +
                        args,
                    "none"});
  }
  void operator()(const char* n, bool& x) { rows.push_back({n, "bool", "", x ? "true" : "false"}); }
  void operator()(const char* n, int& x, Rule r) { rows.push_back({n, "int", RuleText(r), std::to_string(x)}); }
  template <size_t N> void operator()(const char* n, std::array<int, N>& a) {
    rows.push_back({n, std::to_string(N) + " integers", "", List(a)});
  }
  template <class Tag> void operator()(const char* n, TypedIndex<Tag>&) {
    rows.push_back({n, IndexKind<Tag>(), "", "required"});
  }
  void operator()(const char* n, std::vector<NodeIndex>&) {
    rows.push_back({n, "nodes (names or indices)", "", "required"});
  }
  void operator()(const char* n, std::array<MarkerIndex, 2>&) {
    rows.push_back({n, "2 markers (names or indices)", "", "required"});
  }
  void operator()(const char* n, OutputVariableType& t) {
    rows.push_back({n, "OutputVariableType", "", OutputVariableTypeName(t)});
  }
  void operator()(const char* n, std::string& s) { rows.push_back({n, "text", "", s.empty() ? "''" : s}); }
};

struct TypeInfo {
  std::string name, shortName, category;
  void (*print)();
};

std::string Join(const OutputVariableType* begin, const OutputVariableType* end) {
  std::string s;
  for (const OutputVariableType* t = begin; t != end; ++t)
    s += (s.empty() ? "" : ", ") + std::string(OutputVariableTypeName(*t));
  return s;
}
/// What a SensorObject (outputs) and a SensorBody (bodyOutputs) may ask of the item; "" if nothing.
template <class T, class = void> struct Outputs {
  static std::string Of() { return ""; }
};
template <class T> struct Outputs<T, std::void_t<decltype(T::outputs)>> {
  static std::string Of() { return Join(std::begin(T::outputs), std::end(T::outputs)); }
};
template <class T, class = void> struct BodyOutputs {
  static std::string Of() { return ""; }
};
template <class T> struct BodyOutputs<T, std::void_t<decltype(T::bodyOutputs)>> {
  static std::string Of() { return Join(std::begin(T::bodyOutputs), std::end(T::bodyOutputs)); }
};

template <class T> void PrintItem() {
  T item{};
  FieldTable table;
  table.rows.push_back({"name", "text", "unique per category", "<category><index>"});
  item.Fields(table);
  std::printf("%s", T::typeName);
  if (const char* s = ItemShortName<T>::value) std::printf(" (short name %s)", s);
  std::printf("\n\nfields:\n");
  size_t w[3] = {0, 0, 0};
  for (const auto& r : table.rows) {
    w[0] = std::max(w[0], r.name.size());
    w[1] = std::max(w[1], r.kind.size());
    w[2] = std::max(w[2], r.rule.size());
  }
  std::printf("  %-*s  %-*s  %-*s  %s\n", static_cast<int>(w[0]), "field", static_cast<int>(w[1]), "kind",
              static_cast<int>(w[2]), "rule", "default");
  for (const auto& r : table.rows)
    std::printf("  %-*s  %-*s  %-*s  %s\n", static_cast<int>(w[0]), r.name.c_str(), static_cast<int>(w[1]),
                r.kind.c_str(), static_cast<int>(w[2]), r.rule.c_str(), r.value.c_str());
  bool first = true;
  for (const FieldAlias& a : ItemFieldAliases<T>()) {
    std::printf("%s  %s: read as %s\n", first ? "\nnames before Exudyn 1.12.258:\n" : "", a.old, a.current);
    first = false;
  }
  if (!Outputs<T>::Of().empty()) std::printf("\nSensorObject outputVariableType: %s\n", Outputs<T>::Of().c_str());
  if (!BodyOutputs<T>::Of().empty()) std::printf("\nSensorBody outputVariableType: %s\n", BodyOutputs<T>::Of().c_str());
}

std::vector<TypeInfo> Types() {
  std::vector<TypeInfo> t;
  ForEachItemType([&t](auto item, const char* category) {
    using T = decltype(item);
    const char* shortName = ItemShortName<T>::value;
    t.push_back(TypeInfo{T::typeName, shortName ? shortName : "", std::string(category) + "s", &PrintItem<T>});
  });
  return t;
}

}  // namespace

int RunDescribe(const Options& o) {
  const std::vector<TypeInfo> types = Types();
  if (o.item.empty()) {
    std::string category;
    for (const auto& t : types) {
      if (t.category != category) {
        std::printf("%s%s:\n", category.empty() ? "" : "\n", t.category.c_str());
        category = t.category;
      }
      std::printf("  %s%s\n", t.name.c_str(), t.shortName.empty() ? "" : (" (" + t.shortName + ")").c_str());
    }
    std::printf("\nmbsweep describe ITEM lists an item's fields, rules, defaults and outputs.\n");
    return 0;
  }
  std::vector<std::string> names;
  for (const auto& t : types) {
    if (o.item == t.name || o.item == t.shortName) {
      t.print();
      return 0;
    }
    names.push_back(t.name);
    if (!t.shortName.empty()) names.push_back(t.shortName);
  }
  throw ValidationError("describe: '" + o.item + "' is not an item type" +
                        study_reader::Suggestion(o.item, names, false) + " (mbsweep describe lists them)");
}

}  // namespace mbsweep::cli
