// mbsweep sweep: a ParameterVariation grid or a sampling design, chunk by chunk, resumable,
// through the library's chunked-study pipeline (study_pipeline.h, study_sinks.h; commands.h).
#include "studies/cli/session.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>

#include "common/rules.h"
#include "studies/cli/progress.h"
#include "studies/memory_limit.h"
#include "studies/point_source.h"
#include "studies/results_file.h"
#include "studies/study_pipeline.h"
#include "studies/study_sinks.h"

namespace mbsweep::cli {

namespace {

/// Rejects command-line options that do not apply to the study (rather than ignoring them).
void CheckSweepOptions(const Options& o, const StudySpec& st) {
  const bool grid = st.type == StudyType::ParameterVariation, csv = !grid && st.design == "csv";
  if (o.count && (grid || csv))
    throw ValidationError("--count applies to sampled designs (sobol, lhs, uniform); this study is a " +
                          std::string(grid ? "ParameterVariation grid" : "CSV design"));
  if (o.seed && (grid || csv))
    throw ValidationError("--seed applies to sampled designs (sobol, lhs, uniform); this study is a " +
                          std::string(grid ? "ParameterVariation grid" : "CSV design"));
}

/// The rows of sweep points [begin, end): evaluated as one batch of the session (counted by
/// the sink of rank 0, which sees every rank's rows).
ChunkEvaluator SweepChunks(const Session& s, const StudyPointSource& source) {
  return [&s, &source, points = Points{}, py = std::vector<std::vector<PyNumber>>{}, why = std::vector<std::string>{}](
             std::uint64_t begin, std::uint64_t end, StudyRowChunk& rows) mutable {
    source.Fill(begin, end, points, py);
    const BatchResult r = s.Run(points, why);
    rows.resize(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
      StudyRow& row = rows[i];
      row.index = begin + i;
      row.point = std::move(points[i]);
      row.pyPoint = std::move(py[i]);
      row.values.assign(r.values.begin() + static_cast<long>(i) * r.nValues,
                        r.values.begin() + static_cast<long>(i + 1) * r.nValues);
      row.value = r.Value(static_cast<int>(i), s.column);
      row.status = SolveStatusName(r.status[i]);
      row.reason = why[i];
    }
  };
}

/// The chunk size of a sweep, checked against int and memory limits.
std::uint64_t SweepChunkSize(const Options& o, const Session& s, std::uint64_t total) {
  // a chunk larger than the study runs as one chunk of the study's size
  const std::uint64_t chunk = o.chunk ? o.chunk : s.file.study.chunkSize;
  const std::uint64_t batch = std::min(chunk, total);
  if (batch > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw ValidationError("chunk size = " + std::to_string(batch) + " violates chunk size <= 2^31-1 (systems per batch)");
  RequireMemory(static_cast<double>(batch) * 8.0 *
                    (2.0 * s.layout.ThetaSize() + s.file.study.ParameterNames().size() +
                     2.0 * s.objectives.valueNames.size() + 8),
                "a chunk of " + std::to_string(batch) + " systems (their parameter rows and results)",
                "choose a smaller --chunk (or study.chunkSize)");
  return chunk;
}

/// The lines a sweep prints: counts by status, the optimum, the output folder.
void PrintSweep(const Session& s, const SummaryAccumulator& acc, std::uint64_t total) {
  std::string counts;
  for (const auto& [k, n] : acc.Counts()) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + k;
  std::printf("%llu systems (%llu evaluated now) on %s in %.3f s: %s\n", static_cast<unsigned long long>(total),
              static_cast<unsigned long long>(s.evaluated), s.Backend().c_str(), s.evaluationSeconds, counts.c_str());
  std::printf("minimum of %s = %.10g at", s.objectives.valueNames[static_cast<size_t>(s.column)].c_str(),
              acc.BestValue());
  const std::vector<std::string> names = s.file.study.ParameterNames();
  for (size_t k = 0; k < acc.BestPoint().size(); ++k)
    std::printf(" %s = %.10g", names[k].c_str(), acc.BestPoint()[k]);
  std::printf("\nresults: %s\n", s.folder.Path().c_str());
}

}  // namespace

int RunSweep(const Options& o) {
  Session s;
  OpenSession(s, o, o.backend);
  RequireStudy(s.file, {StudyType::ParameterVariation, StudyType::Sampling}, "sweep");
  const StudySpec& st = s.file.study;
  CheckSweepOptions(o, st);
  const std::vector<std::string> names = st.ParameterNames();
  const std::uint64_t seed = o.seed ? *o.seed : st.seed;
  const std::uint64_t count = o.count ? o.count : st.count;
  const StudyPointSource source(st, count, seed);
  const ParameterGrid* grid = source.Grid();
  for (const auto& w : source.Warnings()) s.Warn(w);
  ChunkedStudyPlan plan;
  plan.name = "sweep";
  plan.resume = o.resume;
  plan.total = source.Total();
  plan.chunkSize = SweepChunkSize(o, s, plan.total);
  plan.fingerprint = Fingerprint(o, s, "chunk size=" + std::to_string(plan.chunkSize) + "\nseed=" +
                                           std::to_string(seed) + "\ncount=" + std::to_string(count));
  plan.ranks = &Ranks::World();  // chunks go to every rank; rank 0 writes them in order
  if (!plan.ranks->IsRoot()) {
    ServeChunks(plan, SweepChunks(s, source));
    return 0;
  }

  s.OpenFolder(o, "sweep", {"results.csv", "results.txt", "summary.json", "manifest.txt"}, o.resume);
  const std::string resultsTxt = s.folder.File("results.txt"), resultsCsv = s.folder.File("results.csv");
  const std::string& objective = s.objectives.valueNames[static_cast<size_t>(s.column)];
  plan.outputs = {resultsCsv};
  if (grid) plan.outputs.push_back(resultsTxt);
  plan.manifestPath = s.folder.File("manifest.txt");
  ResultsCsvSink csv(resultsCsv, names, s.objectives.valueNames);
  // on resume the counts and the optimum start from the rows kept from the earlier run
  SummaryAccumulator acc([&](const auto& add) { ReadResultsCsvRows(resultsCsv, names, objective, add); });
  CallbackSink counter([&](const StudyRowChunk& rows) {
    for (const StudyRow& r : rows) s.Count(r.point, r.status, r.reason);
  });
  std::vector<StudySink*> sinks{&counter, &acc, &csv};
  std::unique_ptr<GridResultsFileSink> txt;
  if (grid) {
    txt = std::make_unique<GridResultsFileSink>(resultsTxt, *grid, "mbsweep " + s.Backend(), st.addComputationIndex);
    sinks.push_back(txt.get());
  }
  std::optional<Progress> progress;  // started once the resumed rows are known
  CallbackSink startProgress([](const StudyRowChunk&) {}, [&](std::uint64_t resumedRows) {
    progress.emplace("sweep", plan.total, "systems", o.quiet, resumedRows);
    progress->Follow(s.systemsFinished, resumedRows);  // inside a chunk too (cpu, cpu-jit)
  });
  sinks.push_back(&startProgress);
  const ChunkedStudyRun run = RunChunkedStudy(plan, SweepChunks(s, source), sinks, [&](std::uint64_t end) {
    const std::uint64_t failed = s.evaluated - s.statusCounts[SolveStatusName(SolveStatus::ok)];
    progress->Update(end, std::to_string(failed) + " failed");
  });
  progress->Finish();
  s.evaluationSeconds = run.evaluationSeconds;

  Json summary = s.Summary("sweep");
  summary["points"] = plan.total;
  summary["chunks"] = {{"size", plan.chunkSize}, {"count", run.chunks}, {"resumedAfter", run.resumedChunks}};
  Json counts = Json::object();
  for (const auto& [k, n] : acc.Counts()) counts[k] = n;
  summary["counts"] = counts;  // over the whole results file, resumed chunks included
  Json best = Json::object();
  for (size_t k = 0; k < acc.BestPoint().size(); ++k) best[names[k]] = acc.BestPoint()[k];
  summary["optimum"] = {{"parameters", best}, {"value", Number(acc.BestValue())}};
  summary["design"] = grid ? Json{{"type", "grid"}, {"useLogSpace", st.useLogSpace}}
                           : Json{{"type", st.design}, {"seed", seed}, {"count", plan.total}};
  summary["outputs"] = plan.outputs;
  WriteJson(s.folder.File("summary.json"), summary);
  if (!o.quiet) PrintSweep(s, acc, plan.total);
  return 0;
}

}  // namespace mbsweep::cli
