// The settings reader (reader.h): `solver:` and `simulationSettings:` (Exudyn's
// SimulationSettings tree, nested or dotted keys).
#include "studies/study_file/reader.h"

namespace mbsweep::study_reader {

namespace {

std::vector<std::string> SolverNames() {
  std::vector<std::string> v;
  for (int i = 0; i <= static_cast<int>(DynamicSolverType::VelocityVerlet); ++i)
    v.emplace_back(DynamicSolverTypeName(static_cast<DynamicSolverType>(i)));
  return v;
}
Setting SolverS(const char* n, DynamicSolverType& x) {
  return {n,
          [&x](const Reader& r, const YAML::Node& v, const std::string& w) {
            static const std::vector<std::string> names = SolverNames();
            x = static_cast<DynamicSolverType>(r.Choice(v, w, names));
          },
          {}};
}

std::vector<Setting> NewtonTree(NewtonSettings& n) {
  auto& d = n.numericalDifferentiation;
  return {RealS("relativeTolerance", n.relativeTolerance),
          RealS("absoluteTolerance", n.absoluteTolerance),
          IntS("maxIterations", n.maxIterations),
          BoolS("useModifiedNewton", n.useModifiedNewton),
          IntS("maxModifiedNewtonIterations", n.maxModifiedNewtonIterations),
          IntS("maxModifiedNewtonRestartIterations", n.maxModifiedNewtonRestartIterations),
          RealS("modifiedNewtonContractivity", n.modifiedNewtonContractivity),
          BoolS("modifiedNewtonJacUpdatePerStep", n.modifiedNewtonJacUpdatePerStep),
          BoolS("adaptInitialResidual", n.adaptInitialResidual),
          BoolS("weightTolerancePerCoordinate", n.weightTolerancePerCoordinate),
          RealS("maximumSolutionNorm", n.maximumSolutionNorm),
          Group("numericalDifferentiation", {RealS("relativeEpsilon", d.relativeEpsilon),
                                             RealS("minimumCoordinateSize", d.minimumCoordinateSize),
                                             BoolS("addReferenceCoordinatesToEpsilon", d.addReferenceCoordinatesToEpsilon)})};
}

/// Exudyn's SimulationSettings tree over `s`, with the names of Exudyn 1.13; `solver`
/// receives timeIntegration.solverType.
std::vector<Setting> SettingsTree(SimulationSettings& s, DynamicSolverType& solver) {
  auto& ti = s.timeIntegration;
  auto& ga = ti.generalizedAlpha;
  auto& ex = ti.explicitIntegration;
  auto& st = s.staticSolver;
  auto& so = s.solutionSettings;
  return {
      Group("timeIntegration",
            {RealS("startTime", ti.startTime), RealS("endTime", ti.endTime), IntS("numberOfSteps", ti.numberOfSteps),
             BoolS("adaptiveStep", ti.adaptiveStep), RealS("adaptiveStepDecrease", ti.adaptiveStepDecrease),
             RealS("adaptiveStepIncrease", ti.adaptiveStepIncrease),
             IntS("adaptiveStepRecoverySteps", ti.adaptiveStepRecoverySteps),
             IntS("adaptiveStepRecoveryIterations", ti.adaptiveStepRecoveryIterations),
             BoolS("automaticStepSize", ti.automaticStepSize), RealS("absoluteTolerance", ti.absoluteTolerance),
             RealS("relativeTolerance", ti.relativeTolerance), RealS("initialStepSize", ti.initialStepSize),
             RealS("minimumStepSize", ti.minimumStepSize), RealS("stepSizeMaxIncrease", ti.stepSizeMaxIncrease),
             RealS("stepSizeSafety", ti.stepSizeSafety), BoolS("reuseConstantMassMatrix", ti.reuseConstantMassMatrix),
             IntS("verboseMode", ti.verboseMode), IntS("maxStepAttempts", ti.maxStepAttempts),
             SolverS("solverType", solver),
             Group("newton", NewtonTree(ti.newton)),
             Group("generalizedAlpha",
                   {RealS("spectralRadius", ga.spectralRadius), BoolS("useNewmark", ga.useNewmark),
                    RealS("newmarkBeta", ga.newmarkBeta), RealS("newmarkGamma", ga.newmarkGamma),
                    BoolS("useIndex2Constraints", ga.useIndex2Constraints),
                    BoolS("computeInitialAccelerations", ga.computeInitialAccelerations),
                    BoolS("resetAccelerations", ga.resetAccelerations)}),
             Group("explicit", {BoolS("computeEndOfStepAccelerations", ex.computeEndOfStepAccelerations),
                                BoolS("eliminateConstraints", ex.eliminateConstraints)})}),
      Group("staticSolver",
            {IntS("numberOfLoadSteps", st.numberOfLoadSteps), RealS("loadStepDuration", st.loadStepDuration),
             RealS("loadStepStart", st.loadStepStart), BoolS("loadStepGeometric", st.loadStepGeometric),
             RealS("loadStepGeometricRange", st.loadStepGeometricRange), BoolS("useLoadFactor", st.useLoadFactor),
             BoolS("adaptiveStep", st.adaptiveStep), RealS("adaptiveStepDecrease", st.adaptiveStepDecrease),
             RealS("adaptiveStepIncrease", st.adaptiveStepIncrease),
             IntS("adaptiveStepRecoverySteps", st.adaptiveStepRecoverySteps),
             IntS("adaptiveStepRecoveryIterations", st.adaptiveStepRecoveryIterations),
             RealS("minimumStepSize", st.minimumStepSize), BoolS("computeLoadsJacobian", st.computeLoadsJacobian),
             RealS("stabilizerODE2term", st.stabilizerODE2term), IntS("verboseMode", st.verboseMode),
             Group("newton", NewtonTree(st.newton))}),
      Group("solution", {Group("sensors", {RealS("writePeriod", so.sensorsWritePeriod)}),
                         IntS("precision", so.outputPrecision),
                         Group("file", {StringS("name", so.coordinatesSolutionFileName)})}),
      Group("linearSolver", {Setting{"solverType",
                                     [&s](const Reader& r, const YAML::Node& v, const std::string& w) {
                                       static const std::vector<std::string> names = {"EXUdense", "EigenDense",
                                                                                      "EigenSparse"};
                                       s.linearSolverType = static_cast<LinearSolverType>(r.Choice(v, w, names));
                                     },
                                     {}}}),
  };
}

/// The settings' names before Exudyn 1.13 (old path, current path).
const std::vector<std::pair<std::string, std::string>> kSettingAliases = {
    {"solutionSettings.sensorsWritePeriod", "solution.sensors.writePeriod"},
    {"solutionSettings.outputPrecision", "solution.precision"},
    {"solutionSettings.coordinatesSolutionFileName", "solution.file.name"},
    {"linearSolverType", "linearSolver.solverType"},
    {"timeIntegration.explicitIntegration.computeEndOfStepAccelerations",
     "timeIntegration.explicit.computeEndOfStepAccelerations"},
    {"timeIntegration.explicitIntegration.eliminateConstraints", "timeIntegration.explicit.eliminateConstraints"},
    {"timeIntegration.explicitIntegration.dynamicSolverType", "timeIntegration.solverType"},
};

}  // namespace

void ReadSolverAndSettings(const Reader& r, const Section& top, StudyFile& f) {
  if (const Entry* e = top.Find("solver")) {
    static const std::vector<std::string> names = SolverNames();
    f.solver = static_cast<DynamicSolverType>(r.Choice(e->value, "solver", names));
  }
  if (const Entry* e = top.Find("simulationSettings")) {
    DynamicSolverType solverType = f.solver;
    const std::vector<Setting> tree = SettingsTree(f.settings, solverType);
    TreeReader tr(r, tree, "simulationSettings", "setting", kSettingAliases);
    tr.Read(e->value);
    for (const auto& [path, node] : tr.seen)
      if (path == "timeIntegration.solverType") {
        if (top.Find("solver") && solverType != f.solver)
          r.Fail(node, std::string("simulationSettings.timeIntegration.solverType = ") + DynamicSolverTypeName(solverType) +
                           " contradicts solver: " + DynamicSolverTypeName(f.solver) + "; give the solver once");
        f.solver = solverType;
      }
    try {
      ValidateSettings(f.settings, false);
      ValidateSettings(f.settings, true);
    } catch (const ValidationError& err) {
      FailSetting(r, tr, e->value, err.what());
    }
  }
}

}  // namespace mbsweep::study_reader
