// mbsweep optimize: GeneticOptimization, one batch per generation (commands.h).
#include "studies/cli/session.h"

#include <cstdio>

#include "studies/cli/progress.h"

namespace mbsweep::cli {

int RunOptimize(const Options& o) {
  Session s;
  OpenSession(s, o, o.backend);
  RequireStudy(s.file, {StudyType::GeneticOptimization}, "optimize");
  const StudySpec& st = s.file.study;
  GeneticOptions g = GeneticOptionsFor(st, o);
  if (ServeOtherRanks(s)) return 0;
  s.OpenFolder(o, "optimize", {"results.txt", "results.txt.manifest", "history.csv", "summary.json"}, o.resume);
  const std::string& out = s.folder.Path();
  g.resultsFile = s.folder.File("results.txt");
  g.resume = o.resume;
  g.fingerprint = Fingerprint(o, s, "command=optimize");
  Progress progress("optimize", static_cast<std::uint64_t>(g.numberOfGenerations), "generations", o.quiet);
  ReportGenerations(g, progress);
  const GeneticResult r = GeneticOptimization(
      [&](const GeneticIndividuals& ind) { return s.Column(s.Evaluate(ind)); }, st.geneticParameters, g);
  progress.Finish();
  WriteHistory(s.folder.File("history.csv"), r);

  Json summary = s.Summary("optimize");
  summary["optimum"] = {{"parameters", ParameterObject(r.names, r.optimumParameters)}, {"value", Number(r.optimumValue)}};
  summary["generations"] = g.numberOfGenerations;
  summary["populationSize"] = g.populationSize;
  summary["randomStream"] = GeneticRandomStreamName(g.randomStream);
  summary["seed"] = g.randomizerInitialization ? Json(*g.randomizerInitialization) : Json(nullptr);
  summary["historyEvaluations"] = r.NumberOfEvaluations();
  summary["bestPerGeneration"] = BestPerGeneration(r);
  summary["outputs"] = {g.resultsFile, s.folder.File("history.csv")};
  WriteJson(s.folder.File("summary.json"), summary);
  if (!o.quiet) {
    PrintOptimum(r.names, r.optimumParameters, r.optimumValue, "optimum");
    std::printf("%zu evaluations (%llu now) on %s in %.3f s; results: %s\n", r.NumberOfEvaluations(),
                static_cast<unsigned long long>(s.evaluated), s.Backend().c_str(), s.evaluationSeconds, out.c_str());
  }
  return 0;
}

}  // namespace mbsweep::cli
