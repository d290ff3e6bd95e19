#include "studies/parameter_variation.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "common/rules.h"
#include "studies/checkpoint.h"
#include "studies/genetic.h"
#include "studies/results_file.h"
#include "studies/study_pipeline.h"
#include "studies/study_sinks.h"

namespace mbsweep {

std::vector<long long> ParameterVariationResult::ComputationIndices() const {
  std::vector<long long> idx(static_cast<std::size_t>(grid.Size()));
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<long long>(i);
  return idx;
}

namespace {

/// Everything a finished chunk's values and lines depend on (besides the caller's text).
std::string VariationFingerprint(const ParameterGrid& grid, const ParameterVariationOptions& o) {
  std::string s = "ParameterVariation v1\nranges:";
  for (const ParameterRange& r : grid.Ranges()) s += " " + r.name + "=" + r.ToPythonString() + ";";
  s += "\nuseLogSpace=" + std::string(grid.UseLogSpace() ? "True" : "False");
  s += "\nchunkSize=" + std::to_string(o.chunkSize);
  s += "\naddComputationIndex=" + std::string(o.addComputationIndex ? "True" : "False");
  s += "\nprocessingMode=" + o.processingMode;
  s += "\nresultsFile=" + o.resultsFile;
  for (const auto& f : o.checkpointFiles) s += "\ncheckpointFile=" + f;
  if (!o.fingerprint.empty()) s += "\n" + o.fingerprint;
  return s;
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Values of the first `count` grid points from a resumed results file (checked against the
/// grid: globalIndex, parameters, computationIndex).
std::vector<double> ValuesFromResultsFile(const ParameterGrid& grid, const ParameterVariationOptions& o,
                                          std::uint64_t count) {
  const ResultsFileContents c = ReadResultsFile(o.resultsFile);
  const auto fail = [&](const std::string& what) {
    return ValidationError("ParameterVariation: resume: results file '" + o.resultsFile + "': " + what +
                           "; the file does not belong to this study (run without resume to start again)");
  };
  if (c.header.fileType != "parameter variation" || c.header.parameterNames != grid.Names())
    throw fail("header of type '" + c.header.fileType + "' with other parameters");
  if (c.rows.size() != count)
    throw fail(std::to_string(c.rows.size()) + " rows for " + std::to_string(count) +
               " points of the completed chunks");
  std::vector<double> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const ResultsRow& row = c.rows[i];
    const std::vector<PyNumber> point = grid.PyPoint(i);
    bool ok = row.globalIndex == static_cast<long long>(i) && !row.value.isList && row.value.items.size() == 1 &&
              row.parameters.size() == point.size() &&
              row.computationIndex == (o.addComputationIndex ? static_cast<long long>(i) : -1);
    for (std::size_t k = 0; ok && k < point.size(); ++k)
      ok = row.parameters[k].isInt == point[k].isInt &&
           (point[k].isInt ? row.parameters[k].intValue == point[k].intValue
                           : SameBits(row.parameters[k].value, point[k].value));
    if (!ok) throw fail("row " + std::to_string(i) + " (line " + std::to_string(9 + i) + ") differs from grid point " +
                        std::to_string(i));
    values[i] = row.value.items[0].value;
  }
  return values;
}

}  // namespace

namespace {

/// The values of the variation, in grid order: on resume the completed chunks' values are read
/// back from the results file (before anything is appended to it).
class VariationValues : public StudySink {
 public:
  VariationValues(const ParameterGrid& grid, const ParameterVariationOptions& o, std::vector<double>& values)
      : grid_(grid), options_(o), values_(values) {}
  void Start(std::uint64_t resumedRows) override {
    if (resumedRows > 0) values_ = ValuesFromResultsFile(grid_, options_, resumedRows);
  }
  void Append(const StudyRowChunk& rows) override {
    for (const StudyRow& r : rows) values_.push_back(r.value);
  }

