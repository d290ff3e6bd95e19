// Model and study files (YAML): the public functions of study_file.h. The readers of the
// file's sections are in studies/study_file/ (reader.h, study_types.h); this file puts them
// together and maps a file's parameters and expressions onto theta rows.
#include "studies/study_file.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "common/parameters.h"
#include "common/rules.h"
#include "studies/study_file/reader.h"
#include "studies/study_file/study_types.h"

namespace mbsweep {

using namespace study_reader;  // the readers of the file's sections

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
  f.model = BuildModel(r, top, f.parameters, &f.expressions, &sensorNames, &f.warnings);

  ReadSolverAndSettings(r, top, f);

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

int StudyFile::ObjectiveCount() const {
  return static_cast<int>(study.type == StudyType::Identification ? study.measured.size()
                                                                  : objectives.objectives.size());
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

StudyMapping MakeStudyMapping(const StudyFile& file, const Layout& layout, ParameterMap& map,
                              const std::vector<std::string>* names) {
  StudyMapping m;
  const FilePosition where = file.study.where.file.empty() ? FilePosition{file.path, 0, 0} : file.study.where;
  for (const auto& p : file.parameters) {
    m.mapParameters.push_back(p.name);
    m.nominal.push_back(p.value);
  }
  const std::vector<std::string> study = names ? *names : file.study.ParameterNames();
  std::vector<std::pair<std::string, std::string>> bindings;  // (path, map name)
  for (const auto& name : study) {
    int col = -1;
    for (size_t k = 0; k < file.parameters.size(); ++k)
      if (file.parameters[k].name == name) col = static_cast<int>(k);
    if (col < 0) {
      const std::string path = study_reader::CurrentFieldPath(name);
      int idx = -1;
      try {
        idx = layout.ThetaIndex(path);
      } catch (const ValidationError& e) {
        throw StudyFileError(where, "study parameter '" + name + "': " + e.what());
      }
      for (const auto& x : file.expressions)
        if (x.path == path)
          throw StudyFileError(x.where, "study parameter '" + name + "' is defined in the model by the expression '" +
                                            x.expression + "'; vary the parameters of the expression instead");
      col = static_cast<int>(m.mapParameters.size());
      m.mapParameters.push_back(MangledPath(path));
      m.nominal.push_back(map.Theta0()[static_cast<size_t>(idx)]);
      bindings.emplace_back(path, MangledPath(path));
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
