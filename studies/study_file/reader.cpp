// The study-file reader's shared parts (reader.h): names, scalars, settings tables, the
// tree reader's helpers, and the YAML document with its top-level map.
#include "studies/study_file/reader.h"

#include <algorithm>
#include <filesystem>

#include "common/expression_compiler.h"

namespace mbsweep::study_reader {

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

bool IsClose(const std::string& word, const std::string& candidate) {
  return !candidate.empty() && EditDistance(word, candidate) <= std::max<size_t>(2, word.size() / 3);
}

std::string Suggestion(const std::string& word, const std::vector<std::string>& candidates, bool listIfFar) {
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

bool IsIdentifier(const std::string& n) { return IsExpressionName(n); }

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

/// Every leaf path of a tree ("a.b.c"), for suggestions.
void LeafPaths(const std::vector<Setting>& level, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& s : level) {
    if (s.IsGroup()) LeafPaths(s.children, prefix + s.name + ".", out);
    else out.push_back(prefix + s.name);
  }
}

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

}  // namespace mbsweep::study_reader
