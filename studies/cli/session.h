/// @file session.h
/// What the mbsweep subcommands (commands.h, one file each under studies/cli/) share: the
/// output folder, summary.json helpers, the study session (compiled model, parameter map,
/// objectives, evaluator and the counters of everything evaluated), the resume fingerprint
/// and the GeneticOptimization outputs of optimize and identify. Internal to the command line.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/batch.h"
#include "studies/cli/commands.h"
#include "studies/genetic.h"
#include "studies/output_folder.h"
#include "studies/study_file.h"

namespace mbsweep::cli {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using Points = std::vector<std::vector<double>>;

/// Seconds since `since`.
double Seconds(std::chrono::steady_clock::time_point since);
/// NaN and infinities are not JSON numbers: they become null.
Json Number(double v);
/// The output folder of a command (--out, or <study name>_out), created, locked and checked
/// before anything runs (output_folder.h); its warnings go to stderr at once (and into the
/// summary through Session::warnings or the caller).
OutputFolder OpenOutput(const Options& o, const std::string& command, const std::vector<std::string>& outputs,
                        bool resume = false);
/// dir/name.
std::string Join(const std::string& dir, const std::string& name);
/// Writes `j` (indented, with a final newline) atomically.
void WriteJson(const std::string& path, const Json& j);
/// The study file with --set overrides applied (the model rebuilt at the new nominal values).
StudyFile LoadStudy(const Options& o, bool readDataFiles = true);
/// The settings of summary.json.
Json SettingsJson(const StudyFile& f);
/// A warning: on stderr at once (by rank 0 only under MPI), and into `warnings` (summary.json).
void AddWarning(Json& warnings, const std::string& w);
/// Measured signals that do not cover the study's simulated time span (SignalCoverageWarnings).
std::vector<std::string> SignalWarnings(const StudyFile& f, const ObjectiveSetDescription& d,
                                        const CompiledObjectives& co);

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
  /// Systems the CPU evaluators finished in this process so far, counted while they run (the
  /// progress inside a chunk; BatchProblem::finished).
  mutable std::atomic<std::uint64_t> systemsFinished{0};
  double evaluationSeconds = 0;
  std::uint64_t evaluated = 0;
  std::map<std::string, std::uint64_t> statusCounts;
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
                  bool resume = false);
  /// Evaluates the points as one batch; counts statuses, keeps the reasons and the first failures.
  BatchResult Evaluate(const Points& points);
  /// Evaluates the points as one batch and says why each system failed ("" for ok); counts
  /// nothing (the evaluator is the only state it uses).
  BatchResult Run(const Points& points, std::vector<std::string>& why) const;
  /// Counts one evaluated system: its status, and it among the listed failures if not ok.
  void Count(const std::vector<double>& point, const std::string& status, const std::string& reason);
  /// The study value of each system (NaN where the status is not ok).
  std::vector<double> Column(const BatchResult& r) const;
  /// What has run the batches so far (the evaluator's name: `auto` without a GPU may list the
  /// interpreter, then compiled code).
  std::string Backend() const { return evaluator->Name(); }
  /// The summary.json fields every command writes.
  Json Summary(const std::string& command) const;
};

/// Under MPI with several ranks (ranks.h): on rank 0 the session's evaluator becomes a
/// RankEvaluator that spreads every batch over the ranks, and false is returned; every other
/// rank serves those batches until rank 0 is done and true is returned (the command then ends
/// there: rank 0 writes every output). One rank: false, nothing changes.
bool ServeOtherRanks(Session& s);

/// StudyFileError unless the file's study.type is one of `types`.
void RequireStudy(const StudyFile& f, std::initializer_list<StudyType> types, const std::string& command);

/// Builds the objective set of a study from its file and compiled layout.
using DescribeObjectives = std::function<ObjectiveSetDescription(const StudyFile&, const Layout&)>;

/// The objectives the study's own command evaluates: for an identification study (`identify`)
/// one RMS error per measured channel and their weighted sum (BuildIdentificationObjectives),
/// else the file's `objectives:`. As many as StudyFile::ObjectiveCount.
ObjectiveSetDescription StudyObjectives(const StudyFile& f, const Layout& layout);

/// Opens the study: compiles, maps parameters, builds the objectives (the file's
/// `objectives:`, or what `describe` makes of the file) and creates the evaluator.
void OpenSession(Session& s, const Options& o, const std::string& backend, const DescribeObjectives& describe = {});

/// What a resumed run must find unchanged, as lines "key=value" (a refused resume names the
/// keys that changed): the contents (FNV-1a hashes, never paths: the same study named by
/// another path is the same study) of the study file and of every file it reads (reference
/// and measured signals, a design), the --set overrides, and `extra` (lines of the options
/// that change the results).
std::string Fingerprint(const Options& o, const Session& s, const std::string& extra);

/// A batch of one system at the given theta row (no study parameters).
BatchProblem SingleSystem(const Layout& layout, std::vector<Real> theta, DynamicSolverType solver,
                          const SimulationSettings& settings, const CompiledObjectives& objectives);

/// "<what>: name = value ...; value = v" on stdout.
void PrintOptimum(const std::vector<std::string>& names, const std::vector<double>& values, double value,
                  const std::string& what);

/// The study's GA options with --seed applied (ValidationError above 2^32-1).
GeneticOptions GeneticOptionsFor(const StudySpec& st, const Options& o);
class Progress;
/// Sets g.onGeneration to update `progress` after each generation with the best value of the
/// generations evaluated in this run.
void ReportGenerations(GeneticOptions& g, Progress& progress);

/// history.csv: generation, evaluation, parameters..., value.
void WriteHistory(const std::string& path, const GeneticResult& r);
/// The best value so far after each generation.
Json BestPerGeneration(const GeneticResult& r);
/// {name: value} in order.
Json ParameterObject(const std::vector<std::string>& names, const std::vector<double>& values);

}  // namespace mbsweep::cli
