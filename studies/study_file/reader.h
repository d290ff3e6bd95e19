/// @file reader.h
/// The study-file reader's shared parts (internal to studies/study_file/ and
/// studies/study_file.cpp): YAML map entries with positions, typed scalars with
/// file:line:column errors, name suggestions, settings/option tables and the tree reader, and
/// the readers of each section of a study file:
///   model_reader.cpp       parameters: and model:
///   settings_reader.cpp    solver: and simulationSettings:
///   objectives_reader.cpp  objectives:
///   study_reader.cpp       study: (the dispatcher), with one reader per study type in
///                          variation_spec.cpp, sampling_spec.cpp, genetic_spec.cpp,
///                          sensitivity_spec.cpp and identification_spec.cpp.
/// Every reader throws StudyFileError (study_file.h) naming the position of the offending value.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/rules.h"
#include "studies/study_file.h"

namespace mbsweep::study_reader {

// ----------------------------------------------------------------------------------------
// Names, paths and scalars
// ----------------------------------------------------------------------------------------

/// The candidate closest to `word` by edit distance (first of equals); empty if none.
std::string Closest(const std::string& word, const std::vector<std::string>& candidates);
/// True if `candidate` is close enough to `word` to be suggested for it (edit distance at
/// most max(2, |word|/3)).
bool IsClose(const std::string& word, const std::string& candidate);
/// "; did you mean 'x'?" for the closest candidate when it is close; otherwise, with
/// `listIfFar`, "; valid: a, b, c" (nothing if there are no candidates).
std::string Suggestion(const std::string& word, const std::vector<std::string>& candidates, bool listIfFar = true);
/// "a, b, c" ("none" for no names).
std::string JoinNames(const std::vector<std::string>& names);
/// Letters, digits and '_', not starting with a digit.
bool IsIdentifier(const std::string& n);
/// Name of the map parameter that binds a theta path directly ('.', '[', ']' become '_').
std::string MangledPath(const std::string& path);
/// `p` relative to `directory` unless it is absolute (or directory is empty or ".").
std::string ResolvePath(const std::string& directory, const std::string& p);
/// Parses a decimal number (also YAML's .inf/.nan and Python's inf/nan); no hex.
bool ParseNumber(const std::string& text, double& out);
/// A YAML number as Python reads it: an int if written without '.', 'e', 'E', nan or inf.
bool ParsePyNumber(const std::string& text, PyNumber& out);
/// "nothing", "a list", "a map" or "a scalar".
const char* KindOfNode(const YAML::Node& n);
/// What a node holds, for "got ..." in messages.
std::string Got(const YAML::Node& n);

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
// Settings and option tables
// ----------------------------------------------------------------------------------------

/// One setting or option: a leaf with a reader, or a group of settings.
struct Setting {
  std::string name;
  std::function<void(const Reader&, const YAML::Node&, const std::string&)> read;  ///< leaf
  std::vector<Setting> children;                                                   ///< group
  bool IsGroup() const { return !read; }
};

/// A leaf setting that reads its value into `x`.
Setting RealS(const char* n, Real& x);
Setting IntS(const char* n, int& x);
Setting BoolS(const char* n, bool& x);
Setting StringS(const char* n, std::string& x);
Setting UInt64S(const char* n, std::uint64_t& x);
Setting DoubleS(const char* n, double& x);
/// A group of settings.
Setting Group(const char* n, std::vector<Setting> children);

/// Every leaf path of a tree ("a.b.c"), for suggestions.
void LeafPaths(const std::vector<Setting>& level, const std::string& prefix, std::vector<std::string>& out);

/// Reads the map `node` against a settings/options tree. Keys may be nested maps or dotted
/// paths ("timeIntegration.newton.relativeTolerance: 1e-6"). `label` names the section in
/// messages ("simulationSettings"); `seen` receives each given leaf path with its value.
class TreeReader {
 public:
  /// `aliases`: (old path, current path) pairs; a value given under an old path (or inside an
  /// old group, such as Exudyn's solutionSettings) is read as the current one.
  TreeReader(const Reader& r, const std::vector<Setting>& root, std::string label, std::string kind,
             std::vector<std::pair<std::string, std::string>> aliases = {})
      : r_(r), root_(root), label_(std::move(label)), kind_(std::move(kind)), aliases_(std::move(aliases)) {
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
    if (!found && ApplyAlias(prefix + key, keyNode, value)) return;
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

  /// A value under an old path: an old leaf is read at its current path, an old group's
  /// entries each as their old paths. False if `path` is neither.
  bool ApplyAlias(const std::string& path, const YAML::Node& keyNode, const YAML::Node& value) {
    bool group = false;
    for (const auto& [old, current] : aliases_) {
      if (old == path) {
        Apply(root_, "", current, keyNode, value);
        return true;
      }
      group = group || old.compare(0, path.size() + 1, path + ".") == 0;
    }
    if (!group) return false;
    for (const auto& e : r_.Map(value, label_ + "." + path, {}).entries)
      if (!ApplyAlias(path + "." + e.key, e.keyNode, e.value)) {
        std::vector<std::string> olds;
        for (const auto& a : aliases_) olds.push_back(a.first);
        r_.Fail(e.keyNode, "unknown " + kind_ + " '" + path + "." + e.key + "' in " + label_ +
                               Suggestion(path + "." + e.key, olds, false));
      }
    return true;
  }

  const Reader& r_;
  const std::vector<Setting>& root_;
  std::string label_, kind_;
  std::vector<std::pair<std::string, std::string>> aliases_;
  std::vector<std::string> leaves_;
};

/// Maps a ValidationError about a setting to the position of the setting's value.
[[noreturn]] void FailSetting(const Reader& r, const TreeReader& t, const YAML::Node& section, const std::string& msg);

// ----------------------------------------------------------------------------------------
// The sections of a study file
// ----------------------------------------------------------------------------------------

/// The YAML document of `text` (StudyFileError "malformed YAML: ..." with its position).
YAML::Node LoadYaml(const std::string& text, const std::string& name);
/// The top-level map, checked for unknown keys (a missing or empty document is an error).
Section TopLevel(const Reader& r, const YAML::Node& root);

/// `parameters:` (named parameters with nominal values).
std::vector<NamedParameter> ReadParameters(const Reader& r, const Section& top);
/// `model:` built at `values`; records the fields given as expressions, the sensor names and
/// the warnings (visualization fields ignored) when the pointers are given.
Model BuildModel(const Reader& r, const Section& top, const std::vector<NamedParameter>& values,
                 std::vector<FieldExpression>* expressions, std::vector<std::string>* sensorNames,
                 std::vector<std::string>* warnings = nullptr);

/// A parameter path ("massPoint.physicsMass[0]") with a field name from before Exudyn
/// 1.12.258 replaced by the current one ("massPoint.mass[0]"); other paths unchanged.
std::string CurrentFieldPath(const std::string& path);

/// `solver:` and `simulationSettings:` into the file (settings validated).
void ReadSolverAndSettings(const Reader& r, const Section& top, StudyFile& f);

/// Sensor by name or index (objectives, measured channels).
int SensorIndexOf(const Reader& r, const YAML::Node& v, const std::string& what, const std::vector<std::string>& names);
/// `objectives:`, each objective checked against the compiled layout when `layout` is given.
void ReadObjectives(const Reader& r, const Section& top, const std::string& directory, bool readDataFiles,
                    const std::vector<std::string>& sensorNames, const Layout* layout, const std::vector<Real>& theta,
                    ObjectiveSetDescription& out);
/// Value names of an objective set (objective names, then weightedSum).
std::vector<std::string> ObjectiveValueNames(const ObjectiveSetDescription& d);

}  // namespace mbsweep::study_reader
