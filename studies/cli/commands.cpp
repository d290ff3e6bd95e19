// The mbsweep subcommands (commands.h).
#include "studies/cli/commands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "common/output_file.h"
#include "common/rules.h"
#include "cpu/batch.h"
#include "cpu/simulation.h"
#include "studies/checkpoint.h"
#include "studies/cli/progress.h"
#include "studies/evaluators.h"
#include "studies/genetic.h"
#include "studies/grid.h"
#include "studies/identification.h"
#include "studies/memory_limit.h"
#include "studies/output_folder.h"
#include "studies/plot.h"
#include "studies/results_file.h"
#include "studies/sampling.h"
#include "studies/sensitivities.h"
#include "studies/study_file.h"
#include "studies/point_source.h"
#include "studies/study_pipeline.h"
#include "studies/study_sinks.h"

namespace mbsweep::cli {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using Points = std::vector<std::vector<double>>;

namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

/// NaN and infinities are not JSON numbers: they become null.
Json Number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

/// The output folder of a command (--out, or <study name>_out), created, locked and checked
/// before anything runs (output_folder.h); its warnings go to stderr at once (and into the
/// summary through Session::warnings or the caller).
OutputFolder OpenOutput(const Options& o, const std::string& command, const std::vector<std::string>& outputs,
                        bool resume = false) {
  const std::string dir = o.out.empty() ? fs::path(o.study).stem().string() + "_out" : o.out;
  OutputFolder f = OutputFolder::Open(dir, "mbsweep " + command + " " + o.study, outputs, resume);
  for (const auto& w : f.Warnings()) std::fprintf(stderr, "warning: %s\n", w.c_str());
  return f;
}

std::string Join(const std::string& dir, const std::string& name) { return (fs::path(dir) / name).string(); }

void WriteJson(const std::string& path, const Json& j) { WriteFileAtomic(path, j.dump(2) + "\n", "summary file"); }

/// The study file with --set overrides applied (the model rebuilt at the new nominal values).
StudyFile LoadStudy(const Options& o, bool readDataFiles = true) {
  StudyFile f = LoadStudyFile(o.study, readDataFiles);
  if (!o.sets.empty()) {
    f.parameters = WithOverrides(f.parameters, o.sets);
    f.model = BuildModelAt(f, f.parameters);
  }
  return f;
}

Json SettingsJson(const StudyFile& f) {
  const TimeIntegrationSettings& ti = f.settings.timeIntegration;
  return Json{{"solver", DynamicSolverTypeName(f.solver)},
              {"startTime", ti.startTime},
              {"endTime", ti.endTime},
              {"numberOfSteps", ti.numberOfSteps},
              {"spectralRadius", ti.generalizedAlpha.spectralRadius},
              {"newtonRelativeTolerance", ti.newton.relativeTolerance},
              {"useModifiedNewton", ti.newton.useModifiedNewton},
              {"sensorsWritePeriod", f.settings.solutionSettings.sensorsWritePeriod}};
}

/// A warning: on stderr at once, and into `warnings` (summary.json).
void AddWarning(Json& warnings, const std::string& w) {
  std::fprintf(stderr, "warning: %s\n", w.c_str());
  warnings.push_back(w);
}

/// Measured signals that do not cover the study's simulated time span (SignalCoverageWarnings).
std::vector<std::string> SignalWarnings(const StudyFile& f, const ObjectiveSetDescription& d,
                                        const CompiledObjectives& co) {
  std::vector<std::string> names;
  for (const auto& od : d.objectives) names.push_back(od.name);
  const TimeIntegrationSettings& ti = f.settings.timeIntegration;
  return SignalCoverageWarnings(co, names, ti.startTime, ti.endTime);
}

/// One study on one evaluator: the compiled model, the parameter map, objectives, and the
/// counters of everything evaluated. Not movable (the map refers to the layout).
struct Session {
  StudyFile file;
  Layout layout;
  std::unique_ptr<ParameterMap> map;
  StudyMapping mapping;
  ObjectiveSetDescription description;  ///< what `objectives` was built from
  CompiledObjectives objectives;
  int column = 0;  ///< the study's objective value
  std::unique_ptr<Evaluator> evaluator;
  std::string backend;
  double evaluationSeconds = 0;
  std::uint64_t evaluated = 0;
  std::map<std::string, std::uint64_t> statusCounts;
  std::vector<std::string> reasons;  ///< of the last Evaluate, per system: why it failed ("" for ok)
  Json failures = Json::array();     ///< the first kListedFailures failed systems, for summary.json
  OutputFolder folder;
  Json warnings = Json::array();  ///< every warning of the run (printed to stderr as it arises)
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

