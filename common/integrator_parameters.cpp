// The one conversion of SimulationSettings to the integrators' plain parameters
// (common/integrator_parameters.h).
#include "common/integrator_parameters.h"

namespace mbsweep {

GeneralizedAlphaParameters ToGeneralizedAlphaParameters(const SimulationSettings& s, DynamicSolverType type) {
  const auto& ti = s.timeIntegration;
  GeneralizedAlphaParameters p;
  p.startTime = ti.startTime;
  p.endTime = ti.endTime;
  p.numberOfSteps = ti.numberOfSteps;
  p.spectralRadius = ti.generalizedAlpha.spectralRadius;
  p.useNewmark = ti.generalizedAlpha.useNewmark || type == DynamicSolverType::TrapezoidalIndex2;
  p.newmarkBeta = ti.generalizedAlpha.newmarkBeta;
  p.newmarkGamma = ti.generalizedAlpha.newmarkGamma;
  p.index2 = ti.generalizedAlpha.useIndex2Constraints || type == DynamicSolverType::TrapezoidalIndex2;
  p.computeInitialAccelerations = ti.generalizedAlpha.computeInitialAccelerations;
  p.relativeTolerance = ti.newton.relativeTolerance;
  p.absoluteTolerance = ti.newton.absoluteTolerance;
  p.maxIterations = ti.newton.maxIterations;
  p.useModifiedNewton = ti.newton.useModifiedNewton;
  p.maxModifiedNewtonIterations = ti.newton.maxModifiedNewtonIterations;
  p.maxModifiedNewtonRestartIterations = ti.newton.maxModifiedNewtonRestartIterations;
  p.modifiedNewtonContractivity = ti.newton.modifiedNewtonContractivity;
  p.modifiedNewtonJacUpdatePerStep = ti.newton.modifiedNewtonJacUpdatePerStep;
  p.adaptInitialResidual = ti.newton.adaptInitialResidual;
  p.maximumSolutionNorm = ti.newton.maximumSolutionNorm;
  p.weightTolerancePerCoordinate = ti.newton.weightTolerancePerCoordinate;
  p.adaptiveStep = ti.adaptiveStep;
  p.adaptiveStepDecrease = ti.adaptiveStepDecrease;
  p.adaptiveStepIncrease = ti.adaptiveStepIncrease;
  p.adaptiveStepRecoverySteps = ti.adaptiveStepRecoverySteps;
  p.adaptiveStepRecoveryIterations = ti.adaptiveStepRecoveryIterations;
  p.minimumStepSize = ti.minimumStepSize;
  p.maxStepAttempts = StepAttemptBudget(ti);
  p.numDiff = NumDiff{ti.newton.numericalDifferentiation.relativeEpsilon,
                      ti.newton.numericalDifferentiation.minimumCoordinateSize};
  return p;
}

ExplicitParameters ToExplicitParameters(const SimulationSettings& s, DynamicSolverType type) {
  const auto& ti = s.timeIntegration;
  ExplicitParameters p;
  p.solverType = type;
  p.startTime = ti.startTime;
  p.endTime = ti.endTime;
  p.numberOfSteps = ti.numberOfSteps;
  p.automaticStepSize = ti.automaticStepSize;
  p.absoluteTolerance = ti.absoluteTolerance;
  p.relativeTolerance = ti.relativeTolerance;
  p.initialStepSize = ti.initialStepSize;
  p.minimumStepSize = ti.minimumStepSize;
  p.stepSizeMaxIncrease = ti.stepSizeMaxIncrease;
  p.stepSizeSafety = ti.stepSizeSafety;
  p.reuseConstantMassMatrix = ti.reuseConstantMassMatrix;
  p.computeEndOfStepAccelerations = ti.explicitIntegration.computeEndOfStepAccelerations;
  p.eliminateConstraints = ti.explicitIntegration.eliminateConstraints;
  p.maximumSolutionNorm = ti.newton.maximumSolutionNorm;
  p.maxStepAttempts = StepAttemptBudget(ti);
  return p;
}

}  // namespace mbsweep
