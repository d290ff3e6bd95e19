// The helpers the mbsweep subcommands share (session.h).
#include "studies/cli/session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "common/output_file.h"
#include "studies/checkpoint.h"
#include "studies/cli/progress.h"
#include "studies/identification.h"
#include "studies/rank_evaluator.h"
#include "studies/ranks.h"
#include "studies/results_file.h"

namespace mbsweep::cli {

namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream text;
  text << f.rdbuf();
  return text.str();
}

}  // namespace

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

/// NaN and infinities are not JSON numbers: they become null.
Json Number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

/// The output folder of a command (--out, or <study name>_out), created, locked and checked
/// before anything runs (output_folder.h); its warnings go to stderr at once (and into the
/// summary through Session::warnings or the caller).
OutputFolder OpenOutput(const Options& o, const std::string& command, const std::vector<std::string>& outputs,
                        bool resume) {
  const std::string dir = o.out.empty() ? fs::path(o.study).stem().string() + "_out" : o.out;
  OutputFolder f = OutputFolder::Open(dir, "mbsweep " + command + " " + o.study, outputs, resume);
  for (const auto& w : f.Warnings()) std::fprintf(stderr, "warning: %s\n", w.c_str());
  return f;
}

std::string Join(const std::string& dir, const std::string& name) { return (fs::path(dir) / name).string(); }

void WriteJson(const std::string& path, const Json& j) { WriteFileAtomic(path, j.dump(2) + "\n", "summary file"); }

