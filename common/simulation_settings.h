/// @file simulation_settings.h
/// Simulation settings with Exudyn's structure and the defaults of Exudyn 1.13 (modified Newton
/// in time integration, full Newton in the static solver), read by the CPU
/// reference solver and carried by every batch (common/batch.h) to every backend. Host-only;
/// defined in common/simulation_settings.cpp.
#pragma once

#include <string>

#include "common/kinds.h"
#include "common/types.h"

namespace mbsweep {

// DynamicSolverType (Exudyn's dynamic solver types) lives in common/kinds.h, shared with
// the host/device integrators.
const char* DynamicSolverTypeName(DynamicSolverType t);
/// Parses a solver type name; throws ValidationError listing the valid names.
DynamicSolverType ParseDynamicSolverType(const std::string& name);

/// Linear solver of the CPU reference solver (Exudyn's LinearSolverType).
enum class LinearSolverType { EXUdense, EigenDense, EigenSparse };

struct NumericalDifferentiationSettings {
  Real relativeEpsilon = 1e-7;       ///< eps = relativeEpsilon * max(minimumCoordinateSize, |x|)
  Real minimumCoordinateSize = 1e-2;
  bool addReferenceCoordinatesToEpsilon = false;
};

struct NewtonSettings {
  Real relativeTolerance = 1e-8;
  Real absoluteTolerance = 1e-10;
  int maxIterations = 25;
  bool useModifiedNewton = false;  ///< the static solver's default; time integration: Modified()
  int maxModifiedNewtonIterations = 8;
  int maxModifiedNewtonRestartIterations = 7;
  Real modifiedNewtonContractivity = 0.5;
  bool modifiedNewtonJacUpdatePerStep = false;
  bool adaptInitialResidual = true;
  bool weightTolerancePerCoordinate = false;
  Real maximumSolutionNorm = 1e38;
  NumericalDifferentiationSettings numericalDifferentiation;
  /// The settings with useModifiedNewton = true (time integration's default).
  static NewtonSettings Modified() {
    NewtonSettings n;
    n.useModifiedNewton = true;
    return n;
  }
};

struct GeneralizedAlphaSettings {
  Real spectralRadius = 0.9;
  bool useNewmark = false;
  Real newmarkBeta = 0.25;
  Real newmarkGamma = 0.5;
  bool useIndex2Constraints = false;
  bool computeInitialAccelerations = true;
  bool resetAccelerations = false;
};

struct ExplicitIntegrationSettings {
  bool computeEndOfStepAccelerations = true;
  bool eliminateConstraints = true;
};

struct TimeIntegrationSettings {
  Real startTime = 0;
  Real endTime = 1;
  int numberOfSteps = 100;
  bool adaptiveStep = true;
  Real adaptiveStepDecrease = 0.5;
  Real adaptiveStepIncrease = 2;
  int adaptiveStepRecoverySteps = 10;
  int adaptiveStepRecoveryIterations = 7;
  bool automaticStepSize = true;     ///< ODE23/DOPRI5 only
  Real absoluteTolerance = 1e-8;     ///< explicit error control
  Real relativeTolerance = 1e-8;     ///< explicit error control
  Real initialStepSize = 0;          ///< 0: the maximum step size (endTime-startTime)/numberOfSteps
  Real minimumStepSize = 1e-8;
  Real stepSizeMaxIncrease = 2;
  Real stepSizeSafety = 0.9;
  bool reuseConstantMassMatrix = true;
  int verboseMode = 0;
  /// mbsweep's addition: the most step attempts (accepted and rejected steps) one run may
  /// take; a run that needs more ends with status budget_exceeded (in a batch: that system
  /// only), so that one sample cannot stall a study. 0: automatic, StepAttemptBudget().
  int maxStepAttempts = 0;
  NewtonSettings newton = NewtonSettings::Modified();  ///< Exudyn 1.13: modified Newton
  GeneralizedAlphaSettings generalizedAlpha;
  ExplicitIntegrationSettings explicitIntegration;
};

/// The step-attempt budget of a run: maxStepAttempts, or where it is 0,
/// min(1000 numberOfSteps + 100000, 2^31 - 1): three orders of magnitude of step reductions
/// beyond the planned steps.
inline int StepAttemptBudget(const TimeIntegrationSettings& ti) {
  if (ti.maxStepAttempts > 0) return ti.maxStepAttempts;
  const double automatic = 1000.0 * ti.numberOfSteps + 100000.0;
  return automatic < 2147483647.0 ? static_cast<int>(automatic) : 2147483647;
}

struct StaticSolverSettings {
  int numberOfLoadSteps = 1;
  Real loadStepDuration = 1;
  Real loadStepStart = 0;
  bool loadStepGeometric = false;
  Real loadStepGeometricRange = 1000;
  bool useLoadFactor = true;
  bool adaptiveStep = true;
  Real adaptiveStepDecrease = 0.25;
  Real adaptiveStepIncrease = 2;
  int adaptiveStepRecoverySteps = 4;
  int adaptiveStepRecoveryIterations = 7;
  Real minimumStepSize = 1e-8;
  bool computeLoadsJacobian = true;
  Real stabilizerODE2term = 0;
  int verboseMode = 0;
  NewtonSettings newton;
};

struct SolutionSettings {
  Real sensorsWritePeriod = 0.01;  ///< 0: every step
  int outputPrecision = 10;        ///< significant digits in sensor files
  std::string coordinatesSolutionFileName;  ///< must stay empty: no solution files are written (ValidateSettings)
};

struct SimulationSettings {
  TimeIntegrationSettings timeIntegration;
  StaticSolverSettings staticSolver;
  SolutionSettings solutionSettings;
  LinearSolverType linearSolverType = LinearSolverType::EXUdense;
};

/// Checks settings before a solve; throws ValidationError naming the setting, value and rule.
void ValidateSettings(const SimulationSettings& s, bool staticSolve);

}  // namespace mbsweep
