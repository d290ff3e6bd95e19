/// @file study_file.h
/// Model and study files (YAML): a model in Exudyn's item and field names, simulation
/// settings with Exudyn's names, sensors, objectives and a study, in one file. Host only.
///
/// Layout of a file (every section but `model` optional; keys are case-sensitive):
///
///   parameters:                 # named study parameters with nominal values, in order
///     m: 1.6                    #   (used by `simulate` and to check the model as written)
///     k: 4000
///   model:                      # items in insertion order, each `- <ExudynTypeName>: {fields}`
///     - NodePoint: {name: node, referenceCoordinates: [0.5, 0, 0], initialVelocities: [1, 0, 0]}
///     - NodePointGround: {name: ground}
///     - ObjectMassPoint: {name: mass, mass: m, nodeNumber: node}
///     - MarkerNodeCoordinate: {name: mg, nodeNumber: ground, coordinate: 0}
///     - MarkerNodeCoordinate: {name: mn, nodeNumber: node, coordinate: 0}
///     - ObjectConnectorCoordinateSpringDamper: {name: spring, markerNumbers: [mg, mn],
///                                               stiffness: k, damping: 0.002*k}
///     - LoadCoordinate: {name: force, markerNumber: mn, load: 80,
///                        timeFunction: {type: Harmonic, amplitude: 1, angularFrequency: 20}}
///     - SensorObject: {name: springForce, objectNumber: spring, outputVariableType: Force}
///   solver: GeneralizedAlpha    # DynamicSolverType name (default GeneralizedAlpha)
///   simulationSettings:         # nested exactly as SimulationSettings (Exudyn 1.13's names, the
///                               # earlier ones read as these); a key may also be a dotted path:
///                               # `timeIntegration.newton.maxIterations: 12`
///     timeIntegration: {numberOfSteps: 1000, endTime: 1, generalizedAlpha: {spectralRadius: 1}}
///     solution: {sensors: {writePeriod: 0.005}}
///     linearSolver: {solverType: EXUdense}
///   objectives:                 # ObjectiveSetDescription; `sensor` by name or index
///     samplePeriod: 0.005
///     weightedSum: false
///     list:
///       - {name: maxForce, kind: MaxAbs, sensor: springForce, component: 0}
///       - {name: error, kind: ErrorExudyn, sensor: springForce, signalFile: ref.csv,
///          errorDivisor: 1000, errorMultiplier: 1}
///   study:                      # see StudySpec
///     type: ParameterVariation
///     objective: error          # which objective value drives the study (default: the first)
///     parameters: {m: [1, 2, 16], k: [2000, 8000, 16]}
///
/// Items: nodes (type names starting with "Node"), objects ("Object"), markers ("Marker"),
/// loads ("Load") and sensors ("Sensor") share one list in insertion order; each goes to
/// the Model's matching Add function (which validates it). Every field of the item's
/// Fields() description may be given; unknown fields and types are errors with the closest
/// valid name. Item references (nodeNumber, markerNumbers, bodyNumber, objectNumber,
/// loadNumber, ...) are an item name or an index (of that category, as Exudyn's indices).
/// A Real field, or an entry of a vector/matrix field, is a number or a string holding a
/// muParser expression of the file's `parameters` ("m", "0.002*k", "m*L^2/12"); the model
/// is built with every expression evaluated at the nominal values, and each expression is
/// kept (FieldExpression) so that a study maps it per system (ParameterMap::Define); a text
/// that uses no parameter ("pi/4" style constants) is evaluated but not kept. A time function
/// is a map `{type: Constant|Harmonic|Sweep|Ramp|Step|Table, ...}` with the TimeFunction
/// fields of its type (Harmonic: amplitude, angularFrequency, phase, offset; Sweep:
/// amplitude, startFrequency, endFrequency, duration; Ramp: startTime, endTime, startValue,
/// endValue; Step: startTime, startValue, endValue (a Ramp with endTime = startTime); Table:
/// times, values); its fields are addressed as in the model's theta paths
/// ("force.timeFunction.amplitude"). Names are unique per category (given names and the
/// default names node0, object3, ... together); references go to items listed earlier.
///
/// Errors (StudyFileError) name the file, line and column (1-based, of the offending key or
/// value), then the item/field/value and the rule, e.g.
///   study.yaml:12:30: ObjectMassPoint 'mass' (object 1): mass = -1.6 violates UReal (must be >= 0)
///   study.yaml:4:5: unknown field 'physicsMas' of ObjectMassPoint; did you mean 'mass'?
/// A rule the model checks when the item is added points at the value of the field its
/// message names (or at the item's map when that field is not in the file). An unknown key
/// suggests the closest valid key when it is close (edit distance <= max(2, length/3)) and
/// lists the valid keys otherwise. Malformed YAML gives the parser's message with its line
/// and column.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/model.h"
#include "common/objectives_host.h"
#include "common/simulation_settings.h"
#include "studies/genetic.h"
#include "studies/grid.h"
#include "studies/identification.h"
#include "studies/sampling.h"
#include "studies/sensitivities.h"

