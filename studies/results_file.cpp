#include "studies/results_file.h"

#include <sys/utsname.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/rules.h"

namespace mbsweep {

namespace {

constexpr const char* kLine2 = "#results stored columnwise for every parameter and individual";
constexpr const char* kRangesLine =
    "#parameter ranges [format: (begin, end, numberOfVariations) or list, parameters separated with \";\"]:";

}  // namespace

std::string VersionPlatformString(const std::string& processingMode) {
  std::string s = std::string("mbsweep version = ") + kMbsweepVersion;
  struct utsname u {};
  if (uname(&u) == 0) {
    s += std::string("; ") + u.sysname + u.release;
    if (u.version[0] != '\0') s += std::string(" V") + u.version;
    s += std::string("; ") + u.machine + "; ";
  }
  if (!processingMode.empty()) s += "(processing=" + processingMode + ")";
  return s;
}

// ----------------------------------------------------------------------------------------
// Formatting
// ----------------------------------------------------------------------------------------

ResultValue ResultValue::List(const std::vector<double>& v) {
  ResultValue r;
  r.isList = true;
  for (double x : v) r.items.push_back(PyNumber::Float(x));
  return r;
}

std::string ResultValue::ToPythonString() const {
  if (isList) return PyStrList(items);
  return items.empty() ? "None" : PyStr(items[0]);
}

namespace {
bool SameNumber(const PyNumber& a, const PyNumber& b) {
  if (a.isInt != b.isInt) return false;
  if (a.isInt) return a.intValue == b.intValue;
  if (std::isnan(a.value)) return std::isnan(b.value);
  return a.value == b.value && std::signbit(a.value) == std::signbit(b.value);
}
}  // namespace

bool ResultValue::operator==(const ResultValue& o) const {
  if (isList != o.isList || items.size() != o.items.size()) return false;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (!SameNumber(items[i], o.items[i])) return false;
  return true;
}

ResultsFileHeader MakeResultsHeader(const ParameterGrid& grid, const std::string& resultsFile,
                                    const std::string& processingMode) {
  ResultsFileHeader h;
  h.fileType = "parameter variation";
  h.resultsFile = resultsFile;
  h.versionLine = VersionPlatformString(processingMode);
  for (const ParameterRange& r : grid.Ranges()) {
    h.parameterNames.push_back(r.name);
    h.parameterRanges.push_back(r.ToPythonString());
  }
  return h;
}

std::string FormatResultsHeader(const ResultsFileHeader& h) {
  std::string s = "#EXUDYN " + h.fileType + " results file:" + h.resultsFile + "\n";
  s += std::string(kLine2) + "\n";
  s += "#" + h.versionLine + "\n";
  s += h.functionData.empty() ? std::string("#\n") : "functionData:" + h.functionData + "\n";
  s += "#columns:\n";
  s += "#globalIndex,value";
  for (const auto& n : h.parameterNames) s += "," + n;
  s += ",computationIndex\n";
  s += std::string(kRangesLine) + "\n";
  s += "#";
  for (std::size_t i = 0; i < h.parameterRanges.size(); ++i) s += (i ? ";" : "") + h.parameterRanges[i];
  s += "\n";
  return s;
}

std::string FormatResultsRow(const ResultsRow& row) {
  std::string s = PyStr(row.globalIndex) + ", " + row.value.ToPythonString();
  for (const PyNumber& p : row.parameters) s += ", " + PyStr(p);
  if (row.computationIndex >= 0) s += ", " + PyStr(row.computationIndex);
  s += "\n";
  return s;
}

ResultsRow MakeGridRow(const ParameterGrid& grid, std::uint64_t flat, const ResultValue& value) {
  ResultsRow r;
  r.globalIndex = static_cast<long long>(flat);
  r.value = value;
  r.parameters = grid.PyPoint(flat);
  r.computationIndex = static_cast<long long>(flat);
  return r;
}

// ----------------------------------------------------------------------------------------
// Writer
// ----------------------------------------------------------------------------------------

ResultsFileWriter ResultsFileWriter::Create(const std::string& path, const ResultsFileHeader& header) {
  ResultsFileWriter w;
  w.out_ = OutputFile::Create(path, "results file");
  w.out_.Write(FormatResultsHeader(header));
  w.out_.Flush();
  return w;
}

ResultsFileWriter ResultsFileWriter::OpenAppend(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw ValidationError("results file '" + path + "': does not exist (cannot append)");
  ResultsFileWriter w;
  w.out_ = OutputFile::Append(path, "results file");
  return w;
}

void ResultsFileWriter::Append(const std::vector<ResultsRow>& rows) {
  std::string text;
  for (const auto& r : rows) text += FormatResultsRow(r);
  out_.Write(text);
  out_.Flush();
}

void ResultsFileWriter::Append(const ResultsRow& row) { Append(std::vector<ResultsRow>{row}); }

void ResultsFileWriter::Close() { out_.Close(); }

// ----------------------------------------------------------------------------------------
// Reader
// ----------------------------------------------------------------------------------------

namespace {

bool StartsWith(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

/// Splits at commas outside brackets/parentheses.
std::vector<std::string> SplitTopLevel(const std::string& line) {
  std::vector<std::string> f;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '[' || c == '(') ++depth;
    else if (c == ']' || c == ')') --depth;
    else if (c == ',' && depth == 0) {
      f.push_back(Trim(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  f.push_back(Trim(line.substr(start)));
  return f;
}

bool ParseNumber(const std::string& t, PyNumber& out) {
  if (t.empty()) return false;
  std::size_t i = (t[0] == '+' || t[0] == '-') ? 1 : 0;
  bool digitsOnly = i < t.size();
  for (std::size_t j = i; j < t.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(t[j]))) digitsOnly = false;
  if (digitsOnly) {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (errno == ERANGE) return false;
    out = PyNumber::Int(v);
    return true;
  }
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size()) return false;
  out = PyNumber::Float(v);
  return true;
}

bool ParseValue(const std::string& t, ResultValue& out) {
  if (t.size() >= 2 && ((t.front() == '[' && t.back() == ']') || (t.front() == '(' && t.back() == ')'))) {
    out = ResultValue{};
    out.isList = true;
    const std::string body = Trim(t.substr(1, t.size() - 2));
    if (body.empty()) return true;
    std::vector<std::string> items = SplitTopLevel(body);
    if (items.size() > 1 && items.back().empty()) items.pop_back();  // "(1.0,)"
    for (const auto& it : items) {
      PyNumber n;
      if (!ParseNumber(it, n)) return false;
      out.items.push_back(n);
    }
    return true;
  }
  PyNumber n;
  if (!ParseNumber(t, n)) return false;
  out = ResultValue{{n}, false};
  return true;
}

}  // namespace

namespace {

/// The lines of `text` without their '\n' (and a '\r' before it); a last line without '\n'
/// is kept and flagged in c.droppedIncompleteLastLine.
std::vector<std::string> SplitLines(const std::string& text, ResultsFileContents& c) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(pos));
      c.droppedIncompleteLastLine = true;
      break;
    }
    std::string l = text.substr(pos, nl - pos);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
    pos = nl + 1;
  }
  return lines;
}

