/// @file genetic.h
/// Genetic optimization with the semantics of Exudyn's GeneticOptimization
/// (exudyn.processing.GeneticOptimization in Exudyn's main/pythonDev/exudyn/processing.py),
/// drawing its random numbers in the same order. With randomStream = GeneticRandomStream::Numpy
/// they are numpy's legacy numbers (studies/random.h NumpyRandomState), so that with the same
/// seed, ranges, options and objective values it produces the same individuals, the same
/// optimum and the same history as Exudyn bit for bit; the default stream is Philox (below).
///
/// The algorithm (numpy calls in this order):
///  1. Initial population: for each of initialPopulationSize individuals, for each parameter
///     in order: uniform(min, max).
///  2. For each generation g = 0..G-1: the current generation is evaluated as ONE call of
///     the objective (one batch) and appended to the history; the survivors of the previous
///     generation are appended to the pool with their stored values (never re-evaluated);
///     the pool is sorted by value, ties by pool index, NaN after every number (numpy's
///     structured np.sort(order='value')).
///  3. If g < G-1 (relRange = rangeReductionFactor^(g+1)):
///     * selection of S = max(1, int(elitistRatio*populationSize)) survivors: the best S;
///       with distanceFactor != 0 and g < distanceFactorGenerations, walking the sorted pool a
///       candidate is accepted only if its distance to every accepted individual is greater
///       than distanceFactor (distance sqrt(sum_k (x_k-y_k)^2/range_k^2 / dim); every
///       individual starts with distance 1), so fewer than S may survive;
///     * children: while p < populationSize: for each survivor `item` (in order):
///       if crossoverProbability > 0: r = random(); if r < crossoverProbability the parents
///       are two survivors randint(nSurvivors), randint(nSurvivors) and one random() is drawn
///       per parameter (the crossover decision, whose result the mutation overwrites);
///       otherwise the parent is `item`. For each parent, for each parameter: the interval
///       parent ± 0.5*(max-min)*relRange clipped to [min, max], value = uniform(a, b) or
///       normal((a+b)/2, (b-a)/2), redrawn until it lies in [min, max]; the child is
///       appended only if p < populationSize (draws continue for the remaining survivors).
///  4. The optimum is the first of the last generation's sorted pool.
/// Number of evaluations: initialPopulationSize + (G-1)*populationSize.
///
/// Random streams (GeneticOptions::randomStream): GeneticRandomStream::Numpy draws numpy's
/// legacy RandomState numbers (the Exudyn-compatible, bit-for-bit mode);
/// GeneticRandomStream::Philox (the default) draws the same kinds of numbers in the same
/// order from a counter-based PhiloxStream(seed, stream 0) (studies/random.h): uniform(a, b)
/// = a + (b-a)*u with 53-bit u, random() = u, randint(n) by masked rejection on 32-bit words,
/// normal(m, s) = m + s*(Box-Muller variate). The algorithm is the same for both.
///
/// Results file and resume (GeneticOptions::resultsFile, ::resume): Exudyn's 'genetic
/// optimization' file (results_file.h), one line "globalIndex, value, p1, ..., pN" per evaluated
/// individual (globalIndex = index in the history), appended and flushed after each
/// generation (the generation's rows go to a ResultsFileSink, study_sinks.h), with a
/// checkpoint manifest `<resultsFile>.manifest` (checkpoint.h) recording
/// each completed generation. A killed run resumed with `resume = true` (seed required)
/// replays the random draws, takes the stored generations' values from the results file
/// instead of calling the objective (checking that the regenerated individuals equal the
/// stored ones bit for bit), and continues: the GeneticResult and the results file are the
/// same as those of an uninterrupted run.
///
/// Differences to Exudyn: the objective is scalar (Exudyn also accepts vectors and sorts by
/// their norm); parameters are doubles (Exudyn's int bounds behave the same below 2^53);
/// without a seed the stream is seeded from std::random_device (Exudyn continues numpy's
/// global state: pass a NumpyRandomState to continue a stream). Host only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/batch.h"
#include "common/objectives_host.h"
#include "common/parameters.h"
#include "common/simulation_settings.h"
#include "studies/random.h"

