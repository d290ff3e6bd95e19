#include "studies/parameter_variation.h"

#include <memory>
#include <utility>

#include "common/rules.h"
#include "studies/genetic.h"
#include "studies/results_file.h"

namespace mbsweep {

std::vector<long long> ParameterVariationResult::ComputationIndices() const {
  std::vector<long long> idx(static_cast<std::size_t>(grid.Size()));
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<long long>(i);
  return idx;
}

ParameterVariationResult ParameterVariation(const ParameterGrid& grid, const GridChunkObjective& evaluateChunk,
                                            const ParameterVariationOptions& options) {
  if (options.chunkSize == 0)
    throw ValidationError("ParameterVariation: chunkSize = 0; it must be >= 1");
  if (!evaluateChunk) throw ValidationError("ParameterVariation: evaluateChunk is empty");

  ParameterVariationResult result{grid, {}, options.addComputationIndex, 0};
  result.values.reserve(static_cast<std::size_t>(grid.Size()));

  ResultsFileWriter writer;
  if (!options.resultsFile.empty())
    writer = ResultsFileWriter::Create(options.resultsFile,
                                       MakeResultsHeader(grid, options.resultsFile, options.processingMode));

  const std::size_t dim = grid.Dimension();
  GridPoints points;
  std::vector<ResultsRow> rows;
  grid.ForEachChunk(options.chunkSize, [&](const GridChunk& chunk) {
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
  });
  writer.Close();
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
