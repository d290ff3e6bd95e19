/// @file sensitivities.h
/// ComputeSensitivities with the semantics of Exudyn's exudyn.processing.ComputeSensitivities
/// (Exudyn's main/pythonDev/exudyn/processing.py):
///  * parameters are ordered entries (name, ref, relStep, n); Exudyn's bare value means
///    (ref, 1e-3, 0) and a pair (ref, relStep) means n = 0;
///  * evaluation 0 is the reference (every parameter at ref); then, parameter by parameter
///    (only that parameter changed, the others at ref):
///    n = 0: one forward evaluation at ref*(1+relStep);
///    n > 0: 2n evaluations at ref*(1+j*relStep), j = -n..-1, 1..n; a value that comes out
///    exactly 0 gets max(relStep, 1e-6) added (as Exudyn, only for n > 0);
///  * sensitivity[i][k] (shape nInputs x nOutputs, as Exudyn's code) = forward difference
///    (n = 0) or central difference over the innermost j = -1, +1 points, divided by the
///    difference of the evaluated parameter values, times ref if scaledByReference.
/// All evaluations are passed to `evaluate` in ONE call (one batch).
///
/// Difference to Exudyn: Exudyn's index bookkeeping is wrong for a parameter with n > 0
/// that follows a parameter with n = 0 (it then differences unrelated evaluations); here
/// the innermost points of each parameter are always used. Every other ordering matches
/// Exudyn bit for bit. Host only.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace mbsweep {

/// One parameter (Exudyn: 'name': ref | (ref, relStep) | (ref, relStep, n)).
struct SensitivityParameter {
  std::string name;
  double ref = 0.0;
  double relStep = 1e-3;
  int n = 0;  ///< 0: forward difference; > 0: 2n central points
};

/// Points of the batch: points[r] holds one value per parameter, in parameter order.
using SensitivityPoints = std::vector<std::vector<double>>;
/// Evaluates all points at once; returns exactly points.size() rows, each with the same
/// number (>= 1) of outputs (NaN allowed).
using SensitivityObjective = std::function<std::vector<std::vector<double>>(const SensitivityPoints& points)>;

struct SensitivityOptions {
  /// Multiply each sensitivity by the parameter's ref (Exudyn's scaledByReference).
  bool scaledByReference = false;
};

/// Exudyn returns [parameterList, valRef, valuesSorted, sensitivity].
struct SensitivityResult {
  std::vector<std::string> names;                       ///< parameter names, in order
  SensitivityPoints parameterList;                      ///< every evaluated point (row 0: reference)
  std::vector<double> valRef;                           ///< outputs at the reference
  /// valuesSorted[i]: the outputs of parameter i's evaluations (1 row for n = 0, else 2n rows
  /// in j order -n..-1, 1..n); the reference is not included (as Exudyn).
  std::vector<std::vector<std::vector<double>>> valuesSorted;
  std::vector<std::vector<double>> sensitivity;         ///< [input i][output k]
};

/// The evaluation points in Exudyn's order (row 0 the reference). Throws ValidationError
/// for no parameters, an empty or duplicate name, a non-finite ref/relStep, relStep == 0 or
/// n < 0.
SensitivityPoints SensitivityPointsFor(const std::vector<SensitivityParameter>& parameters);

/// Computes the sensitivities with one call of `evaluate`. Throws ValidationError for an
/// invalid setup or a wrong-shaped answer; exceptions of `evaluate` propagate.
SensitivityResult ComputeSensitivities(const std::vector<SensitivityParameter>& parameters,
                                       const SensitivityObjective& evaluate, const SensitivityOptions& options = {});

}  // namespace mbsweep
