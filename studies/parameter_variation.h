/// @file parameter_variation.h
/// ParameterVariation with the semantics of Exudyn's exudyn.processing.ParameterVariation
/// (Exudyn's main/pythonDev/exudyn/processing.py; grid.h, results_file.h): the full tensor grid of a
/// ParameterGrid (first parameter slowest) is evaluated in grid order and the values are
/// returned in grid order together with the grid (Exudyn returns [parameterDict, values]).
///
/// Unlike Exudyn, which calls the parameter function once per point, the grid is evaluated
/// chunk by chunk: evaluateChunk receives at most chunkSize points (each one value per
/// parameter, in grid-parameter order) and returns one value per point (NaN for a failed
/// evaluation; the variation keeps going). Memory is bounded by one chunk of points plus the
/// N values. With MakeGridObjective a chunk is one mbsweep batch on an Evaluator.
///
/// Results file (optional): Exudyn's 'parameter variation' format (results_file.h), header
/// from MakeResultsHeader(grid, resultsFile, processingMode), then one line per grid point
/// "globalIndex, value, p1, ..., pN[, computationIndex]" with globalIndex = the flat grid
/// index, the value as Python's str() ("nan" for NaN), the parameters as in Exudyn (ints for
/// int-type parameters) and computationIndex (= globalIndex) if addComputationIndex. Exudyn
/// appends a line after each evaluation; here each chunk's lines are appended and flushed at
/// once, so a file cut short ends at a chunk boundary.
///
/// Interruption safety (checkpoint.h): with a results file, a manifest
/// `<resultsFile>.manifest` records each completed chunk (after its lines, and the files in
/// checkpointFiles, are flushed). With `resume = true` a killed run continues: the completed
/// chunks are NOT evaluated again, their values are read back from the results file (Python
/// str() round-trips, so they are exact), a partly written chunk is dropped and the rest is
/// appended, giving the same values and a byte-identical results file as an uninterrupted
/// run. The chunks run through RunChunkedStudy (study_pipeline.h): the results file, the
/// values and onChunk are its sinks. Host only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/batch.h"
#include "common/objectives_host.h"
#include "common/parameters.h"
#include "common/simulation_settings.h"
#include "studies/grid.h"

namespace mbsweep {

/// Points of one chunk: points[r] holds the grid's parameter values of point r.
using GridPoints = std::vector<std::vector<double>>;
/// Evaluates one chunk; returns exactly points.size() values (NaN: failed).
using GridChunkObjective = std::function<std::vector<double>(const GridPoints& points)>;

struct ParameterVariationOptions {
  /// Points per evaluateChunk call (>= 1).
  std::uint64_t chunkSize = 4096;
  /// Results file path; empty: none is written.
  std::string resultsFile;
  /// Written as "(processing=<mode>)" in the header's version line; Exudyn writes 'serial',
  /// 'multiprocessing.Pool, numberOfThreads=N' or 'mpi4py, numberOfWorkers=N'.
  std::string processingMode = "serial";
  /// As Exudyn's addComputationIndex: rows of the results file end with the computationIndex
  /// (the flat grid index) and the result's ComputationIndices() belong to the parameterDict.
  /// (The header always names the computationIndex column, as in Exudyn.)
  bool addComputationIndex = false;
  /// Called after each chunk (after its results-file lines are flushed): first flat index,
  /// the chunk's points and values.
  /// On resume: called only for the chunks evaluated in this run, not for the resumed ones.
  std::function<void(std::uint64_t firstIndex, const GridPoints& points, const std::vector<double>& values)>
      onChunk;
  /// Continue a killed run from `<resultsFile>.manifest` (requires resultsFile; ValidationError
  /// otherwise). The manifest's fingerprint (ranges, useLogSpace, chunkSize, processingMode,
  /// addComputationIndex, resultsFile, checkpointFiles, `fingerprint`) must equal this run's
  /// (ValidationError naming what changed otherwise). Without a manifest (or none of its chunks
  /// complete) the run starts afresh. false: any manifest is replaced and the run starts afresh.
  bool resume = false;
  /// Extra description of the setup the values depend on (model hash, objective, solver
  /// settings...) as lines "key=value", part of the checkpoint fingerprint (a refused resume
  /// names the keys that changed): resuming with a different text fails.
  std::string fingerprint;
  /// Further output files that onChunk appends to and flushes (e.g. a CSV with every
  /// objective of each point), guarded by the manifest like the results file: on a fresh start (no resume, or
  /// nothing to resume) they are emptied to 0 bytes before the first chunk, on resume cut back
  /// to their size after the last completed chunk. So onChunk writes a file's header when it
  /// finds the file empty. They need a resultsFile and must not be the results file
  /// (ValidationError otherwise).
  std::vector<std::string> checkpointFiles;
};

/// Result: the equivalent of Exudyn's [parameterDict, values].
struct ParameterVariationResult {
  ParameterGrid grid;               ///< the grid (parameterDict = Names() + Columns())
  std::vector<double> values;       ///< one value per grid point, in grid order
  bool addComputationIndex = false; ///< whether parameterDict has 'computationIndex'
  std::uint64_t chunks = 0;         ///< number of evaluateChunk calls (in this run)
  std::uint64_t resumedChunks = 0;  ///< chunks taken from the checkpoint (resume), not evaluated

  std::vector<std::string> Names() const { return grid.Names(); }
  /// parameterDict's columns (materializes N*dim values).
  std::vector<std::vector<double>> Columns() const { return grid.Columns(); }
  /// 0..N-1 (Exudyn's 'computationIndex' key).
  std::vector<long long> ComputationIndices() const;
};

/// Evaluates every point of `grid` chunk by chunk in grid order. Throws ValidationError for
/// chunkSize 0, an empty evaluateChunk, a chunk answer with the wrong number of values,
/// resume without a results file, a checkpoint of a different study, or a resumed results
/// file whose rows do not match the grid; ValidationError/std::runtime_error from the results
/// file and the manifest. Exceptions of evaluateChunk propagate (the results file and the
/// manifest then hold the chunks before: resume continues from there).
ParameterVariationResult ParameterVariation(const ParameterGrid& grid, const GridChunkObjective& evaluateChunk,
                                            const ParameterVariationOptions& options = {});

/// A chunk objective that evaluates the chunk as one mbsweep batch (EvaluateGenerationBatch:
/// value column `column` of `objectives`, NaN for failed systems). The map's parameters must
/// be the grid's parameters, in order (ValidationError otherwise, and for a bad column).
/// evaluator, layout and map are referenced, not copied: they must outlive the objective.
GridChunkObjective MakeGridObjective(Evaluator& evaluator, const Layout& layout, const ParameterMap& map,
                                     const ParameterGrid& grid, DynamicSolverType solver,
                                     const SimulationSettings& settings, const CompiledObjectives& objectives,
                                     int column = 0);

}  // namespace mbsweep