  static constexpr std::size_t kListedFailures = 20;

  Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void Warn(const std::string& w) { AddWarning(warnings, w); }
  /// Prepares the output folder (OpenOutput) for a run that writes `outputs`.
  void OpenFolder(const Options& o, const std::string& command, const std::vector<std::string>& outputs,
                  bool resume = false) {
    folder = OpenOutput(o, command, outputs, resume);
    for (const auto& w : folder.Warnings()) warnings.push_back(w);
  }

  BatchResult Evaluate(const Points& points) {
    const std::vector<double> rows = StudyRows(mapping, points);
    const BatchProblem p = MakeBatch(layout, *map, rows, file.solver, file.settings, objectives);
    BatchResult r = evaluator->Evaluate(p);
    evaluationSeconds += r.seconds;
    reasons.assign(static_cast<size_t>(r.nSystems), "");
    for (int i = 0; i < r.nSystems; ++i) {
      const SolveStatus st = r.status[static_cast<size_t>(i)];
      ++statusCounts[SolveStatusName(st)];
      if (st == SolveStatus::ok) continue;
      reasons[static_cast<size_t>(i)] = FailureReason(p, r, i);
      if (failures.size() < kListedFailures)
        failures.push_back({{"evaluation", evaluated + static_cast<std::uint64_t>(i)},
                            {"parameters", points[static_cast<size_t>(i)]},
                            {"status", SolveStatusName(st)},
                            {"reason", reasons[static_cast<size_t>(i)]}});
    }
    evaluated += static_cast<std::uint64_t>(r.nSystems);
    return r;
  }
  /// The study value of each system (NaN where the status is not ok).
  std::vector<double> Column(const BatchResult& r) const {
    std::vector<double> v(static_cast<size_t>(r.nSystems));
    for (int i = 0; i < r.nSystems; ++i) v[static_cast<size_t>(i)] = r.Value(i, column);
    return v;
  }

  Json Summary(const std::string& command) const {
    Json counts = Json::object();
    for (const auto& [k, n] : statusCounts) counts[k] = n;
    Json names = Json::array();
    for (const auto& n : objectives.valueNames) names.push_back(n);
    return Json{{"mbsweep", kMbsweepVersion},
                {"command", command},
                {"study", file.path},
                {"studyType", StudyTypeName(file.study.type)},
                {"backend", backend},
                {"settings", SettingsJson(file)},
                {"objectives", names},
                {"studyObjective", objectives.valueNames.at(static_cast<size_t>(column))},
                {"evaluations", evaluated},
                {"counts", counts},
                {"failures", failures},
                {"warnings", warnings},
                {"timings", {{"totalSeconds", Seconds(start)}, {"evaluationSeconds", evaluationSeconds}}}};
  }
};

void RequireStudy(const StudyFile& f, std::initializer_list<StudyType> types, const std::string& command) {
  for (StudyType t : types)
    if (f.study.type == t) return;
  std::string valid;
  for (StudyType t : types) valid += std::string(valid.empty() ? "" : " or ") + StudyTypeName(t);
  throw StudyFileError(f.study.where.file.empty() ? FilePosition{f.path, 0, 0} : f.study.where,
                       "'" + command + "' needs study.type " + valid + ", the file has " + StudyTypeName(f.study.type));
}

/// Builds the objective set of a study from its file and compiled layout.
using DescribeObjectives = std::function<ObjectiveSetDescription(const StudyFile&, const Layout&)>;

/// Opens the study: compiles, maps parameters, builds the objectives (the file's
/// `objectives:`, or what `describe` makes of the file) and creates the evaluator.
void OpenSession(Session& s, const Options& o, const std::string& backend, const DescribeObjectives& describe = {}) {
  s.file = LoadStudy(o);
  s.layout = s.file.model.Compile();
  s.map = std::make_unique<ParameterMap>(s.layout, s.file.model.Theta0());
  s.mapping = MakeStudyMapping(s.file, s.layout, *s.map);
  s.description = describe ? describe(s.file, s.layout) : s.file.objectives;
  const ObjectiveSetDescription& d = s.description;
  if (d.objectives.empty())
    throw StudyFileError(FilePosition{s.file.path, 0, 0}, "the study needs at least one entry in objectives.list");
  s.objectives = BuildObjectives(d, s.layout, s.file.model.Theta0());
  for (const auto& w : SignalWarnings(s.file, d, s.objectives)) s.Warn(w);
  s.column = 0;
  if (!s.file.study.objective.empty()) {
    const auto& names = s.objectives.valueNames;
    const auto it = std::find(names.begin(), names.end(), s.file.study.objective);
    if (it == names.end()) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw StudyFileError(s.file.study.where, "study.objective = '" + s.file.study.objective +
                                                   "' is not an objective value; valid: " + list);
    }
    s.column = static_cast<int>(it - names.begin());
  }
  EvaluatorOptions eo;
  eo.threads = o.threads;
  s.evaluator = CreateEvaluator(backend, eo);
  s.backend = s.evaluator->Name();
}