namespace mbsweep {

/// One optimized parameter and its search range (Exudyn: 'name': (min, max)).
struct GeneticParameter {
  std::string name;
  double min = 0.0;
  double max = 1.0;
  /// The bound was given as a Python int (Exudyn then writes it as one in the results
  /// file's ranges line, "(1, 10)"); the search itself is the same.
  bool minIsInt = false, maxIsInt = false;
};

/// How children are drawn inside their mutation interval [a, b].
enum class ChildDistribution {
  Uniform,  ///< "uniform": uniform(a, b)
  Normal,   ///< "normal": normal((a+b)/2, (b-a)/2), redrawn until inside [min, max]
};
/// "uniform" / "normal".
const char* ChildDistributionName(ChildDistribution d);
/// Parses "uniform" or "normal"; throws ValidationError otherwise.
ChildDistribution ParseChildDistribution(const std::string& name);

/// Which random stream the genetic optimization draws from.
enum class GeneticRandomStream {
  Numpy,   ///< "numpy": numpy's legacy RandomState, bit-for-bit compatible with Exudyn
  Philox,  ///< "philox": counter-based Philox4x32-10 stream (the default)
};
/// "numpy" / "philox".
const char* GeneticRandomStreamName(GeneticRandomStream s);
/// Parses "numpy" or "philox"; throws ValidationError naming the value and both names otherwise.
GeneticRandomStream ParseGeneticRandomStream(const std::string& name);

/// Individuals of one generation: each has one value per parameter, in parameter order.
using GeneticIndividuals = std::vector<std::vector<double>>;

/// Evaluates a whole generation at once (one batch) and returns one value per individual
/// (NaN for a failed evaluation: it sorts after every number).
using GeneticObjective = std::function<std::vector<double>(const GeneticIndividuals& individuals)>;

/// Options with Exudyn's names and defaults.
struct GeneticOptions {
  int populationSize = 100;          ///< individuals per generation (>= 1)
  int numberOfGenerations = 10;      ///< generations G (>= 1)
  double elitistRatio = 0.1;         ///< survivors S = max(1, int(elitistRatio*populationSize))
  double crossoverProbability = 0.25;
  double crossoverAmount = 0.5;
  double rangeReductionFactor = 0.7;
  double distanceFactor = 0.1;       ///< >= 1 is reset to 0.5 (as Exudyn); 0: no distance rule
  ChildDistribution childDistribution = ChildDistribution::Uniform;
  int distanceFactorGenerations = -1;  ///< < 0: distance rule in all generations
  int initialPopulationSize = -1;      ///< < 0: populationSize; otherwise >= 1
  /// Seed (0 .. 2^32-1). Numpy stream: np.random.seed(value) before the initial population;
  /// not set: the given NumpyRandomState is used as it is, or an internal one is seeded from
  /// std::random_device. Philox stream: the Philox key; not set: from std::random_device.
  std::optional<std::int64_t> randomizerInitialization;
  /// Random stream; default Philox. Numpy reproduces Exudyn bit for bit.
  GeneticRandomStream randomStream = GeneticRandomStream::Philox;
  /// Called after each evaluated generation (after its results-file lines are flushed):
  /// generation index, index of its first evaluation in the history, individuals, values.
  /// Not called for generations replayed from a checkpoint (resume).
  std::function<void(int generation, std::size_t firstEvaluation, const GeneticIndividuals& individuals,
                     const std::vector<double>& values)>
      onGeneration;
  /// Exudyn's 'genetic optimization' results file (empty: none): the header of results_file.h (fileType
  /// 'genetic optimization', the ranges line holds str((min, max)) per parameter, e.g.
  /// "(1.0, 10.0)"), then per generation one line "globalIndex, value, p1, ..., pN" per
  /// evaluated individual, appended and flushed after the generation. A checkpoint manifest
  /// `<resultsFile>.manifest` is written next to it.
  std::string resultsFile;
  /// Written as "(processing=<mode>)" in the results file's version line if not empty
  /// (Exudyn writes nothing for a serial run, 'multiprocessing.Pool, numberOfThreads=N' else).
  std::string processingMode;
  /// Continue a killed run from `<resultsFile>.manifest` by deterministic replay. Requires
  /// resultsFile and randomizerInitialization (ValidationError otherwise). The checkpoint's
  /// fingerprint (parameters, options except numberOfGenerations, seed, stream, resultsFile,
  /// processingMode, `fingerprint`) must equal this run's (ValidationError naming what changed otherwise); a
  /// regenerated individual that differs from the stored one gives ValidationError "the
  /// study changed since the checkpoint". Without a manifest the run starts afresh. As
  /// numberOfGenerations is not part of the fingerprint, a finished run can be continued with
  /// more generations (the result equals a run with that many generations).
  bool resume = false;
  /// Extra description of the setup the values depend on (model hash, objective, solver
  /// settings...) as lines "key=value", part of the checkpoint fingerprint (a refused resume
  /// names the keys that changed).
  std::string fingerprint;
};

/// Result (Exudyn returns [optimumParameter, optimumValue, parameterList, valueList]).
struct GeneticResult {
  std::vector<std::string> names;           ///< parameter names, in order
  std::vector<double> optimumParameters;    ///< the best individual
  double optimumValue = 0.0;                ///< its value
  GeneticIndividuals parameterHistory;      ///< every evaluated individual, in evaluation order
  std::vector<double> valueHistory;         ///< the matching values
  /// generationOffsets[g] = index of generation g's first evaluation; back() = total count.
  std::vector<std::size_t> generationOffsets;
  int survivingIndividuals = 0;             ///< S
  int resumedGenerations = 0;               ///< generations replayed from the checkpoint (not evaluated)

