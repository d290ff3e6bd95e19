// The objectives reader (reader.h): `objectives:` (sensors by name or index, signal files
// resolved against the study file's folder, each objective checked against the layout).
#include "studies/study_file/reader.h"

#include <filesystem>
#include <sstream>

namespace mbsweep::study_reader {

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

namespace {

const std::vector<std::string> kObjectiveKeys = {"name",         "kind",         "sensor",           "component",
                                                 "weight",       "signalTimes",  "signalValues",     "signalFile",
                                                 "signalColumn", "signalColumnName", "errorDivisor", "errorMultiplier"};

/// The objective kinds' names.
std::vector<std::string> ObjectiveKinds() {
  std::vector<std::string> kinds;
  std::stringstream ss(ObjectiveKindNames());
  std::string k;
  while (std::getline(ss, k, ',')) kinds.push_back(Trim(k));
  return kinds;
}

/// The fields of objectives.list[i] (map `o` at node `n`).
ObjectiveDescription ReadObjective(const Reader& r, const Section& o, const YAML::Node& n, const std::string& ctx,
                                   const std::string& directory, const std::vector<std::string>& sensorNames) {
  static const std::vector<std::string> kinds = ObjectiveKinds();
  ObjectiveDescription d;
  if (const Entry* q = o.Find("name")) d.name = r.String(q->value, ctx + ".name");
  const std::string label = d.name.empty() ? ctx : "objective '" + d.name + "'";
  if (const Entry* q = o.Find("kind")) d.kind = kinds[r.Choice(q->value, label + ": kind", kinds)];
  else r.Fail(n, label + ": 'kind' is required (" + JoinNames(kinds) + ")");
  if (const Entry* q = o.Find("sensor")) d.sensor = SensorIndexOf(r, q->value, label + ": sensor", sensorNames);
  else r.Fail(n, label + ": 'sensor' is required (a sensor name or index)");
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
  return d;
}

/// Validates objective i alone (named as in the full set) so that the error points at it.
void CheckObjective(const Reader& r, const Section& o, const YAML::Node& n, std::size_t i, const ObjectiveDescription& d,
                    double samplePeriod, const Layout& layout, const std::vector<Real>& theta) {
  ObjectiveSetDescription one;
  one.samplePeriod = samplePeriod;
  one.objectives.push_back(d);
  if (one.objectives[0].name.empty()) one.objectives[0].name = "objective" + std::to_string(i);
  try {
    BuildObjectives(one, layout, theta);
  } catch (const ValidationError& err) {
    const std::string msg = err.what();
    YAML::Node where = n;
    for (const char* key : {"signalFile", "signalColumnName", "signalColumn", "signalTimes", "signalValues",
                            "component", "errorDivisor", "errorMultiplier", "weight", "sensor", "kind"})
      if (const Entry* q = o.Find(key); q && msg.find(std::string(": ") + key) != std::string::npos) {
        where = q->value;
        break;
      }
    r.Fail(where, msg);
  }
}

}  // namespace

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
  bool allChecked = true;
  for (size_t i = 0; i < l.size(); ++i) {
    const std::string ctx = "objectives.list[" + std::to_string(i) + "]";
    const Section o = r.Map(l[i], ctx, kObjectiveKeys,
                            [&](const std::string& k) { return "unknown key '" + k + "' in objective " + std::to_string(i); });
    const ObjectiveDescription d = ReadObjective(r, o, l[i], ctx, directory, sensorNames);
    // without readDataFiles, an objective whose signal file does not exist yet is not checked
    const bool check = readDataFiles || d.signalFile.empty() || std::filesystem::exists(d.signalFile);
    allChecked = allChecked && check;
    if (layout && check) CheckObjective(r, o, l[i], i, d, out.samplePeriod, *layout, theta);
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

}  // namespace mbsweep::study_reader