// ---------------------------------------------------------------------------------------
// CSV reader for plot: our own CSV outputs, read column-wise as numbers (NaN where a field is
// not a number), so that a million-row results file costs 8 bytes per value; on request the
// first column is also kept as text (the channel names of signals.csv).
// ---------------------------------------------------------------------------------------
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<double>> columns;
  std::vector<std::string> firstColumnText;
  int Column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw ValidationError("CSV file has no column '" + name + "'");
    return static_cast<int>(it - header.begin());
  }
  const std::vector<double>& Numbers(int c) const { return columns.at(static_cast<size_t>(c)); }
};

CsvTable ReadCsv(const std::string& path, bool keepFirstColumnText = false) {
  std::ifstream f(path);
  if (!f) throw ValidationError("cannot read " + path);
  CsvTable t;
  std::string line;
  int lineNo = 0;
  while (std::getline(f, line)) {
    ++lineNo;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = SplitCsvLine(line);
    if (t.header.empty()) {
      t.header = std::move(fields);
      t.columns.resize(t.header.size());
      continue;
    }
    if (fields.size() != t.header.size())
      throw ValidationError(path + ":" + std::to_string(lineNo) + ": " + std::to_string(fields.size()) +
                            " fields, the header has " + std::to_string(t.header.size()));
    for (size_t c = 0; c < fields.size(); ++c) {
      char* end = nullptr;
      const double x = std::strtod(fields[c].c_str(), &end);
      t.columns[c].push_back(end == fields[c].c_str() ? std::numeric_limits<double>::quiet_NaN() : x);
    }
    if (keepFirstColumnText) t.firstColumnText.push_back(std::move(fields[0]));
  }
  return t;
}

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream text;
  text << f.rdbuf();
  return text.str();
}

/// What a resumed run must find unchanged, as lines "key=value" (a refused resume names the
/// keys that changed): the contents (FNV-1a hashes, never paths: the same study named by
/// another path is the same study) of the study file and of every file it reads (reference
/// and measured signals, a design), the --set overrides, and `extra` (lines of the options
/// that change the results).
std::string Fingerprint(const Options& o, const Session& s, const std::string& extra) {
  auto hash = [](const std::string& path) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(Fnv1a64(ReadAll(path))));
    return std::string(buf);
  };
  std::string text = "study file contents=" + hash(o.study);
  for (const auto& set : o.sets) text += "\n--set " + set;  // "name=value": the key is "--set name"
  for (const auto& d : s.description.objectives)
    if (!d.signalFile.empty()) text += "\nsignal file contents of objective " + d.name + "=" + hash(d.signalFile);
  if (!s.file.study.designFile.empty()) text += "\ndesign file contents=" + hash(s.file.study.designFile);
  return text + "\n" + extra;
}

/// A batch of one system at the given theta row (no study parameters).
BatchProblem SingleSystem(const Layout& layout, std::vector<Real> theta, DynamicSolverType solver,
                          const SimulationSettings& settings, const CompiledObjectives& objectives) {
  BatchProblem p;
  p.layout = &layout;
  p.solver = solver;
  p.settings = settings;
  p.objectives = objectives;
  p.nSystems = 1;
  p.theta = std::move(theta);
  p.rowErrors.assign(1, "");
  return p;
}

void PrintOptimum(const std::vector<std::string>& names, const std::vector<double>& values, double value,
                  const std::string& what) {
  std::printf("%s:", what.c_str());
  for (size_t k = 0; k < names.size(); ++k) std::printf(" %s = %.10g", names[k].c_str(), values[k]);
  std::printf("; value = %.10g\n", value);
}

}  // namespace

