// mbsweep identify: GA + Nelder-Mead against measured signals (commands.h).
#include "studies/cli/session.h"

#include <cmath>
#include <cstdio>

#include "common/output_file.h"
#include "cpu/simulation.h"
#include "studies/cli/progress.h"
#include "studies/identification.h"
#include "studies/results_file.h"

namespace mbsweep::cli {

namespace {

/// signals.csv (measured and simulated per channel; the simulation by the reference solver at
/// the fitted values) and the channels of summary.json (RMS error per channel at the fit).
Json WriteSignals(Session& s, const std::vector<double>& parameters, const std::string& signals) {
  // Channel values at the fit, and simulated against measured signals for the plot.
  const BatchResult atFit = s.Evaluate({parameters});
  // the reference solver on the fitted theta row (the same row the batch evaluated)
  Model m = s.file.model;
  for (size_t i = 0; i < m.Sensors().size(); ++i) m.SetSensorOutput(SensorIndex{static_cast<int>(i)}, "", false, true);
  Simulation sim(m);
  s.map->BuildRow(StudyRows(s.mapping, {parameters}).data(), sim.Theta().data());
  sim.SolveDynamic(s.file.settings, s.file.solver);
  std::string f = "channel,time,measured,simulated\n";
  Json channels = Json::array();
  for (size_t c = 0; c < s.file.study.measured.size(); ++c) {
    const ObjectiveDescription& od = s.description.objectives[c];
    const MeasuredSignal ms = ReadSignalCsv(od.signalFile, od.signalColumn, od.signalColumnName);
    std::vector<Real> times, values;  // the simulated component, interpolated onto the measured times
    for (const auto& row : sim.GetSensorStoredData(SensorIndex{od.sensor})) {
      times.push_back(row[0]);
      values.push_back(row[static_cast<size_t>(od.component) + 1]);
    }
    int cursor = 0;
    for (size_t i = 0; i < ms.times.size(); ++i)
      f += CsvField(od.name) + "," + PyStr(ms.times[i]) + "," + PyStr(ms.values[i]) + "," +
           PyStr(InterpolateSignal(times.data(), values.data(), static_cast<int>(times.size()), ms.times[i], cursor)) +
           "\n";
    channels.push_back({{"name", od.name},
                        {"sensor", s.file.study.measured[c].sensor},
                        {"file", od.signalFile},
                        {"weight", od.weight},
                        {"rmsError", Number(atFit.Value(0, static_cast<int>(c)))}});
  }
  WriteFileAtomic(signals, f, "signals file");
  return channels;
}

}  // namespace

int RunIdentify(const Options& o) {
  Session s;
  OpenSession(s, o, o.backend, [](const StudyFile& f, const Layout& layout) {
    RequireStudy(f, {StudyType::Identification}, "identify");
    return StudyObjectives(f, layout);
  });
  s.column = IdentificationColumn(s.objectives);  // the weighted sum of the channels' RMS errors
  const StudySpec& st = s.file.study;
  GeneticOptions g = GeneticOptionsFor(st, o);
  if (ServeOtherRanks(s)) return 0;
  s.OpenFolder(o, "identify", {"results.txt", "results.txt.manifest", "history.csv", "signals.csv", "summary.json"},
               o.resume);
  const std::string& out = s.folder.Path();
  g.resultsFile = s.folder.File("results.txt");
  g.resume = o.resume;  // the GA generations resume; the short refinement runs again
  g.fingerprint = Fingerprint(o, s, "command=identify");
  Progress progress("identify (GA)", static_cast<std::uint64_t>(g.numberOfGenerations), "generations", o.quiet);
  ReportGenerations(g, progress);
  const IdentificationResult r = Identify([&](const GeneticIndividuals& ind) { return s.Column(s.Evaluate(ind)); },
                                          st.geneticParameters, g, st.identification);
  progress.Finish();
  WriteHistory(s.folder.File("history.csv"), r.genetic);

  const std::string signals = s.folder.File("signals.csv");
  const Json channels = WriteSignals(s, r.parameters, signals);

  Json summary = s.Summary("identify");
  summary["optimum"] = {{"parameters", ParameterObject(r.names, r.parameters)}, {"value", Number(r.value)}};
  summary["genetic"] = {{"parameters", ParameterObject(r.names, r.geneticParameters)},
                        {"value", Number(r.geneticValue)},
                        {"evaluations", r.genetic.NumberOfEvaluations()},
                        {"bestPerGeneration", BestPerGeneration(r.genetic)}};
  summary["refinement"] = {{"method", st.identification.refinement},
                           {"iterations", r.refinement.iterations},
                           {"evaluations", r.refinement.evaluations},
                           {"converged", r.refinement.converged},
                           {"reason", r.refinement.reason}};
  summary["channels"] = channels;
  summary["outputs"] = {g.resultsFile, s.folder.File("history.csv"), signals};
  WriteJson(s.folder.File("summary.json"), summary);
  if (!o.quiet) {
    PrintOptimum(r.names, r.geneticParameters, r.geneticValue, "GA optimum ");
    PrintOptimum(r.names, r.parameters, r.value, "fitted     ");
    for (const auto& c : channels)
      std::printf("  channel %s: RMS error %.6g (weight %g)\n", c["name"].get<std::string>().c_str(),
                  c["rmsError"].is_null() ? NAN : c["rmsError"].get<double>(), c["weight"].get<double>());
    std::printf("%llu evaluations on %s in %.3f s; results: %s\n", static_cast<unsigned long long>(s.evaluated),
                s.Backend().c_str(), s.evaluationSeconds, out.c_str());
  }
  return 0;
}

}  // namespace mbsweep::cli
