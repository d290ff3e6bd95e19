/// @file identification.h
/// Identification of model parameters from measured signals: simulated sensor signals are
/// compared with measured ones (CSV files, several channels, one weight per channel) by an
/// RMSError objective per channel (common/objectives.h: the simulated sensor component is
/// sampled at the sensor write times and compared with the measured signal, linearly
/// interpolated and clamped at its ends), their weighted sum is minimized by the genetic
/// optimization (studies/genetic.h) and the GA optimum is refined by a bounded Nelder–Mead
/// simplex search. Host only.
///
/// Typical use:
///   1. BuildIdentificationObjectives(channels, layout.sensorNames, directory, period)
///      -> ObjectiveSetDescription; BuildObjectives(description, layout, theta0)
///      -> CompiledObjectives;
///   2. MakeIdentificationObjective(evaluator, layout, map, parameters, solver, settings,
///      compiled) -> GeneticObjective (one batch per call, value = the weighted sum);
///   3. Identify(objective, parameters, geneticOptions, identificationOptions).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/batch.h"
#include "common/objectives_host.h"
#include "common/parameters.h"
#include "common/simulation_settings.h"
#include "studies/genetic.h"
#include "studies/random.h"

namespace mbsweep {

/// One measured channel of an identification: a sensor component against a CSV column.
struct MeasuredChannel {
  std::string sensor;        ///< sensor name (or index as text)
  int component = 0;         ///< sensor output component
  std::string file;          ///< CSV file (relative paths are relative to the study file)
  int column = 1;            ///< CSV value column (0 = time)
  std::string columnName;    ///< or by header name
  double weight = 1.0;       ///< weight of this channel's RMS error
};

/// Local refinement after the genetic search.
///
/// The refinement is a Nelder–Mead simplex search (reflection 1, expansion 2, contraction
/// 0.5, shrink 0.5; the acceptance rules of Lagarias et al. 1998, as MATLAB's fminsearch and
/// scipy's Nelder-Mead use them) in coordinates normalized by each parameter range
/// (u = (x - min)/(max - min)); every trial point is clipped into [0, 1], i.e. into
/// [min, max]. The search has converged when the spread of the simplex values
/// f_worst - f_best <= tolerance*(|f_best| + tolerance) AND the simplex diameter
/// max_i max_k |u_ik - u_best,k| <= parameterTolerance. Clipping can flatten the simplex
/// onto a bound, where it may converge to a point that is not a minimum along the bound;
/// therefore a converged search is restarted from its best point with a fresh initial
/// simplex, up to `restarts` times, and stops ("tolerance") when a restarted search
/// converges without finding a better point or no restart is left. It also stops after
/// maxIterations iterations in all ("maxIterations") or when maxEvaluations is reached
/// ("maxEvaluations"). A failed evaluation (NaN) counts as +infinity.
///
/// Note on the tolerance: for noise-free synthetic data the best value tends to 0 and the
/// rule becomes spread <= tolerance^2, which the rounding noise of the objective (about
/// 1e-17 for an RMS error of signals of size 1) may never satisfy with tolerance 1e-10:
/// the search then ends by maxIterations at that noise level. Measured data have a residual
/// well above 0 and the rule is relative.
struct IdentificationOptions {
  std::string refinement = "NelderMead";  ///< "NelderMead" (also "Nelder-Mead") or "none"
  int maxIterations = 200;                ///< refinement iterations (>= 0)
  double tolerance = 1e-10;               ///< value-spread rule, relative: see the struct comment
  double initialStep = 0.05;              ///< initial simplex edge, relative to each range
  /// Simplex diameter (relative to each range) required for "tolerance" as well.
  double parameterTolerance = 1e-10;
  /// Largest number of refinement evaluations (0: no limit); checked before each iteration,
  /// so one iteration may exceed it by up to 4 + number of parameters evaluations.
  int maxEvaluations = 0;
  /// Restarts from the best point after convergence (see above; >= 0).
  int restarts = 3;
  /// true: each iteration evaluates the reflection, the expansion and both contractions as
  /// ONE batch of 4 points (the iterates are exactly those of the sequential algorithm; up
  /// to 2 extra evaluations per iteration, but one batch instead of up to 2 – a batch of a
  /// few points costs about as much as one point on the GPU and, with threads, on the CPU).
  /// false: the reflection alone, then the expansion or one contraction only if needed.
  bool speculativeBatch = true;
};

/// Throws ValidationError (naming the field, the value and the rule) for an unknown
/// refinement name, maxIterations, maxEvaluations or restarts < 0, a tolerance that is
/// negative or not finite, or initialStep outside (0, 1].
void ValidateIdentificationOptions(const IdentificationOptions& options);

/// Result of a Nelder–Mead refinement.
struct NelderMeadResult {
  std::vector<double> parameters;                ///< best point (the start point if nothing was better)
  double value = 0.0;                            ///< its value (NaN only if every value was NaN)
  std::vector<std::vector<double>> pointHistory; ///< every evaluated point, in evaluation order
  std::vector<double> valueHistory;              ///< the matching values (NaN = failed)
  /// Best value after the initial simplex (entry 0) and after each iteration.
  std::vector<double> bestValueHistory;
  int iterations = 0;   ///< completed iterations
  int evaluations = 0;  ///< objective evaluations (the given start value is not counted)
  int batches = 0;      ///< objective calls
  int shrinks = 0;      ///< shrink steps
  int restarts = 0;     ///< restarts after convergence
  bool converged = false;  ///< true if the tolerance rule stopped it
  std::string reason;      ///< "tolerance", "maxIterations" or "maxEvaluations"
};

/// Bounded Nelder–Mead minimization (see IdentificationOptions) of a batch objective from
/// `start` (inside the ranges of `parameters`). `startValue`: the objective's value at
/// start if known (not evaluated again; the GA optimum's value). The initial simplex is
/// start plus one vertex per parameter k, start + initialStep*range_k*e_k (or minus it
/// where plus would leave the range), evaluated as one batch; shrink steps and restarts
/// are one batch each.
/// Never returns a point worse than start. options.refinement is ignored.
/// Throws ValidationError for invalid ranges (as ValidateGeneticSetup), a start of the
/// wrong size or outside its range, invalid options or an objective returning a wrong
/// number of values; exceptions of the objective propagate.
NelderMeadResult NelderMeadMinimize(const GeneticObjective& objective, const std::vector<GeneticParameter>& parameters,
                                    const std::vector<double>& start, const IdentificationOptions& options = {},
                                    std::optional<double> startValue = std::nullopt);

/// Result of an identification.
struct IdentificationResult {
  std::vector<std::string> names;     ///< parameter names, in order
  std::vector<double> parameters;     ///< fitted values (refined, or the GA optimum)
  double value = 0.0;                 ///< residual (objective value) at the fitted values
  std::vector<double> geneticParameters;  ///< the GA optimum
  double geneticValue = 0.0;              ///< its value
  GeneticResult genetic;                  ///< the whole genetic run
  NelderMeadResult refinement;            ///< empty when refinement == "none"
  bool refined = false;         ///< true if a refinement ran
  int iterations = 0;           ///< refinement iterations
  std::size_t evaluations = 0;  ///< all evaluations: GA + refinement
  bool converged = false;       ///< refinement converged by its tolerance rule
  std::string reason;           ///< refinement's reason, or "none" without refinement
};

/// Runs GeneticOptimization(objective, parameters, geneticOptions, random), then (unless
/// identificationOptions.refinement == "none") NelderMeadMinimize from the GA optimum with
/// its known value. The fitted point is the refinement's if its value is lower (NaN counts
/// as +infinity), otherwise the GA optimum. Throws ValidationError for an invalid setup
/// (ValidateGeneticSetup, ValidateIdentificationOptions) before any evaluation; exceptions
/// of the objective propagate.
IdentificationResult Identify(const GeneticObjective& objective, const std::vector<GeneticParameter>& parameters,
                              const GeneticOptions& geneticOptions = {},
                              const IdentificationOptions& identificationOptions = {},
                              NumpyRandomState* random = nullptr);

// ----------------------------------------------------------------------------------------
// Measured channels as objectives
// ----------------------------------------------------------------------------------------

/// Index of a sensor given by name (exact match in sensorNames) or by index text
/// ("0", "3"); -1 if neither.
int ResolveSensor(const std::string& sensor, const std::vector<std::string>& sensorNames);

/// One RMSError objective per channel, named rms_<sensor name>_<component> (with
/// _<channel index> appended when two channels would get the same name), weight = the
/// channel's weight, weightedSum on, the measured signal read from `file` (relative to
/// baseDirectory unless absolute or baseDirectory is empty), column `columnName` if given,
/// else `column`. samplePeriod: the objectives' sampling period (sensor write-period rule;
/// 0 = every step). The file is read once here to check it and again by BuildObjectives
/// (which then checks the times, naming the file line). sensorNames: the model's sensor
/// names (Layout::sensorNames). Throws ValidationError naming the channel (index, sensor,
/// component) and the field for: no channels or more than kMaxObjectives, an unknown
/// sensor (listing the valid names), a negative component, a weight that is not finite and
/// > 0, an empty file name, a file that cannot be read or parsed, column < 1 without
/// columnName, or a negative samplePeriod.
ObjectiveSetDescription BuildIdentificationObjectives(const std::vector<MeasuredChannel>& channels,
                                                      const std::vector<std::string>& sensorNames,
                                                      const std::string& baseDirectory, Real samplePeriod);

/// Value column an identification minimizes: the weighted sum (set.count) if the set has
/// one, else 0 for a single objective; throws ValidationError otherwise.
int IdentificationColumn(const CompiledObjectives& objectives);

/// The batch objective of an identification: MakeBatchObjective with column =
/// IdentificationColumn(objectives) (one batch per call, NaN for failed systems).
/// evaluator, layout and map are referenced and must outlive the function. Throws
/// ValidationError as MakeBatchObjective and IdentificationColumn.
GeneticObjective MakeIdentificationObjective(Evaluator& evaluator, const Layout& layout, const ParameterMap& map,
                                             const std::vector<GeneticParameter>& parameters, DynamicSolverType solver,
                                             const SimulationSettings& settings, const CompiledObjectives& objectives);

/// Every value of the objective set (each channel's RMS error, then the weighted sum) at
/// one point of study parameters, evaluated as a batch of one; all NaN if the system
/// fails. Throws ValidationError for a point of the wrong size.
std::vector<double> EvaluateIdentificationResiduals(Evaluator& evaluator, const Layout& layout,
                                                    const ParameterMap& map, const std::vector<double>& point,
                                                    DynamicSolverType solver, const SimulationSettings& settings,
                                                    const CompiledObjectives& objectives);

}  // namespace mbsweep