namespace mbsweep {

/// A position in a file (1-based; 0 = unknown).
struct FilePosition {
  std::string file;
  int line = 0;
  int column = 0;
  /// "file:line:column" (or "file" when the line is unknown).
  std::string ToString() const;
};

/// An error in a model/study file: what() is "file:line:column: message".
class StudyFileError : public std::runtime_error {
 public:
  StudyFileError(const FilePosition& where, const std::string& message);
  const FilePosition& Where() const { return where_; }
  const std::string& Message() const { return message_; }

 private:
  FilePosition where_;
  std::string message_;
};

/// A named study parameter with its nominal value.
struct NamedParameter {
  std::string name;
  double value = 0.0;
  FilePosition where;
};

/// A Real slot of the model given as an expression of the parameters.
struct FieldExpression {
  std::string path;        ///< theta path, e.g. "spring.damping", "node.initialCoordinates[0]"
  std::string expression;  ///< muParser text, e.g. "0.002*k"
  FilePosition where;
};

enum class StudyType { None, ParameterVariation, Sampling, GeneticOptimization, Sensitivity, Identification };
/// "None", "ParameterVariation", "Sampling", "GeneticOptimization", "Sensitivity", "Identification".
const char* StudyTypeName(StudyType t);

/// The `study:` section: `type`, `objective`, `parameters` and the options of the type as
/// keys of the same map (e.g. `{type: GeneticOptimization, parameters: {...},
/// populationSize: 40}`). Which members are used depends on `type`:
///  * ParameterVariation: `parameters` maps each name to Exudyn's tuple [begin, end, n]
///    (YAML ints without '.'/exponent are Python ints: Exudyn's int rule applies) or to
///    {values: [..]}; options useLogSpace, addComputationIndex, chunkSize.
///  * Sampling: `parameters` maps names to [lower, upper]; design (lhs | sobol | uniform |
///    csv), count (required unless csv), seed, scramble (Sobol only: none | shift | lms, the
///    SobolScramble names; empty: the default), designFile (csv), chunkSize. With design csv
///    the file is read when the study file is loaded: `count` becomes its number of rows and
///    `parameters` may be a list of column names or be left out (then every column is a
///    parameter; bounds are then the columns' ranges and are not used).
///  * GeneticOptimization: `parameters` maps names to [min, max]; every GeneticOptions name
///    (populationSize, numberOfGenerations, elitistRatio, crossoverProbability,
///    crossoverAmount, rangeReductionFactor, distanceFactor, childDistribution,
///    distanceFactorGenerations, initialPopulationSize, randomizerInitialization) plus
///    randomStream (numpy | philox).
///  * Sensitivity: `parameters` maps names to ref | [ref, relStep] | [ref, relStep, n]
///    (Exudyn's forms); scaledByReference.
///  * Identification: `parameters` maps names to [min, max] (GA ranges); `measured:` a list
///    of MeasuredChannel maps (sensor by name or index, checked; file resolved relative to
///    the study file and read once to check the column); `genetic:` a map of the
///    GeneticOptions names and randomStream; `refinement:` a map of the
///    IdentificationOptions names, or just the method name (NelderMead | none).
/// Parameters of the file that a study does not vary stay at their nominal values. Study
/// parameter names must be declared in the file's `parameters:` (or, when not declared,
/// must be a theta path of the model, e.g. "spring.stiffness", which the study binds
/// directly).
struct StudySpec {
  StudyType type = StudyType::None;
  FilePosition where;
  std::string objective;  ///< objective value name driving the study; empty: value 0

  // ParameterVariation
  std::vector<ParameterRange> ranges;
  bool useLogSpace = false;
  bool addComputationIndex = false;
  std::uint64_t chunkSize = 4096;  ///< also Sampling

  // Sampling
  std::vector<ParameterBounds> bounds;
  std::string design = "sobol";    ///< lhs | sobol | uniform | csv
  std::uint64_t count = 0;
  std::uint64_t seed = 0;
  std::string scramble;            ///< Sobol scrambling name (empty: the default)
  std::string designFile;          ///< design == csv