// =======================================================================================
// simulate
// =======================================================================================
int RunSimulate(const Options& o) {
  const auto start = std::chrono::steady_clock::now();
  // a simulation may write the very reference file an objective of the study compares with
  StudyFile f = LoadStudy(o, false);
  Json warnings = Json::array();
  std::vector<ObjectiveDescription>& listed = f.objectives.objectives;
  for (auto it = listed.begin(); it != listed.end();)
    if (!it->signalFile.empty() && !fs::exists(it->signalFile)) {
      AddWarning(warnings, "objective '" + it->name + "' not evaluated: its signal file " + it->signalFile +
                               " does not exist (yet)");
      it = listed.erase(it);
    } else {
      ++it;
    }
  Model m = f.model;
  const Layout layout = m.Compile();
  std::vector<std::string> outputs{"summary.json"};
  for (const auto& name : layout.sensorNames) outputs.push_back(name + ".txt");
  const OutputFolder folder = OpenOutput(o, "simulate", outputs);
  for (const auto& w : folder.Warnings()) warnings.push_back(w);
  const std::string& out = folder.Path();
  Json sensors = Json::array();
  for (size_t i = 0; i < m.Sensors().size(); ++i) {
    const std::string file = folder.File(layout.sensorNames[i] + ".txt");
    m.SetSensorOutput(SensorIndex{static_cast<int>(i)}, file, true, true);
    sensors.push_back(file);
  }
  Simulation sim(m);
  sim.SolveDynamic(f.settings, f.solver);
  const SolverStatistics& st = sim.Statistics();

  Json parameters = Json::object();
  for (const auto& p : f.parameters) parameters[p.name] = p.value;
  Json finals = Json::object();
  for (size_t i = 0; i < m.Sensors().size(); ++i) {
    Json v = Json::array();
    for (Real x : sim.GetSensorValues(SensorIndex{static_cast<int>(i)})) v.push_back(Number(x));
    finals[layout.sensorNames[i]] = v;
  }
  Json objectives = Json::object();
  if (!f.objectives.objectives.empty()) {
    // The objectives on the batch path (the same reduction a study uses), one system.
    // A model the batch path cannot take (over its capacity) still gets its sensor files.
    const CompiledObjectives co = BuildObjectives(f.objectives, layout, m.Theta0());
    for (const auto& w : SignalWarnings(f, f.objectives, co)) AddWarning(warnings, w);
    try {
      const BatchProblem one = SingleSystem(layout, m.Theta0(), f.solver, f.settings, co);
      const BatchResult r = CreateCpuEvaluator({1})->Evaluate(one);
      for (size_t k = 0; k < co.valueNames.size(); ++k)
        objectives[co.valueNames[k]] = Number(r.Value(0, static_cast<int>(k)));
      if (!o.quiet)
        for (size_t k = 0; k < co.valueNames.size(); ++k)
          std::printf("%s = %.12g\n", co.valueNames[k].c_str(), r.Value(0, static_cast<int>(k)));
    } catch (const ValidationError& e) {
      std::fprintf(stderr, "warning: objectives not evaluated: %s\n", e.what());
    }
  }
  Json summary{{"mbsweep", kMbsweepVersion},
               {"command", "simulate"},
               {"study", f.path},
               {"studyType", "Simulation"},
               {"backend", "cpu reference solver"},
               {"settings", SettingsJson(f)},
               {"parameters", parameters},
               {"sensorFiles", sensors},
               {"finalSensorValues", finals},
               {"objectives", objectives},
               {"warnings", warnings},
               {"statistics",
                {{"steps", st.steps},
                 {"rejectedSteps", st.rejectedSteps},
                 {"newtonIterations", st.newtonIterations},
                 {"jacobianUpdates", st.jacobianUpdates}}},
               {"timings", {{"totalSeconds", Seconds(start)}}}};
  WriteJson(folder.File("summary.json"), summary);
  if (!o.quiet)
    std::printf("simulated t = %g .. %g in %d steps; %zu sensor files and summary.json in %s\n",
                f.settings.timeIntegration.startTime, sim.State().t, st.steps, m.Sensors().size(), out.c_str());
  return 0;
}

