// mbsweep compare: the study's first points as one batch on cpu and on cuda, or on the evaluator
// --against names (commands.h).
#include "studies/cli/session.h"

#include <algorithm>
#include <cstdio>

#include "common/rules.h"
#include "studies/point_source.h"
#include "studies/sampling.h"
#include "studies/sensitivities.h"

namespace mbsweep::cli {

int RunCompare(const Options& o) {
  Session s;
  OpenSession(s, o, "cpu", StudyObjectives);  // an identification study's: identify's
  const StudySpec& st = s.file.study;
  std::string why;
  if (o.against != "cpu-jit" && !CudaAvailable(&why))
    throw ValidationError("compare --against " + o.against + " needs the cuda backend: " + why);
  EvaluatorOptions eo;
  eo.threads = o.threads;  // cpu-jit's threads as cpu's
  std::unique_ptr<Evaluator> other = CreateEvaluator(o.against, eo);
  s.OpenFolder(o, "compare", {"summary.json"});

  // The study's first points: the grid or design a sweep would run first, the sensitivity
  // points, or (GA, identification) a Latin hypercube over the ranges.
  const std::uint64_t want = o.systems ? o.systems : 4096;
  Points points;
  switch (st.type) {
    case StudyType::ParameterVariation:
    case StudyType::Sampling: {
      const StudyPointSource source(st, st.count, st.seed);
      std::vector<std::vector<PyNumber>> py;
      source.Fill(0, std::min(want, source.Total()), points, py);
      break;
    }
    case StudyType::Sensitivity: points = SensitivityPointsFor(st.sensitivityParameters); break;
    case StudyType::None: points.assign(1, {}); break;
    default: {
      std::vector<ParameterBounds> bounds;
      for (const auto& p : st.geneticParameters) bounds.push_back({p.name, p.min, p.max});
      const Design d = LatinHypercubeDesign(bounds, static_cast<size_t>(want), st.seed);
      for (size_t i = 0; i < d.Count(); ++i) points.push_back(d.Row(i));
    }
  }
  BatchProblem p = st.type == StudyType::None
                       ? SingleSystem(s.layout, s.file.model.Theta0(), s.file.solver, s.file.settings, s.objectives)
                       : MakeBatch(s.layout, *s.map, StudyRows(s.mapping, points), s.file.solver, s.file.settings,
                                   s.objectives);
  RequestSignals(p, o.signals);
  const BatchResult rc = s.evaluator->Evaluate(p);
  const BatchResult rg = other->Evaluate(p);
  const BatchComparison c = CompareBatchResults(rc, rg);
  Json cols = Json::object();
  for (size_t k = 0; k < s.objectives.valueNames.size(); ++k)
    cols[s.objectives.valueNames[k]] = {{"maxAbsDeviation", Number(c.maxAbsDeviation[k])},
                                        {"maxRelDeviation", Number(c.maxRelDeviation[k])}};
  Json summary = s.Summary("compare");
  summary["backend"] = rc.backend + " vs " + rg.backend;  // the evaluators that ran
  summary["systems"] = points.size();
  summary["comparedSystems"] = c.comparedSystems;
  summary["statusDiffers"] = c.statusDiffers;
  summary["deviations"] = cols;
  if (!c.maxSignalDeviation.empty()) {
    Json sig = Json::object();
    for (size_t k = 0; k < c.maxSignalDeviation.size(); ++k)
      sig[s.objectives.valueNames[k]] = Number(c.maxSignalDeviation[k]);
    summary["signalDeviations"] = {{"rowsPerSystem", p.signalRows},
                                   {"stride", p.signalStride},
                                   {"maxAbsDeviation", sig},
                                   {"systemsWithDifferentRowCounts", c.signalCountDiffers.size()}};
  }
  summary["seconds"] = {{"cpu", rc.seconds}, {o.against, rg.seconds}};
  summary["speedup"] = Number(c.speedup);
  WriteJson(s.folder.File("summary.json"), summary);
  if (!o.quiet) std::printf("%zu systems\n%s", points.size(), FormatComparison(c, s.objectives.valueNames).c_str());
  return 0;
}

}  // namespace mbsweep::cli
