#include "studies/parameter_variation.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "common/rules.h"
#include "studies/checkpoint.h"
#include "studies/genetic.h"
#include "studies/results_file.h"

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

ParameterVariationResult ParameterVariation(const ParameterGrid& grid, const GridChunkObjective& evaluateChunk,
                                            const ParameterVariationOptions& options) {
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

  ParameterVariationResult result{grid, {}, options.addComputationIndex, 0, 0};
  result.values.reserve(static_cast<std::size_t>(grid.Size()));

  ResultsFileWriter writer;
  ChunkManifest manifest;
  const std::uint64_t nChunks = grid.ChunkCount(options.chunkSize);
  std::uint64_t firstChunk = 0;
  if (!options.resultsFile.empty()) {
    std::vector<std::string> outputs{options.resultsFile};
    outputs.insert(outputs.end(), options.checkpointFiles.begin(), options.checkpointFiles.end());
    manifest = ChunkManifest::Open(ChunkManifest::DefaultPath(options.resultsFile),
                                   VariationFingerprint(grid, options), outputs, options.resume);
    firstChunk = manifest.CompletedChunks();
    if (firstChunk > nChunks)
      throw ValidationError("ParameterVariation: resume: the manifest '" + manifest.Path() + "' records " +
                            std::to_string(firstChunk) + " chunks, the grid has " + std::to_string(nChunks));
    if (firstChunk > 0) {
      const std::uint64_t done = std::min(grid.Size(), firstChunk * options.chunkSize);
      result.values = ValuesFromResultsFile(grid, options, done);
      result.resumedChunks = firstChunk;
      writer = ResultsFileWriter::OpenAppend(options.resultsFile);
    } else {
      writer = ResultsFileWriter::Create(options.resultsFile,
                                         MakeResultsHeader(grid, options.resultsFile, options.processingMode));
    }
  }

  const std::size_t dim = grid.Dimension();
  GridPoints points;
  std::vector<ResultsRow> rows;
  GridChunk chunk;
  for (std::uint64_t ci = firstChunk; ci < nChunks; ++ci) {
    const std::uint64_t begin = ci * options.chunkSize;
    grid.FillChunk(begin, grid.Size() - begin < options.chunkSize ? grid.Size() : begin + options.chunkSize, chunk);
    const std::size_t n = chunk.Size();
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
    result.values.insert(result.values.end(), values.begin(), values.end());
    ++result.chunks;
    if (writer.IsOpen()) {
      rows.clear();
      for (std::size_t r = 0; r < n; ++r) {
        ResultsRow row = MakeGridRow(grid, chunk.ComputationIndex(r), ResultValue::Float(values[r]));
        if (!options.addComputationIndex) row.computationIndex = -1;
        rows.push_back(std::move(row));
      }
      writer.Append(rows);
    }
    if (options.onChunk) options.onChunk(chunk.begin, points, values);
    if (manifest.IsOpen()) manifest.MarkCompleted(ci);
  }
  if (writer.IsOpen()) writer.Close();
  if (manifest.IsOpen()) manifest.Close();
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
