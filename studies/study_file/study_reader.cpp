// The study reader (study_types.h): `study:` read as type, options, objective and
// parameters, the rest handed to the reader of the type.
#include "studies/study_file/study_types.h"

#include <algorithm>

namespace mbsweep::study_reader {

namespace {

/// The readers of the study types, in the order of StudyType (after None).
const std::vector<const StudyTypeReader*>& TypeReaders() {
  static const std::vector<const StudyTypeReader*> readers = {&VariationStudy(), &SamplingStudy(), &GeneticStudy(),
                                                              &SensitivityStudy(), &IdentificationStudy()};
  return readers;
}

const std::vector<std::string> kStudyTypes = {"ParameterVariation", "Sampling", "GeneticOptimization", "Sensitivity",
                                              "Identification"};

/// study.type (required) and its reader.
const StudyTypeReader& ReadStudyType(const Reader& r, const YAML::Node& node, StudySpec& st) {
  if (!node.IsMap()) r.Fail(node, "study must be a map with 'type' and 'parameters', got " + Got(node));
  if (!node["type"]) r.Fail(node, "study: 'type' is required (" + JoinNames(kStudyTypes) + ")");
  const size_t t = r.Choice(node["type"], "study: type", kStudyTypes);
  st.type = static_cast<StudyType>(t + 1);
  return *TypeReaders().at(t);
}

/// The study map checked for the keys of its type, and the type's options read from it.
Section ReadStudyOptions(const Reader& r, const YAML::Node& node, const StudyTypeReader& type,
                         const std::vector<Setting>& options) {
  const std::string name = StudyTypeName(type.type);
  std::vector<std::string> valid = {"type", "objective", "parameters"};
  valid.insert(valid.end(), type.sections.begin(), type.sections.end());
  for (const auto& o : options) valid.push_back(o.name);
  const Section sec = r.Map(node, "study", valid, [&](const std::string& k) {
    return "unknown key '" + k + "' in a " + name + " study";
  });
  for (const auto& en : sec.entries)
    for (const auto& o : options)
      if (o.name == en.key) o.read(r, en.value, "study." + en.key);
  return sec;
}

/// study.objective: one of the objective values (an Identification builds its own).
void ReadStudyObjective(const Reader& r, const Section& sec, const ObjectiveSetDescription& objectives, StudySpec& s) {
  const Entry* q = sec.Find("objective");
  if (!q) return;
  s.objective = r.String(q->value, "study: objective");
  const auto names = ObjectiveValueNames(objectives);
  if (s.type != StudyType::Identification && std::find(names.begin(), names.end(), s.objective) == names.end())
    r.Fail(q->value, "study: objective = '" + s.objective + "' is not an objective value (" + JoinNames(names) + ")" +
                         Suggestion(s.objective, names, false));
}

/// study.parameters: a map (checked names, no two mapping to the same theta name) into `ps`,
/// or, where the type allows it, a list of names (bounds without ranges) or nothing.
const Entry* ReadStudyParameters(const Reader& r, const YAML::Node& node, const Section& sec, bool namesOnly,
                                 const std::vector<NamedParameter>& declared, const Layout* layout, StudySpec& s,
                                 Section& ps) {
  const Entry* params = sec.Find("parameters");
  if (!params && !namesOnly)
    r.Fail(node, "study: 'parameters' is required for a " + std::string(StudyTypeName(s.type)) + " study");
  if (params && namesOnly && params->value.IsSequence()) {
    for (size_t i = 0; i < params->value.size(); ++i) {
      Entry en{r.String(params->value[i], "study.parameters[" + std::to_string(i) + "]"), params->value[i],
               params->value[i]};
      CheckStudyParameter(r, en, declared, layout);
      s.bounds.push_back(ParameterBounds{en.key, 0.0, 0.0});
    }
  } else if (params) {
    ps = r.Map(params->value, "study.parameters", {});
    if (ps.entries.empty()) r.Fail(params->value, "study: 'parameters' must name at least one parameter");
  }
  for (const auto& p : ps.entries) CheckStudyParameter(r, p, declared, layout);
  for (size_t a = 0; a < ps.entries.size(); ++a)
    for (size_t b = 0; b < a; ++b)
      if (MangledPath(ps.entries[a].key) == MangledPath(ps.entries[b].key) && ps.entries[a].key != ps.entries[b].key)
        r.Fail(ps.entries[a].keyNode, "study parameters '" + ps.entries[b].key + "' and '" + ps.entries[a].key +
                                          "' map to the same name '" + MangledPath(ps.entries[a].key) + "'");
  return params;
}

}  // namespace

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
    layout->ThetaIndex(CurrentFieldPath(p.key));
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
  const StudyTypeReader& type = ReadStudyType(r, node, st);
  const std::vector<Setting> options = type.options ? type.options(st) : std::vector<Setting>{};
  const Section sec = ReadStudyOptions(r, node, type, options);
  ReadStudyObjective(r, sec, objectives, st);
  Section ps;
  const bool namesOnly = type.namesOnly && type.namesOnly(st);
  const Entry* params = ReadStudyParameters(r, node, sec, namesOnly, declared, layout, st, ps);
  type.read(StudyInput{r, node, sec, params, ps, directory, readDataFiles, declared, layout, sensorNames}, st);
}

}  // namespace mbsweep::study_reader