/// The error at line lineIndex (0-based) of `where`.
ValidationError LineError(const std::string& where, std::size_t lineIndex, const std::string& msg) {
  return ValidationError(where + ":" + std::to_string(lineIndex + 1) + ": " + msg);
}

/// Parameter names of the '#globalIndex,value,<names>,computationIndex' line (line 6).
std::vector<std::string> ParseColumnsLine(const std::string& line, const std::string& where) {
  std::vector<std::string> cols;
  std::string s = line.substr(line.empty() ? 0 : 1);
  std::size_t start = 0;
  while (true) {
    const std::size_t cm = s.find(',', start);
    cols.push_back(Trim(s.substr(start, cm == std::string::npos ? std::string::npos : cm - start)));
    if (cm == std::string::npos) break;
    start = cm + 1;
  }
  if (!StartsWith(line, "#") || cols.size() < 3 || cols[0] != "globalIndex" || cols[1] != "value" ||
      cols.back() != "computationIndex")
    throw LineError(where, 5, "expected '#globalIndex,value,<names>,computationIndex', found '" + line + "'");
  return std::vector<std::string>(cols.begin() + 2, cols.end() - 1);
}

/// The 8 header lines.
ResultsFileHeader ParseHeader(const std::vector<std::string>& lines, const std::string& where) {
  const auto err = [&](std::size_t lineIndex, const std::string& msg) { return LineError(where, lineIndex, msg); };
  ResultsFileHeader h;
  // Line 1: #EXUDYN <fileType> results file:<resultsFile>
  const std::string marker = " results file:";
  const std::size_t m = lines[0].find(marker);
  if (!StartsWith(lines[0], "#EXUDYN ") || m == std::string::npos)
    throw err(0, "expected '#EXUDYN <type> results file:<name>', found '" + lines[0] + "'");
  h.fileType = lines[0].substr(8, m - 8);
  h.resultsFile = lines[0].substr(m + marker.size());
  if (!StartsWith(lines[1], "#")) throw err(1, "expected a '#' header line, found '" + lines[1] + "'");
  if (!StartsWith(lines[2], "#")) throw err(2, "expected the '#' version line, found '" + lines[2] + "'");
  h.versionLine = lines[2].substr(1);
  if (StartsWith(lines[3], "functionData:")) h.functionData = lines[3].substr(13);
  else if (!StartsWith(lines[3], "#")) throw err(3, "expected '#' or 'functionData:...', found '" + lines[3] + "'");
  if (lines[4] != "#columns:") throw err(4, "expected '#columns:', found '" + lines[4] + "'");
  h.parameterNames = ParseColumnsLine(lines[5], where);
  if (!StartsWith(lines[6], "#parameter ranges"))
    throw err(6, "expected '#parameter ranges ...', found '" + lines[6] + "'");
  if (!StartsWith(lines[7], "#")) throw err(7, "expected '#<ranges>', found '" + lines[7] + "'");
  const std::string s = lines[7].substr(1);
  if (!s.empty()) {
    std::size_t start = 0;
    while (true) {
      const std::size_t sc = s.find(';', start);
      h.parameterRanges.push_back(s.substr(start, sc == std::string::npos ? std::string::npos : sc - start));
      if (sc == std::string::npos) break;
      start = sc + 1;
    }
  }
  return h;
}