// =======================================================================================
// sweep: ParameterVariation grid or sampling design, chunk by chunk, resumable
// =======================================================================================
namespace {

using PointSource = StudyPointSource;

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

/// The rows of sweep points [begin, end): evaluated as one batch of the session.
ChunkEvaluator SweepChunks(Session& s, const PointSource& source) {
  return [&s, &source, points = Points{}, py = std::vector<std::vector<PyNumber>>{}](
             std::uint64_t begin, std::uint64_t end, StudyRowChunk& rows) mutable {
    source.Fill(begin, end, points, py);
    const BatchResult r = s.Evaluate(points);
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
      row.reason = s.reasons[i];
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

void PrintSweep(const Session& s, const SummaryAccumulator& acc, std::uint64_t total) {
  std::string counts;
  for (const auto& [k, n] : acc.Counts()) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + k;
  std::printf("%llu systems (%llu evaluated now) on %s in %.3f s: %s\n", static_cast<unsigned long long>(total),
              static_cast<unsigned long long>(s.evaluated), s.backend.c_str(), s.evaluationSeconds, counts.c_str());
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
  const PointSource source(st, count, seed);
  const ParameterGrid* grid = source.Grid();
  for (const auto& w : source.Warnings()) s.Warn(w);
  ChunkedStudyPlan plan;
  plan.total = source.Total();
  plan.chunkSize = SweepChunkSize(o, s, plan.total);
  plan.resume = o.resume;
  plan.name = "sweep";

  s.OpenFolder(o, "sweep", {"results.csv", "results.txt", "summary.json", "manifest.txt"}, o.resume);
  const std::string resultsTxt = s.folder.File("results.txt"), resultsCsv = s.folder.File("results.csv");
  const std::string& objective = s.objectives.valueNames[static_cast<size_t>(s.column)];
  plan.outputs = {resultsCsv};
  if (grid) plan.outputs.push_back(resultsTxt);
  plan.manifestPath = s.folder.File("manifest.txt");
  plan.fingerprint = Fingerprint(o, s, "chunk size=" + std::to_string(plan.chunkSize) + "\nseed=" +
                                           std::to_string(seed) + "\ncount=" + std::to_string(count));
  ResultsCsvSink csv(resultsCsv, names, s.objectives.valueNames);
  // on resume the counts and the optimum start from the rows kept from the earlier run
  SummaryAccumulator acc([&](const auto& add) { ReadResultsCsvRows(resultsCsv, names, objective, add); });
  std::vector<StudySink*> sinks{&acc, &csv};
  std::unique_ptr<GridResultsFileSink> txt;
  if (grid) {
    txt = std::make_unique<GridResultsFileSink>(resultsTxt, *grid, "mbsweep " + s.backend, st.addComputationIndex);
    sinks.push_back(txt.get());
  }
  std::optional<Progress> progress;  // started once the resumed rows are known
  CallbackSink startProgress([](const StudyRowChunk&) {}, [&](std::uint64_t resumedRows) {
    progress.emplace("sweep", plan.total, "systems", o.quiet, resumedRows);
  });
  sinks.push_back(&startProgress);
  const ChunkedStudyRun run = RunChunkedStudy(plan, SweepChunks(s, source), sinks, [&](std::uint64_t end) {
    progress->Update(end);
  });
  progress->Finish();

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

// =======================================================================================
// optimize: GeneticOptimization, one batch per generation
// =======================================================================================
namespace {

GeneticOptions GeneticOptionsFor(const StudySpec& st, const Options& o) {
  GeneticOptions g = st.genetic;
  if (o.seed) {
    if (*o.seed > 0xFFFFFFFFu)
      throw ValidationError("--seed = " + std::to_string(*o.seed) +
                            " violates 0 <= seed <= 2^32-1 (the seed range of randomizerInitialization)");
    g.randomizerInitialization = static_cast<std::int64_t>(*o.seed);
  }
  return g;
}

/// history.csv: generation, evaluation, parameters..., value.
void WriteHistory(const std::string& path, const GeneticResult& r) {
  std::string f = "generation,evaluation";
  for (const auto& n : r.names) f += "," + CsvField(n);
  f += ",value\n";
  for (size_t g = 0; g + 1 < r.generationOffsets.size(); ++g)
    for (size_t i = r.generationOffsets[g]; i < r.generationOffsets[g + 1]; ++i) {
      f += std::to_string(g) + "," + std::to_string(i);
      for (double x : r.parameterHistory[i]) f += "," + PyStr(x);
      f += "," + PyStr(r.valueHistory[i]) + "\n";
    }
  WriteFileAtomic(path, f, "history file");
}

Json BestPerGeneration(const GeneticResult& r) {
  Json best = Json::array();
  double sofar = std::numeric_limits<double>::infinity();
  for (size_t g = 0; g + 1 < r.generationOffsets.size(); ++g) {
    for (size_t i = r.generationOffsets[g]; i < r.generationOffsets[g + 1]; ++i)
      if (r.valueHistory[i] < sofar) sofar = r.valueHistory[i];
    best.push_back(Number(sofar));
  }
  return best;
}

Json ParameterObject(const std::vector<std::string>& names, const std::vector<double>& values) {
  Json j = Json::object();
  for (size_t k = 0; k < names.size(); ++k) j[names[k]] = Number(values[k]);
  return j;
}

}  // namespace

int RunOptimize(const Options& o) {
  Session s;
  OpenSession(s, o, o.backend);
  RequireStudy(s.file, {StudyType::GeneticOptimization}, "optimize");
  const StudySpec& st = s.file.study;
  GeneticOptions g = GeneticOptionsFor(st, o);
  s.OpenFolder(o, "optimize", {"results.txt", "results.txt.manifest", "history.csv", "summary.json"}, o.resume);
  const std::string& out = s.folder.Path();
  g.resultsFile = s.folder.File("results.txt");
  g.resume = o.resume;
  g.fingerprint = Fingerprint(o, s, "command=optimize");
  Progress progress("optimize", static_cast<std::uint64_t>(g.numberOfGenerations), "generations", o.quiet);
  g.onGeneration = [&](int generation, std::size_t, const GeneticIndividuals&, const std::vector<double>&) {
    progress.Update(static_cast<std::uint64_t>(generation + 1));
  };
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
                static_cast<unsigned long long>(s.evaluated), s.backend.c_str(), s.evaluationSeconds, out.c_str());
  }
  return 0;
}

// =======================================================================================
// sensitivity
// =======================================================================================
int RunSensitivity(const Options& o) {
  Session s;
  OpenSession(s, o, o.backend);
  RequireStudy(s.file, {StudyType::Sensitivity}, "sensitivity");
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

// =======================================================================================
// identify: GA + Nelder-Mead against measured signals
// =======================================================================================
int RunIdentify(const Options& o) {
  Session s;
  OpenSession(s, o, o.backend, [](const StudyFile& f, const Layout& layout) {
    RequireStudy(f, {StudyType::Identification}, "identify");
    // the study file has resolved the channels' files against its folder already
    return BuildIdentificationObjectives(f.study.measured, layout.sensorNames, "", f.objectives.samplePeriod);
  });
  s.column = IdentificationColumn(s.objectives);  // the weighted sum of the channels' RMS errors
  const StudySpec& st = s.file.study;
  GeneticOptions g = GeneticOptionsFor(st, o);
  s.OpenFolder(o, "identify", {"results.txt", "results.txt.manifest", "history.csv", "signals.csv", "summary.json"},
               o.resume);
  const std::string& out = s.folder.Path();
  g.resultsFile = s.folder.File("results.txt");
  g.resume = o.resume;  // the GA generations resume; the short refinement runs again
  g.fingerprint = Fingerprint(o, s, "command=identify");
  Progress progress("identify (GA)", static_cast<std::uint64_t>(g.numberOfGenerations), "generations", o.quiet);
  g.onGeneration = [&](int generation, std::size_t, const GeneticIndividuals&, const std::vector<double>&) {
    progress.Update(static_cast<std::uint64_t>(generation + 1));
  };
  const IdentificationResult r = Identify([&](const GeneticIndividuals& ind) { return s.Column(s.Evaluate(ind)); },
                                          st.geneticParameters, g, st.identification);
  progress.Finish();
  WriteHistory(s.folder.File("history.csv"), r.genetic);

  // Channel values at the fit, and simulated against measured signals for the plot.
  const BatchResult atFit = s.Evaluate({r.parameters});
  // the reference solver on the fitted theta row (the same row the batch evaluated)
  Model m = s.file.model;
  for (size_t i = 0; i < m.Sensors().size(); ++i) m.SetSensorOutput(SensorIndex{static_cast<int>(i)}, "", false, true);
  Simulation sim(m);
  s.map->BuildRow(StudyRows(s.mapping, {r.parameters}).data(), sim.Theta().data());
  sim.SolveDynamic(s.file.settings, s.file.solver);
  const std::string signals = s.folder.File("signals.csv");
  std::string f = "channel,time,measured,simulated\n";
  Json channels = Json::array();
  for (size_t c = 0; c < st.measured.size(); ++c) {
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
                        {"sensor", st.measured[c].sensor},
                        {"file", od.signalFile},
                        {"weight", od.weight},
                        {"rmsError", Number(atFit.Value(0, static_cast<int>(c)))}});
  }
  WriteFileAtomic(signals, f, "signals file");

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
                s.backend.c_str(), s.evaluationSeconds, out.c_str());
  }
  return 0;
}

