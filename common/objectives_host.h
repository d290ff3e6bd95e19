/// @file objectives_host.h
/// Host-side construction and validation of objective sets (common/objectives.h): turns a
/// user description (kind name, sensor, component, weight, optional measured signal given
/// as vectors or read from a CSV file) into the plain-data ObjectiveSet plus the flat
/// signal array. Errors throw ValidationError naming the objective, the field, the value
/// and the rule.
#pragma once

#include <string>
#include <vector>

#include "common/layout.h"
#include "common/objectives.h"

namespace mbsweep {

/// Name of an objective kind as users write it ("FinalValue", "Max", ..., "RMSError").
const char* ObjectiveKindName(ObjectiveKind k);
/// Parses a kind name (exact spelling); throws ValidationError listing the valid names.
ObjectiveKind ParseObjectiveKind(const std::string& name);
/// "FinalValue, Max, Min, MaxAbs, Mean, RMS, Integral, ErrorExudyn, RMSError".
std::string ObjectiveKindNames();

/// A measured time series.
struct MeasuredSignal {
  std::vector<Real> times;
  std::vector<Real> values;
};

/// Reads a measured signal from a CSV file: columns `time,value[,value2...]` separated by
/// commas (spaces around fields allowed). Lines starting with '#' and blank lines are
/// skipped; the first remaining line is a header if its first field is not a number
/// (Exudyn sensor files, with '#' header lines only, are accepted as they are). The value
/// column is `columnName` if not empty (looked up in the header), otherwise `column`
/// (0 = time, 1 = first value column). Throws ValidationError naming the file and line.
/// Times are not checked here (BuildObjectives checks them).
MeasuredSignal ReadSignalCsv(const std::string& fileName, int column = 1, const std::string& columnName = "");

/// One objective as a user describes it.
struct ObjectiveDescription {
  std::string name;          ///< label for messages and output columns (default "objective<i>")
  std::string kind;          ///< ObjectiveKind name, e.g. "MaxAbs" or "ErrorExudyn"
  int sensor = -1;           ///< sensor index
  int component = 0;         ///< index into the sensor's output vector
  Real weight = 1;           ///< weight in the weighted sum
  /// Measured signal (ErrorExudyn, RMSError): either given here ...
  std::vector<Real> signalTimes, signalValues;
  /// ... or read from this CSV file (see ReadSignalCsv).
  std::string signalFile;
  int signalColumn = 1;           ///< CSV value column (0 = time, 1 = first value column)
  std::string signalColumnName;   ///< CSV value column by header name (overrides signalColumn)
  Real errorDivisor = 1;          ///< ErrorExudyn: sqrt(sum diff^2) / errorDivisor * errorMultiplier
  Real errorMultiplier = 1;       ///< (Exudyn's examples: divisor = numberOfSteps, multiplier = endTime)
};

/// An objective set as a user describes it.
struct ObjectiveSetDescription {
  std::vector<ObjectiveDescription> objectives;  ///< 1..kMaxObjectives objectives
  Real samplePeriod = 0;      ///< sensor write-period rule; 0 = every step
  bool weightedSum = false;   ///< append sum_i weight_i * value_i
};

/// A validated objective set: the plain-data set, the flat signal array it indexes into
/// and the names of its output values (objective names, then "weightedSum").
struct CompiledObjectives {
  ObjectiveSet set{};
  std::vector<Real> signalData;
  std::vector<std::string> valueNames;
  /// Pointer to the signal data for ObjectiveAccumulator/ObjectiveObserver (null if empty).
  const Real* Signal() const { return signalData.empty() ? nullptr : signalData.data(); }
};

/// Warnings for objectives whose measured signal does not cover the simulated time span
/// [startTime, endTime] (a relative tolerance of 1e-9 of the span): outside its time range a
/// signal is held at its first or last value, which the comparison would silently use. One
/// message per such objective, naming it (`names[k]`, the description's names) and both spans.
std::vector<std::string> SignalCoverageWarnings(const CompiledObjectives& objectives,
                                                const std::vector<std::string>& names, Real startTime, Real endTime);

/// Number of values of each sensor's output vector (evaluated on a zero state; sizes depend
/// only on the structure).
std::vector<int> SensorOutputSizes(const Layout& layout, const std::vector<Real>& theta);

/// Validates and compiles a description against the sensors of a compiled model.
CompiledObjectives BuildObjectives(const ObjectiveSetDescription& d, const Layout& layout,
                                   const std::vector<Real>& theta);
/// Same with the output size of each sensor given (sensorNames optional, for messages).
CompiledObjectives BuildObjectivesFromSizes(const ObjectiveSetDescription& d,
                                            const std::vector<int>& sensorOutputSizes,
                                            const std::vector<std::string>& sensorNames = {});

}  // namespace mbsweep
