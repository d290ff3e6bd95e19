/// @file identification.h
/// Identification of model parameters from measured signals (contract; implemented by the
/// identification work item).
#pragma once

#include <string>

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
struct IdentificationOptions {
  std::string refinement = "NelderMead";  ///< "NelderMead" or "none"
  int maxIterations = 200;                ///< refinement iterations
  double tolerance = 1e-10;               ///< stop when the simplex's value spread is below this
  double initialStep = 0.05;              ///< initial simplex edge, relative to each range
};

}  // namespace mbsweep