  /// Parameter k over all evaluations (a column of Exudyn's parameterList).
  std::vector<double> Column(std::size_t k) const;
  std::size_t NumberOfEvaluations() const { return valueHistory.size(); }
};

/// Throws ValidationError (naming parameter, field, value and rule) for no parameters, an
/// empty or duplicate name, non-finite bounds, max - min <= 0 (Exudyn: "negative or zero
/// range"), populationSize or numberOfGenerations < 1, initialPopulationSize == 0 or a
/// non-finite option, a seed outside 0 .. 2^32-1, or resume without resultsFile or seed.
void ValidateGeneticSetup(const std::vector<GeneticParameter>& parameters, const GeneticOptions& options);

/// Runs the genetic optimization. `random`: for randomStream == Numpy, the numpy stream to
/// draw from (seeded with options.randomizerInitialization if set; continued otherwise);
/// null: an internal one. Passing `random` with randomStream == Philox is a ValidationError.
/// Throws ValidationError for an invalid setup, an objective returning a wrong number of
/// values, a checkpoint of a different study or a results file that does not match it;
/// ValidationError/std::runtime_error from the results file and manifest. Exceptions of the
/// objective propagate (the results file and manifest then hold the generations before:
/// resume continues from there).
GeneticResult GeneticOptimization(const GeneticObjective& objective, const std::vector<GeneticParameter>& parameters,
                                  const GeneticOptions& options = {}, NumpyRandomState* random = nullptr);

// ----------------------------------------------------------------------------------------
// Generations as mbsweep batches
// ----------------------------------------------------------------------------------------

/// Builds one batch from the individuals (each a row of map.NumParameters() study-parameter
/// values, mapped to theta by `map`), evaluates it with `evaluator` and returns value column
/// `column` of the objective set (objectives in order, then weightedSum if enabled): NaN for
/// systems whose status is not ok (failed or invalid parameters). `result`: if not null,
/// receives the full BatchResult. Throws ValidationError for a row of the wrong size or a
/// column out of range.
std::vector<double> EvaluateGenerationBatch(Evaluator& evaluator, const Layout& layout, const ParameterMap& map,
                                            const GeneticIndividuals& individuals, DynamicSolverType solver,
                                            const SimulationSettings& settings, const CompiledObjectives& objectives,
                                            int column = 0, BatchResult* result = nullptr);

/// A GeneticObjective that evaluates each generation with EvaluateGenerationBatch. The
/// map's parameter names must equal the names of `parameters` in order (ValidationError
/// otherwise). `evaluator`, `layout` and `map` are referenced and must outlive the returned
/// function; settings and objectives are copied.
GeneticObjective MakeBatchObjective(Evaluator& evaluator, const Layout& layout, const ParameterMap& map,
                                    const std::vector<GeneticParameter>& parameters, DynamicSolverType solver,
                                    const SimulationSettings& settings, const CompiledObjectives& objectives,
                                    int column = 0);

}  // namespace mbsweep
