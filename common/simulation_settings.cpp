// Simulation settings (common/simulation_settings.h): solver type names and the checks
// before a solve, shared by the CPU reference solver and every batch backend.
#include "common/simulation_settings.h"

#include <string>

#include "common/rules.h"

namespace mbsweep {

namespace {
const char* const kSolverNames[] = {"GeneralizedAlpha", "TrapezoidalIndex2", "ExplicitEuler", "ExplicitMidpoint", "RK33",
                                    "RK44",             "RK67",              "ODE23",         "DOPRI5",           "VelocityVerlet"};

void Check(const char* field, Real value, Rule rule) {
  if (!SatisfiesRule(value, rule))
    throw ValidationError(std::string("SimulationSettings: ") + field + " = " + FormatReal(value) + " violates " +
                          RuleName(rule) + " (" + RuleCondition(rule) + ")");
}
void CheckNewton(const char* prefix, const NewtonSettings& n) {
  const std::string p = prefix;
  Check((p + "newton.relativeTolerance").c_str(), n.relativeTolerance, Rule::UReal);
  Check((p + "newton.absoluteTolerance").c_str(), n.absoluteTolerance, Rule::UReal);
  Check((p + "newton.maxIterations").c_str(), n.maxIterations, Rule::PInt);
  Check((p + "newton.maxModifiedNewtonIterations").c_str(), n.maxModifiedNewtonIterations, Rule::PInt);
  Check((p + "newton.numericalDifferentiation.relativeEpsilon").c_str(), n.numericalDifferentiation.relativeEpsilon,
        Rule::PReal);
  Check((p + "newton.numericalDifferentiation.minimumCoordinateSize").c_str(),
        n.numericalDifferentiation.minimumCoordinateSize, Rule::PReal);
  if (n.numericalDifferentiation.addReferenceCoordinatesToEpsilon)
    throw ValidationError("SimulationSettings: " + p +
                          "newton.numericalDifferentiation.addReferenceCoordinatesToEpsilon = true is not supported: "
                          "the difference step is relativeEpsilon * max(minimumCoordinateSize, |q|) on the coordinates "
                          "alone (Exudyn's default); set it to false");
}
}  // namespace

const char* DynamicSolverTypeName(DynamicSolverType t) { return kSolverNames[static_cast<int>(t)]; }

DynamicSolverType ParseDynamicSolverType(const std::string& name) {
  std::string all;
  for (int i = 0; i < kDynamicSolverTypeCount; ++i) {
    if (name == kSolverNames[i]) return static_cast<DynamicSolverType>(i);
    all += std::string(i ? ", " : "") + kSolverNames[i];
  }
  throw ValidationError("unknown DynamicSolverType '" + name + "'; valid: " + all);
}

void ValidateSettings(const SimulationSettings& s, bool staticSolve) {
  if (!s.solutionSettings.coordinatesSolutionFileName.empty())
    throw ValidationError("SimulationSettings: solution.file.name = '" +
                          s.solutionSettings.coordinatesSolutionFileName +
                          "' is not supported: mbsweep writes no coordinate solution files; record what you need "
                          "with sensors (SensorNode/SensorObject/SensorBody with a fileName or storeInternal)");
  if (staticSolve) {
    const auto& st = s.staticSolver;
    Check("staticSolver.numberOfLoadSteps", st.numberOfLoadSteps, Rule::PInt);
    Check("staticSolver.loadStepDuration", st.loadStepDuration, Rule::PReal);
    Check("staticSolver.loadStepStart", st.loadStepStart, Rule::UReal);
    Check("staticSolver.loadStepGeometricRange", st.loadStepGeometricRange, Rule::PReal);
    Check("staticSolver.minimumStepSize", st.minimumStepSize, Rule::PReal);
    Check("staticSolver.adaptiveStepDecrease", st.adaptiveStepDecrease, Rule::PReal);
    Check("staticSolver.stabilizerODE2term", st.stabilizerODE2term, Rule::UReal);
    CheckNewton("staticSolver.", st.newton);
    if (st.newton.useModifiedNewton)
      throw ValidationError(
          "SimulationSettings: staticSolver.newton.useModifiedNewton = true is not supported: the static solver runs "
          "full Newton (a Jacobian per iteration, Exudyn's default for it); set it to false");
    return;
  }
  const auto& ti = s.timeIntegration;
  Check("timeIntegration.startTime", ti.startTime, Rule::Real);
  Check("timeIntegration.endTime", ti.endTime, Rule::Real);
  if (!(ti.endTime > ti.startTime))
    throw ValidationError("SimulationSettings: timeIntegration.endTime = " + FormatReal(ti.endTime) +
                          " must be greater than timeIntegration.startTime = " + FormatReal(ti.startTime));
  Check("timeIntegration.numberOfSteps", ti.numberOfSteps, Rule::PInt);
  Check("timeIntegration.maxStepAttempts", ti.maxStepAttempts, Rule::UInt);
  Check("timeIntegration.absoluteTolerance", ti.absoluteTolerance, Rule::UReal);
  Check("timeIntegration.relativeTolerance", ti.relativeTolerance, Rule::UReal);
  Check("timeIntegration.initialStepSize", ti.initialStepSize, Rule::UReal);
  Check("timeIntegration.minimumStepSize", ti.minimumStepSize, Rule::PReal);
  Check("timeIntegration.stepSizeMaxIncrease", ti.stepSizeMaxIncrease, Rule::PReal);
  Check("timeIntegration.stepSizeSafety", ti.stepSizeSafety, Rule::PReal);
  Check("timeIntegration.adaptiveStepDecrease", ti.adaptiveStepDecrease, Rule::PReal);
  Check("timeIntegration.adaptiveStepIncrease", ti.adaptiveStepIncrease, Rule::PReal);
  const auto& ga = ti.generalizedAlpha;
  if (!(ga.spectralRadius >= 0 && ga.spectralRadius <= 1))
    throw ValidationError("SimulationSettings: timeIntegration.generalizedAlpha.spectralRadius = " +
                          FormatReal(ga.spectralRadius) + " must be in [0, 1]");
  Check("timeIntegration.generalizedAlpha.newmarkBeta", ga.newmarkBeta, Rule::PReal);
  Check("timeIntegration.generalizedAlpha.newmarkGamma", ga.newmarkGamma, Rule::PReal);
  if (ga.useIndex2Constraints && !ga.useNewmark)
    throw ValidationError(
        "SimulationSettings: timeIntegration.generalizedAlpha.useIndex2Constraints = true requires useNewmark = true");
  if (ga.resetAccelerations)
    throw ValidationError(
        "SimulationSettings: timeIntegration.generalizedAlpha.resetAccelerations = true is not supported: each step "
        "starts from the accelerations of the last one (Exudyn's default); set it to false");
  CheckNewton("timeIntegration.", ti.newton);
  Check("solution.sensors.writePeriod", s.solutionSettings.sensorsWritePeriod, Rule::UReal);
  Check("solution.precision", s.solutionSettings.outputPrecision, Rule::PInt);
}

}  // namespace mbsweep
