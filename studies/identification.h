/// @file identification.h
/// Identification of model parameters from measured signals (contract; implemented by the
/// identification work item).
#pragma once

#include <string>

namespace mbsweep {

/// Local refinement after the genetic search.
struct IdentificationOptions {
  std::string refinement = "NelderMead";  ///< "NelderMead" or "none"
  int maxIterations = 200;                ///< refinement iterations
  double tolerance = 1e-10;               ///< stop when the simplex's value spread is below this
  double initialStep = 0.05;              ///< initial simplex edge, relative to each range
};

}  // namespace mbsweep
