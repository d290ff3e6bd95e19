// mbsweep sensitivity: every finite-difference point as one batch (commands.h).
#include "studies/cli/session.h"

#include <cstdio>

#include "common/output_file.h"
#include "studies/results_file.h"
#include "studies/sensitivities.h"

namespace mbsweep::cli {

int RunSensitivity(const Options& o) {
  Session s;
  OpenSession(s, o, o.backend);
  RequireStudy(s.file, {StudyType::Sensitivity}, "sensitivity");
  if (ServeOtherRanks(s)) return 0;
  const StudySpec& st = s.file.study;
  s.OpenFolder(o, "sensitivity", {"sensitivities.csv", "evaluations.csv", "summary.json"});
  const SensitivityResult r = ComputeSensitivities(
      st.sensitivityParameters,
      [&](const SensitivityPoints& points) {
        const BatchResult b = s.Evaluate(points);
        std::vector<std::vector<double>> v(static_cast<size_t>(b.nSystems));
        for (int i = 0; i < b.nSystems; ++i)
          v[static_cast<size_t>(i)].assign(b.values.begin() + i * b.nValues, b.values.begin() + (i + 1) * b.nValues);
        return v;
      },
      st.sensitivity);
  const std::string path = s.folder.File("sensitivities.csv");
  std::string f = "parameter,ref";
  for (const auto& n : s.objectives.valueNames) f += "," + CsvField("d_" + n);
  f += "\n";
  Json matrix = Json::object();
  for (size_t i = 0; i < r.names.size(); ++i) {
    f += CsvField(r.names[i]) + "," + PyStr(st.sensitivityParameters[i].ref);
    Json row = Json::object();
    for (size_t k = 0; k < r.sensitivity[i].size(); ++k) {
      f += "," + PyStr(r.sensitivity[i][k]);
      row[s.objectives.valueNames[k]] = Number(r.sensitivity[i][k]);
    }
    f += "\n";
    matrix[r.names[i]] = row;
  }
  WriteFileAtomic(path, f, "sensitivities file");
  // every evaluation: the varied parameter's value and the outputs (for plot); the reference
  // first, then each parameter's points in ComputeSensitivities' order
  const std::string evaluations = s.folder.File("evaluations.csv");
  std::string ev = "varied,value";
  for (const auto& n : s.objectives.valueNames) ev += "," + CsvField(n);
  ev += "\n";
  auto evRow = [&](const std::string& varied, double value, const std::vector<double>& outputs) {
    ev += CsvField(varied) + "," + PyStr(value);
    for (double y : outputs) ev += "," + PyStr(y);
    ev += "\n";
  };
  size_t row = 1;
  for (size_t i = 0; i < r.names.size(); ++i) {
    evRow(r.names[i], st.sensitivityParameters[i].ref, r.valRef);  // each parameter's curve passes the reference
    for (const auto& outputs : r.valuesSorted[i]) evRow(r.names[i], r.parameterList[row++][i], outputs);
  }
  WriteFileAtomic(evaluations, ev, "evaluations file");
  Json ref = Json::object();
  for (size_t k = 0; k < r.valRef.size(); ++k) ref[s.objectives.valueNames[k]] = Number(r.valRef[k]);
  Json summary = s.Summary("sensitivity");
  summary["reference"] = ref;
  summary["scaledByReference"] = st.sensitivity.scaledByReference;
  summary["sensitivity"] = matrix;
  summary["outputs"] = {path, evaluations};
  WriteJson(s.folder.File("summary.json"), summary);
  if (!o.quiet) {
    std::printf("%-16s", "d(value)/d(par)");
    for (const auto& n : s.objectives.valueNames) std::printf(" %16s", n.c_str());
    std::printf("\n");
    for (size_t i = 0; i < r.names.size(); ++i) {
      std::printf("%-16s", r.names[i].c_str());
      for (double x : r.sensitivity[i]) std::printf(" %16.8g", x);
      std::printf("\n");
    }
  }
  return 0;
}

}  // namespace mbsweep::cli