// =======================================================================================
// compare: one batch on cpu and cuda
// =======================================================================================
int RunCompare(const Options& o) {
  Session s;
  OpenSession(s, o, "cpu");
  const StudySpec& st = s.file.study;
  std::string why;
  if (!CudaAvailable(&why)) throw ValidationError("compare needs the cuda backend: " + why);
  std::unique_ptr<Evaluator> cuda = CreateEvaluator("cuda");
  s.OpenFolder(o, "compare", {"summary.json"});

  // The study's first points: the grid or design a sweep would run first, the sensitivity
  // points, or (GA, identification) a Latin hypercube over the ranges.
  const std::uint64_t want = o.systems ? o.systems : 4096;
  Points points;
  switch (st.type) {
    case StudyType::ParameterVariation:
    case StudyType::Sampling: {
      const PointSource source(st, st.count, st.seed);
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
  const BatchResult rg = cuda->Evaluate(p);
  const BatchComparison c = CompareBatchResults(rc, rg);
  Json cols = Json::object();
  for (size_t k = 0; k < s.objectives.valueNames.size(); ++k)
    cols[s.objectives.valueNames[k]] = {{"maxAbsDeviation", Number(c.maxAbsDeviation[k])},
                                        {"maxRelDeviation", Number(c.maxRelDeviation[k])}};
  Json summary = s.Summary("compare");
  summary["backend"] = "cpu vs cuda";
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
  summary["seconds"] = {{"cpu", rc.seconds}, {"cuda", rg.seconds}};
  summary["speedup"] = Number(c.speedup);
  WriteJson(s.folder.File("summary.json"), summary);
  if (!o.quiet) std::printf("%zu systems\n%s", points.size(), FormatComparison(c, s.objectives.valueNames).c_str());
  return 0;
}

// =======================================================================================
// plot
// =======================================================================================
namespace {

std::string SafeName(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return s;
}

/// value against each parameter (Exudyn's PlotOptimizationResults2D), one PNG per parameter.
std::vector<std::string> ScatterPlots(const std::string& dir, const std::vector<std::string>& names,
                                      const std::vector<std::vector<double>>& columns, const std::vector<double>& values,
                                      const std::string& valueName, const std::string& study) {
  std::vector<std::string> files;
  bool positive = true;
  for (double v : values) positive = positive && !(v <= 0);
  for (size_t k = 0; k < names.size(); ++k) {
    PlotSeries series{valueName, columns[k], values, false, true};
    PlotOptions po;
    po.title = valueName + " against " + names[k] + " (" + study + ")";
    po.xLabel = names[k];
    po.yLabel = valueName;
    po.yLog = positive;
    const std::string path = Join(dir, "value_vs_" + SafeName(names[k]) + ".png");
    WriteLinePlot(path, {series}, po);
    files.push_back(path);
  }
  return files;
}

}  // namespace

int RunPlot(const Options& o) {
  std::vector<std::string> written;
  if (fs::is_directory(o.plotInput)) {
    const std::string in = o.plotInput;
    // held while the figures are written: a run still writing into the folder is named
    const OutputFolder folder = OutputFolder::Open(o.out.empty() ? in : o.out, "mbsweep plot " + in, {}, true);
    const std::string& out = folder.Path();
    std::ifstream sf(Join(in, "summary.json"));
    if (!sf) throw ValidationError(in + " has no summary.json (is it an output folder of mbsweep?)");
    const Json summary = Json::parse(sf);
    const std::string type = summary.value("studyType", "");
    const std::string command = summary.value("command", "");
    const std::string objective = summary.value("studyObjective", "value");
    if (command == "sweep") {
      const CsvTable t = ReadCsv(Join(in, "results.csv"));
      const int vc = t.Column(objective);
      const int first = 1, last = t.Column(summary["objectives"][0].get<std::string>());  // parameters in between
      std::vector<std::string> names(t.header.begin() + first, t.header.begin() + last);
      std::vector<std::vector<double>> cols;
      for (int c = first; c < last; ++c) cols.push_back(t.Numbers(c));
      const std::vector<double>& values = t.Numbers(vc);
      written = ScatterPlots(out, names, cols, values, objective, type);
      if (type == "ParameterVariation" && names.size() == 2) {
        std::vector<double> x = cols[1], y = cols[0];  // first parameter slowest: rows
        std::sort(x.begin(), x.end());
        x.erase(std::unique(x.begin(), x.end()), x.end());
        std::sort(y.begin(), y.end());
        y.erase(std::unique(y.begin(), y.end()), y.end());
        std::vector<double> z(x.size() * y.size(), std::numeric_limits<double>::quiet_NaN());
        for (size_t i = 0; i < values.size(); ++i) {
          const size_t ix = static_cast<size_t>(std::lower_bound(x.begin(), x.end(), cols[1][i]) - x.begin());
          const size_t iy = static_cast<size_t>(std::lower_bound(y.begin(), y.end(), cols[0][i]) - y.begin());
          z[iy * x.size() + ix] = values[i];
        }
        PlotOptions po;
        po.title = objective + " over the grid";
        po.xLabel = names[1];
        po.yLabel = names[0];
        const std::string path = Join(out, "heatmap.png");
        WriteHeatMap(path, x, y, z, po, objective);
        written.push_back(path);
      }
    } else if (command == "optimize" || command == "identify") {
      const CsvTable t = ReadCsv(Join(in, "history.csv"));
      const int vc = t.Column("value");
      std::vector<std::string> names(t.header.begin() + 2, t.header.begin() + vc);
      std::vector<std::vector<double>> cols;
      for (int c = 2; c < vc; ++c) cols.push_back(t.Numbers(c));
      written = ScatterPlots(out, names, cols, t.Numbers(vc), objective, "genetic optimization");
      PlotSeries best{"best value", {}, {}, true, true};
      const Json& bpg = command == "optimize" ? summary["bestPerGeneration"] : summary["genetic"]["bestPerGeneration"];
      for (size_t g = 0; g < bpg.size(); ++g) {
        best.x.push_back(static_cast<double>(g));
        best.y.push_back(bpg[g].is_null() ? NAN : bpg[g].get<double>());
      }
      PlotOptions po;
      po.title = "best value per generation";
      po.xLabel = "generation";
      po.yLabel = objective;
      po.yLog = std::all_of(best.y.begin(), best.y.end(), [](double v) { return !(v <= 0); });
      written.push_back(Join(out, "convergence.png"));
      WriteLinePlot(written.back(), {best}, po);
      if (command == "identify") {
        const CsvTable sig = ReadCsv(Join(in, "signals.csv"), true);
        const std::vector<double>& tt = sig.Numbers(1);
        const std::vector<double>& me = sig.Numbers(2);
        const std::vector<double>& si = sig.Numbers(3);
        std::vector<std::string> channels;
        for (const auto& c : sig.firstColumnText)
          if (std::find(channels.begin(), channels.end(), c) == channels.end()) channels.push_back(c);
        for (const auto& ch : channels) {
          PlotSeries m{"measured", {}, {}, false, true}, sm{"simulated (fit)", {}, {}, true, false};
          for (size_t i = 0; i < sig.firstColumnText.size(); ++i)
            if (sig.firstColumnText[i] == ch) {
              m.x.push_back(tt[i]), m.y.push_back(me[i]);
              sm.x.push_back(tt[i]), sm.y.push_back(si[i]);
            }
          PlotOptions so;
          so.title = "measured vs simulated: " + ch;
          so.xLabel = "time (s)";
          so.yLabel = ch;
          written.push_back(Join(out, "signals_" + SafeName(ch) + ".png"));
          WriteLinePlot(written.back(), {m, sm}, so);
        }
      }
    } else if (command == "sensitivity") {
      // each objective against each parameter around the reference (the points the
      // differences were taken from), titled with the sensitivity
      const CsvTable t = ReadCsv(Join(in, "evaluations.csv"), true);
      std::vector<std::string> params;
      for (const auto& p : t.firstColumnText)
        if (std::find(params.begin(), params.end(), p) == params.end()) params.push_back(p);
      for (const auto& p : params)
        for (size_t c = 2; c < t.header.size(); ++c) {
          PlotSeries sr{t.header[c], {}, {}, true, true};
          std::vector<std::pair<double, double>> xy;
          for (size_t i = 0; i < t.firstColumnText.size(); ++i)
            if (t.firstColumnText[i] == p) xy.emplace_back(t.columns[1][i], t.columns[c][i]);
          std::sort(xy.begin(), xy.end());
          for (const auto& [x, y] : xy) sr.x.push_back(x), sr.y.push_back(y);
          PlotOptions po;
          const Json& d = summary["sensitivity"][p][t.header[c]];
          po.title = t.header[c] + " against " + p + " (sensitivity " + (d.is_null() ? "nan" : FormatNumber(d.get<double>(), 6)) + ")";
          po.xLabel = p;
          po.yLabel = t.header[c];
          written.push_back(Join(out, "sensitivity_" + SafeName(p) + "_" + SafeName(t.header[c]) + ".png"));
          WriteLinePlot(written.back(), {sr}, po);
        }
    } else {
      throw ValidationError("nothing to plot for a '" + command + "' run (plots exist for sweep, optimize, identify, sensitivity)");
    }
  } else {
    // An Exudyn-format results file (ours or Exudyn's): value against each parameter.
    const ResultsFileContents c = ReadResultsFile(o.plotInput);
    const std::string dir = o.out.empty() ? fs::path(o.plotInput).parent_path().string() : o.out;
    const OutputFolder folder = OutputFolder::Open(dir.empty() ? "." : dir, "mbsweep plot " + o.plotInput, {}, true);
    const std::string& out = folder.Path();
    const std::vector<std::string>& names = c.header.parameterNames;
    std::vector<std::vector<double>> cols(names.size());
    std::vector<double> values;
    for (const auto& r : c.rows) {
      if (r.parameters.size() != names.size())
        throw ValidationError(o.plotInput + ": row " + std::to_string(r.globalIndex) + " has " +
                              std::to_string(r.parameters.size()) + " parameters, the header names " +
                              std::to_string(names.size()));
      values.push_back(r.value.items.empty() ? NAN : r.value.items[0].value);
      for (size_t k = 0; k < names.size(); ++k) cols[k].push_back(r.parameters[k].value);
    }
    written = ScatterPlots(out, names, cols, values, "value", c.header.fileType);
  }
  if (!o.quiet)
    for (const auto& w : written) std::printf("%s\n", w.c_str());
  return 0;
}

}  // namespace mbsweep::cli