/// Data line li: globalIndex, value, the parameters[, computationIndex].
ResultsRow ParseRow(const std::string& line, std::size_t li, const ResultsFileHeader& h, const std::string& where) {
  const auto err = [&](const std::string& msg) { return LineError(where, li, msg); };
  const std::size_t np = h.parameterNames.size();
  const std::vector<std::string> f = SplitTopLevel(line);
  if (f.size() != np + 2 && f.size() != np + 3)
    throw err(std::to_string(f.size()) + " fields; expected " + std::to_string(np + 2) + " or " +
              std::to_string(np + 3) + " (globalIndex, value, " + std::to_string(np) +
              " parameters[, computationIndex])");
  ResultsRow r;
  PyNumber n;
  if (!ParseNumber(f[0], n) || !n.isInt) throw err("globalIndex = '" + f[0] + "' is not an integer");
  r.globalIndex = n.intValue;
  if (!ParseValue(f[1], r.value)) throw err("value = '" + f[1] + "' is not a number or a list of numbers");
  for (std::size_t k = 0; k < np; ++k) {
    if (!ParseNumber(f[2 + k], n))
      throw err("parameter '" + h.parameterNames[k] + "' = '" + f[2 + k] + "' is not a number");
    r.parameters.push_back(n);
  }
  if (f.size() == np + 3) {
    if (!ParseNumber(f.back(), n) || !n.isInt) throw err("computationIndex = '" + f.back() + "' is not an integer");
    r.computationIndex = n.intValue;
  }
  return r;
}

}  // namespace