  // GeneticOptimization and Identification
  std::vector<GeneticParameter> geneticParameters;
  GeneticOptions genetic;          ///< onGeneration unset; randomStream from `randomStream: numpy | philox`

  // Sensitivity
  std::vector<SensitivityParameter> sensitivityParameters;
  SensitivityOptions sensitivity;

  // Identification
  std::vector<MeasuredChannel> measured;
  IdentificationOptions identification;

  /// Names of the study's parameters, in order (whatever the type).
  std::vector<std::string> ParameterNames() const;
};

/// A loaded file.
struct StudyFile {
  std::string path;                         ///< as given
  std::string directory;                    ///< directory of the file (for relative paths)
  std::vector<NamedParameter> parameters;   ///< `parameters:`, in order
  Model model;                              ///< expressions evaluated at the nominal values
  std::vector<FieldExpression> expressions; ///< Real slots given as expressions
  DynamicSolverType solver = DynamicSolverType::GeneralizedAlpha;
  SimulationSettings settings;
  ObjectiveSetDescription objectives;       ///< sensors resolved to indices, signal files
                                            ///< resolved relative to `directory`
  StudySpec study;
  std::string source;                       ///< the file's text (BuildModelAt re-reads the model
                                            ///< from it)
  std::vector<std::string> warnings;        ///< what was read but has no effect (visualization
                                            ///< fields)
  /// The number of objectives the study's runs evaluate: one per measured channel for an
  /// identification study (`identify`), else the entries of objectives.list (as
  /// cli::StudyObjectives builds them).
  int ObjectiveCount() const;
};

/// Reads and validates a file. Throws StudyFileError (file:line:column) for malformed YAML,
/// unknown keys (with the closest valid key), wrong value types, unknown item references,
/// invalid item fields (the model's ValidationError message, prefixed with the position of
/// the item), malformed expressions or unknown parameters in them, invalid settings and
/// objectives, and an invalid study section.
/// readDataFiles = false (a run that writes the reference signals a study later compares
/// with): signal files that do not exist yet are not read and their objectives not checked,
/// and the study's design and measured files are not read.
StudyFile LoadStudyFile(const std::string& path, bool readDataFiles = true);
/// Same from text; `name` is used as the file name in positions and relative paths are
/// relative to `directory`.
StudyFile ParseStudyText(const std::string& text, const std::string& name, const std::string& directory = ".",
                         bool readDataFiles = true);

/// Nominal values of the file's parameters, overridden by `overrides` ("name=value" pairs
/// from the command line); throws StudyFileError (position "command line") for an unknown
/// name, a missing '=' or a value that is not a finite number.
std::vector<NamedParameter> WithOverrides(const std::vector<NamedParameter>& parameters,
                                          const std::vector<std::string>& overrides);

/// Rebuilds the model with the given parameter values (expressions re-evaluated), for a
/// single simulation at values other than the nominal ones. `values` are matched by name
/// (file parameters not listed keep their nominal values); the model is read again from
/// `file.source`. Throws StudyFileError naming the item and field if a value breaks a rule,
/// and for a name that is not a parameter of the file.
Model BuildModelAt(const StudyFile& file, const std::vector<NamedParameter>& values);

/// The parameter map of a study on this file: map parameters = the file's parameters (in
/// order) followed by study parameters that are theta paths (bound directly, named as the
/// path with '.', '[' and ']' replaced by '_'); every FieldExpression is Defined. `map` must
/// be fresh (built on `layout` and the model's Theta0, nothing declared yet). Throws
/// StudyFileError when a study parameter is a theta path that the file defines by an
/// expression (vary the expression's parameters instead) or the map rejects a name. Use
/// StudyRows to expand study points into rows of this map. `names`: the study parameters
/// (nullptr: the file's study parameters, StudySpec::ParameterNames).
struct StudyMapping {
  std::vector<std::string> mapParameters;   ///< names declared in the ParameterMap
  std::vector<double> nominal;              ///< nominal value of each map parameter
  std::vector<int> studyColumn;             ///< for each study parameter: its map column
};
StudyMapping MakeStudyMapping(const StudyFile& file, const Layout& layout, ParameterMap& map,
                              const std::vector<std::string>* names = nullptr);

/// Expands study points (each one value per study parameter, in StudySpec::ParameterNames
/// order) into map rows (nominal values elsewhere), row-major. Throws ValidationError for a
/// point with the wrong number of values.
std::vector<double> StudyRows(const StudyMapping& mapping, const std::vector<std::vector<double>>& points);

}  // namespace mbsweep