/// The study file with --set overrides applied (the model rebuilt at the new nominal values).
StudyFile LoadStudy(const Options& o, bool readDataFiles) {
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
  if (Ranks::World().IsRoot()) std::fprintf(stderr, "warning: %s\n", w.c_str());  // once per job
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

void Session::OpenFolder(const Options& o, const std::string& command, const std::vector<std::string>& outputs,
                           bool resume) {
  folder = OpenOutput(o, command, outputs, resume);
  for (const auto& w : folder.Warnings()) warnings.push_back(w);
}

BatchResult Session::Run(const Points& points, std::vector<std::string>& why) const {
  const std::vector<double> rows = StudyRows(mapping, points);
  BatchProblem p = MakeBatch(layout, *map, rows, file.solver, file.settings, objectives);
  p.finished = &systemsFinished;
  BatchResult r = evaluator->Evaluate(p);
  why.assign(static_cast<size_t>(r.nSystems), "");
  for (int i = 0; i < r.nSystems; ++i)
    if (r.status[static_cast<size_t>(i)] != SolveStatus::ok) why[static_cast<size_t>(i)] = FailureReason(p, r, i);
  return r;
}

void Session::Count(const std::vector<double>& point, const std::string& status, const std::string& reason) {
  ++statusCounts[status];
  if (status != SolveStatusName(SolveStatus::ok) && failures.size() < kListedFailures)
    failures.push_back({{"evaluation", evaluated}, {"parameters", point}, {"status", status}, {"reason", reason}});
  ++evaluated;
}

BatchResult Session::Evaluate(const Points& points) {
  std::vector<std::string> why;
  BatchResult r = Run(points, why);
  evaluationSeconds += r.seconds;
  for (int i = 0; i < r.nSystems; ++i)
    Count(points[static_cast<size_t>(i)], SolveStatusName(r.status[static_cast<size_t>(i)]), why[static_cast<size_t>(i)]);
  return r;
}

std::vector<double> Session::Column(const BatchResult& r) const {
  std::vector<double> v(static_cast<size_t>(r.nSystems));
  for (int i = 0; i < r.nSystems; ++i) v[static_cast<size_t>(i)] = r.Value(i, column);
  return v;
}

Json Session::Summary(const std::string& command) const {
  Json counts = Json::object();
  for (const auto& [k, n] : statusCounts) counts[k] = n;
  Json names = Json::array();
  for (const auto& n : objectives.valueNames) names.push_back(n);
  return Json{{"mbsweep", kMbsweepVersion},
              {"command", command},
              {"study", file.path},
              {"studyType", StudyTypeName(file.study.type)},
              {"backend", Backend()},
              {"ranks", Ranks::World().Size()},
              {"settings", SettingsJson(file)},
              {"objectives", names},
              {"studyObjective", objectives.valueNames.at(static_cast<size_t>(column))},
              {"evaluations", evaluated},
              {"counts", counts},
              {"failures", failures},
              {"warnings", warnings},
              {"timings", {{"totalSeconds", Seconds(start)}, {"evaluationSeconds", evaluationSeconds}}}};
}

bool ServeOtherRanks(Session& s) {
  Ranks& ranks = Ranks::World();
  if (ranks.Size() == 1) return false;
  if (ranks.IsRoot()) {
    s.evaluator = std::make_unique<RankEvaluator>(std::move(s.evaluator), ranks);
    return false;
  }
  ServeBatches(ranks, *s.evaluator, s.layout, s.file.solver, s.file.settings, s.objectives);
  return true;
}

void RequireStudy(const StudyFile& f, std::initializer_list<StudyType> types, const std::string& command) {
  for (StudyType t : types)
    if (f.study.type == t) return;
  std::string valid;
  for (StudyType t : types) valid += std::string(valid.empty() ? "" : " or ") + StudyTypeName(t);
  throw StudyFileError(f.study.where.file.empty() ? FilePosition{f.path, 0, 0} : f.study.where,
                       "'" + command + "' needs study.type " + valid + ", the file has " + StudyTypeName(f.study.type));
}

ObjectiveSetDescription StudyObjectives(const StudyFile& f, const Layout& layout) {
  if (f.study.type != StudyType::Identification) return f.objectives;
  // the study file has resolved the channels' files against its folder already
  return BuildIdentificationObjectives(f.study.measured, layout.sensorNames, "", f.objectives.samplePeriod);
}

/// Opens the study: compiles, maps parameters, builds the objectives (the file's
/// `objectives:`, or what `describe` makes of the file) and creates the evaluator.
void OpenSession(Session& s, const Options& o, const std::string& backend, const DescribeObjectives& describe) {
  s.file = LoadStudy(o);
  s.layout = s.file.model.Compile();
  s.map = std::make_unique<ParameterMap>(s.layout, s.file.model.Theta0());
  s.mapping = MakeStudyMapping(s.file, s.layout, *s.map);
  s.description = describe ? describe(s.file, s.layout) : s.file.objectives;
  const ObjectiveSetDescription& d = s.description;
  if (d.objectives.empty())
    throw StudyFileError(FilePosition{s.file.path, 0, 0}, "the study needs at least one entry in objectives.list");
  s.objectives = BuildObjectives(d, s.layout, s.file.model.Theta0());
  for (const auto& w : s.file.warnings) s.Warn(w);
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
  const Ranks& ranks = Ranks::World();
  eo.threads = o.threads ? o.threads : ranks.DefaultThreads();  // ranks on one node share its cores
  // one GPU per rank on a node: the rank's place on it, modulo the devices it sees (a
  // launcher that gives each rank one device shows it as device 0)
  if (ranks.Size() > 1 && backend != "cpu" && backend != "cpu-jit")
    eo.device = ranks.LocalRank() % std::max(1, CudaDeviceCount());
  s.evaluator = CreateEvaluator(backend, eo);
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

void ReportGenerations(GeneticOptions& g, Progress& progress) {
  g.onGeneration = [&progress, best = std::numeric_limits<double>::infinity()](
                       int generation, std::size_t, const GeneticIndividuals&, const std::vector<double>& values) mutable {
    for (double v : values)
      if (v < best) best = v;
    char detail[48];
    std::snprintf(detail, sizeof detail, "best %.6g", best);
    progress.Update(static_cast<std::uint64_t>(generation + 1), std::isfinite(best) ? detail : "");
  };
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

}  // namespace mbsweep::cli