ResultsFileContents ParseResultsText(const std::string& text, const std::string& where) {
  ResultsFileContents c;
  const std::vector<std::string> lines = SplitLines(text, c);
  const std::size_t nComplete = lines.size() - (c.droppedIncompleteLastLine ? 1 : 0);
  if (nComplete < 8) throw ValidationError(where + ": " + std::to_string(nComplete) +
                                           " complete lines; a results file has an 8-line header");
  c.header = ParseHeader(lines, where);
  for (std::size_t li = 8; li < nComplete; ++li) {
    if (Trim(lines[li]).empty()) continue;
    c.rows.push_back(ParseRow(lines[li], li, c.header, where));
  }
  return c;
}

ResultsFileContents ReadResultsFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ValidationError("results file '" + path + "': cannot open the file for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw ValidationError("results file '" + path + "': read error");
  return ParseResultsText(ss.str(), path);
}

std::vector<ParameterRange> RangesFromHeader(const ResultsFileHeader& header) {
  if (header.parameterRanges.size() != header.parameterNames.size())
    throw ValidationError("results file header: " + std::to_string(header.parameterRanges.size()) +
                          " parameter ranges for " + std::to_string(header.parameterNames.size()) + " parameters");
  std::vector<ParameterRange> ranges;
  for (std::size_t k = 0; k < header.parameterNames.size(); ++k)
    ranges.push_back(ParseParameterRange(header.parameterNames[k], header.parameterRanges[k]));
  return ranges;
}

// ----------------------------------------------------------------------------------------
// CSV
// ----------------------------------------------------------------------------------------

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

CsvResultsWriter CsvResultsWriter::Create(const std::string& path, const std::vector<std::string>& parameterNames,
                                          const std::vector<std::string>& objectiveNames) {
  CsvResultsWriter w;
  w.nParameters_ = parameterNames.size();
  w.nObjectives_ = objectiveNames.size();
  w.out_ = OutputFile::Create(path, "CSV results file");
  std::string h = "computationIndex";
  for (const auto& n : parameterNames) h += "," + CsvField(n);
  for (const auto& n : objectiveNames) h += "," + CsvField(n);
  h += ",status,reason\n";
  w.out_.Write(h);
  w.out_.Flush();
  return w;
}

CsvResultsWriter CsvResultsWriter::OpenAppend(const std::string& path, const std::vector<std::string>& parameterNames,
                                              const std::vector<std::string>& objectiveNames) {
  CsvResultsWriter w;
  w.nParameters_ = parameterNames.size();
  w.nObjectives_ = objectiveNames.size();
  w.out_ = OutputFile::Append(path, "CSV results file");
  return w;
}

std::string CsvResultsWriter::FormatRow(const Row& row) const {
  if (row.parameters.size() != nParameters_ || row.objectives.size() != nObjectives_)
    throw ValidationError("CSV results file '" + Path() + "': row " + std::to_string(row.computationIndex) + " has " +
                          std::to_string(row.parameters.size()) + " parameters and " +
                          std::to_string(row.objectives.size()) + " objectives; the header has " +
                          std::to_string(nParameters_) + " and " + std::to_string(nObjectives_));
  std::string s = std::to_string(row.computationIndex);
  for (const auto& p : row.parameters) s += "," + PyStr(p);
  for (double o : row.objectives) s += "," + PyStr(o);
  s += "," + CsvField(row.status) + "," + CsvField(row.reason) + "\n";
  return s;
}

void CsvResultsWriter::Append(const std::vector<Row>& rows) {
  std::string text;
  for (const auto& r : rows) text += FormatRow(r);
  out_.Write(text);
  out_.Flush();
}

void CsvResultsWriter::Append(const Row& row) { Append(std::vector<Row>{row}); }

void CsvResultsWriter::AppendFormatted(const std::string& lines) {
  out_.Write(lines);
  out_.Flush();
}

}  // namespace mbsweep