 private:
  const ParameterGrid& grid_;
  const ParameterVariationOptions& options_;
  std::vector<double>& values_;
};

void CheckOptions(const ParameterVariationOptions& options, const GridChunkObjective& evaluateChunk) {
  if (options.chunkSize == 0)
    throw ValidationError("ParameterVariation: chunkSize = 0; it must be >= 1");
  if (!evaluateChunk) throw ValidationError("ParameterVariation: evaluateChunk is empty");
  if (options.resume && options.resultsFile.empty())
    throw ValidationError("ParameterVariation: resume = true needs a resultsFile (the completed chunks are read "
                          "back from it); resultsFile is empty");
  if (!options.checkpointFiles.empty() && options.resultsFile.empty())
    throw ValidationError("ParameterVariation: checkpointFiles ('" + options.checkpointFiles[0] +
                          "', ...) need a resultsFile (the checkpoint lives next to it); resultsFile is empty");
  for (const auto& f : options.checkpointFiles)
    if (f == options.resultsFile)
      throw ValidationError("ParameterVariation: checkpointFiles contains the resultsFile '" + f +
                            "'; it is guarded already and must not be listed");
}

/// Evaluates grid points [begin, end) with evaluateChunk into rows (index, point, value).
ChunkEvaluator GridChunkEvaluator(const ParameterGrid& grid, const GridChunkObjective& evaluateChunk,
                                  GridPoints& points) {
  return [&grid, &evaluateChunk, &points, chunk = GridChunk{}](std::uint64_t begin, std::uint64_t end,
                                                               StudyRowChunk& rows) mutable {
    grid.FillChunk(begin, end, chunk);
    const std::size_t n = chunk.Size(), dim = grid.Dimension();
    points.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
      points[r].resize(dim);
      for (std::size_t k = 0; k < dim; ++k) points[r][k] = chunk.At(r, k);
    }
    const std::vector<double> values = evaluateChunk(points);
    if (values.size() != n)
      throw ValidationError("ParameterVariation: the chunk objective returned " + std::to_string(values.size()) +
                            " values for " + std::to_string(n) + " points (grid points " +
                            std::to_string(chunk.begin) + " .. " + std::to_string(chunk.end - 1) +
                            "); it must return one value per point");
    rows.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
      rows[r].index = chunk.ComputationIndex(r);
      rows[r].value = values[r];
    }
  };
}

}  // namespace

ParameterVariationResult ParameterVariation(const ParameterGrid& grid, const GridChunkObjective& evaluateChunk,
                                            const ParameterVariationOptions& options) {
  CheckOptions(options, evaluateChunk);
  ParameterVariationResult result{grid, {}, options.addComputationIndex, 0, 0};
  result.values.reserve(static_cast<std::size_t>(grid.Size()));

  ChunkedStudyPlan plan;
  plan.total = grid.Size();
  plan.chunkSize = options.chunkSize;
  plan.resume = options.resume;
  plan.name = "ParameterVariation";
  plan.what = "grid";
  VariationValues values(grid, options, result.values);
  GridResultsFileSink txt(options.resultsFile, grid, options.processingMode, options.addComputationIndex);
  GridPoints points;  // the last chunk's points, for onChunk
  CallbackSink callback([&](const StudyRowChunk& rows) {
    std::vector<double> v(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) v[r] = rows[r].value;
    options.onChunk(rows.empty() ? 0 : rows.front().index, points, v);
  });
  std::vector<StudySink*> sinks{&values};
  if (!options.resultsFile.empty()) {
    plan.manifestPath = ChunkManifest::DefaultPath(options.resultsFile);
    plan.fingerprint = VariationFingerprint(grid, options);
    plan.outputs = {options.resultsFile};
    plan.outputs.insert(plan.outputs.end(), options.checkpointFiles.begin(), options.checkpointFiles.end());
    sinks.push_back(&txt);
  }
  if (options.onChunk) sinks.push_back(&callback);
  const ChunkedStudyRun run = RunChunkedStudy(plan, GridChunkEvaluator(grid, evaluateChunk, points), sinks);
  result.chunks = run.evaluatedChunks;
  result.resumedChunks = run.resumedChunks;
  return result;
}

GridChunkObjective MakeGridObjective(Evaluator& evaluator, const Layout& layout, const ParameterMap& map,
                                     const ParameterGrid& grid, DynamicSolverType solver,
                                     const SimulationSettings& settings, const CompiledObjectives& objectives,
                                     int column) {
  const std::vector<std::string>& names = map.ParameterNames();
  const std::vector<std::string> gridNames = grid.Names();
  if (names != gridNames) {
    std::string a, b;
    for (const auto& n : names) a += (a.empty() ? "" : ", ") + n;
    for (const auto& n : gridNames) b += (b.empty() ? "" : ", ") + n;
    throw ValidationError("MakeGridObjective: the parameter map's parameters (" + a +
                          ") differ from the grid's parameters (" + b + "); they must be the same, in order");
  }
  const int nValues = objectives.set.NumValues();
  if (column < 0 || column >= nValues)
    throw ValidationError("MakeGridObjective: column " + std::to_string(column) +
                          " is out of range; the objective set has " + std::to_string(nValues) + " values");
  return [&evaluator, &layout, &map, solver, settings, objectives, column](const GridPoints& points) {
    return EvaluateGenerationBatch(evaluator, layout, map, points, solver, settings, objectives, column);
  };
}

}  // namespace mbsweep
