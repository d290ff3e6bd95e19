// Model and study files (YAML): the oscillator written as a file equals the C++ fixture,
// expressions are re-evaluated per study row, every study type parses, and errors carry
// exact file:line:column positions with suggestions.
#include "studies/study_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/parameters.h"
#include "oscillator_fixture.h"

namespace mbsweep {
namespace {

/// The oscillator of test::Oscillator(m, k, F) with damping = 0.002*k.
const std::string kOscillator = R"(parameters:
  m: 1.6
  k: 4000
  F: 80
model:
  - NodePoint: {referenceCoordinates: [0.5, 0, 0], initialCoordinates: [-0.08, 0, 0], initialVelocities: [1, 0, 0]}
  - NodePointGround: {}
  - ObjectMassPoint: {name: mass, mass: m, nodeNumber: node0}
  - MarkerNodeCoordinate: {nodeNumber: node1, coordinate: 0}
  - MarkerNodeCoordinate: {nodeNumber: 0}
  - ObjectConnectorCoordinateSpringDamper: {name: spring, markerNumbers: [marker0, marker1], stiffness: k, damping: 0.002*k}
  - LoadCoordinate: {name: force, markerNumber: marker1, load: F}
  - SensorObject: {objectNumber: spring, outputVariableType: Displacement, storeInternal: true, writeToFile: false}
solver: GeneralizedAlpha
simulationSettings:
  timeIntegration:
    numberOfSteps: 1000
    endTime: 1
    generalizedAlpha: {spectralRadius: 1}
    newton.relativeTolerance: 1e-6
  solutionSettings: {sensorsWritePeriod: 0.005}
  linearSolverType: EigenDense
objectives:
  samplePeriod: 0.005
  list:
    - {name: maxDisp, kind: MaxAbs, sensor: sensor0}
    - {name: final, kind: FinalValue, sensor: 0, weight: 2}
)";

/// "name:line:column" of the first occurrence of `needle` in `text`, plus `offset` columns.
std::string Where(const std::string& text, const std::string& needle, int offset = 0,
                  const std::string& name = "s.yaml") {
  const size_t p = text.find(needle);
  EXPECT_NE(p, std::string::npos) << "'" << needle << "' not found";
  if (p == std::string::npos) return "?";
  const size_t lineStart = text.rfind('\n', p);
  const size_t col = p - (lineStart == std::string::npos ? 0 : lineStart + 1) + 1;
  const long line = std::count(text.begin(), text.begin() + static_cast<long>(p), '\n') + 1;
  return name + ":" + std::to_string(line) + ":" + std::to_string(col + static_cast<size_t>(offset));
}

/// The message of the StudyFileError that parsing `text` throws ("no error" if none).
std::string ErrorOf(const std::string& text, const std::string& dir = ".") {
  try {
    ParseStudyText(text, "s.yaml", dir);
  } catch (const StudyFileError& e) {
    return e.what();
  }
  return "no error";
}

/// Replaces the first occurrence of `from` in `text`.
std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t p = text.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  if (p != std::string::npos) text.replace(p, from.size(), to);
  return text;
}

std::string TempDir(const std::string& sub) {
  const std::filesystem::path d = std::filesystem::path(testing::TempDir()) / sub;
  std::filesystem::create_directories(d);
  return d.string();
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

// ------------------------------------- the model ----------------------------------------

TEST(StudyFile, OscillatorEqualsTheFixture) {
  const StudyFile f = ParseStudyText(kOscillator, "osc.yaml");
  const Model ref = test::Oscillator(1.6, 4000, 80);
  const Layout a = f.model.Compile(), b = ref.Compile();
  EXPECT_EQ(a.thetaPaths, b.thetaPaths);
  EXPECT_EQ(f.model.Theta0(), ref.Theta0());  // exact
  EXPECT_EQ(a.ints, b.ints);
  EXPECT_EQ(a.nODE2, b.nODE2);
  EXPECT_EQ(a.nodeNames, b.nodeNames);
  EXPECT_EQ(a.objectNames, b.objectNames);
  EXPECT_EQ(a.sensorNames, b.sensorNames);
  const auto& s = std::get<SensorObject>(f.model.GetSensor(SensorIndex(0)));
  EXPECT_TRUE(s.storeInternal);
  EXPECT_FALSE(s.writeToFile);
  EXPECT_EQ(s.outputVariableType, OutputVariableType::Displacement);
  EXPECT_EQ(f.path, "osc.yaml");
  EXPECT_EQ(f.study.type, StudyType::None);
}

TEST(StudyFile, SettingsWithExudynNames) {
  const StudyFile f = ParseStudyText(kOscillator, "osc.yaml");
  EXPECT_EQ(f.solver, DynamicSolverType::GeneralizedAlpha);
  const auto& ti = f.settings.timeIntegration;
  EXPECT_EQ(ti.numberOfSteps, 1000);
  EXPECT_EQ(ti.endTime, 1.0);
  EXPECT_EQ(ti.generalizedAlpha.spectralRadius, 1.0);
  EXPECT_EQ(ti.newton.relativeTolerance, 1e-6);
  EXPECT_EQ(ti.newton.absoluteTolerance, 1e-10);  // default kept
  EXPECT_EQ(f.settings.solutionSettings.sensorsWritePeriod, 0.005);
  EXPECT_EQ(f.settings.linearSolverType, LinearSolverType::EigenDense);

  const std::string more = R"(model:
  - NodePoint: {}
  - ObjectMassPoint: {mass: 1, nodeNumber: 0}
simulationSettings:
  timeIntegration.solverType: DOPRI5
  timeIntegration:
    startTime: 0.5
    adaptiveStep: false
    newton: {useModifiedNewton: true, maxIterations: 12, numericalDifferentiation: {relativeEpsilon: 1e-6}}
    generalizedAlpha: {useNewmark: true, useIndex2Constraints: true}
  staticSolver: {numberOfLoadSteps: 10, loadStepGeometric: true, newton: {absoluteTolerance: 1e-12}}
  solution.precision: 16
  linearSolver: {solverType: EigenSparse}
)";
  const StudyFile g = ParseStudyText(more, "m.yaml");
  EXPECT_EQ(g.solver, DynamicSolverType::DOPRI5);
  const auto& t = g.settings.timeIntegration;
  EXPECT_EQ(t.startTime, 0.5);
  EXPECT_FALSE(t.adaptiveStep);
  EXPECT_TRUE(t.newton.useModifiedNewton);
  EXPECT_EQ(t.newton.maxIterations, 12);
  EXPECT_EQ(t.newton.numericalDifferentiation.relativeEpsilon, 1e-6);
  EXPECT_TRUE(t.generalizedAlpha.useNewmark);
  EXPECT_TRUE(t.generalizedAlpha.useIndex2Constraints);
  EXPECT_EQ(g.settings.staticSolver.numberOfLoadSteps, 10);
  EXPECT_TRUE(g.settings.staticSolver.loadStepGeometric);
  EXPECT_EQ(g.settings.staticSolver.newton.absoluteTolerance, 1e-12);
  EXPECT_EQ(g.settings.solutionSettings.outputPrecision, 16);
  EXPECT_EQ(g.settings.linearSolverType, LinearSolverType::EigenSparse);
}

// timeIntegration.explicit.eliminateConstraints (before Exudyn 1.13 explicitIntegration.) reaches
// the settings the explicit solvers read (default true, as Exudyn's).
TEST(StudyFile, ExplicitEliminateConstraints) {
  for (const char* group : {"explicit", "explicitIntegration"}) {
    const std::string text = std::string(R"(model:
  - NodePoint: {}
  - ObjectMassPoint: {mass: 1, nodeNumber: 0}
solver: RK44
simulationSettings:
  timeIntegration: {)") + group + R"(: {eliminateConstraints: false}}
)";
    EXPECT_FALSE(ParseStudyText(text, "e.yaml").settings.timeIntegration.explicitIntegration.eliminateConstraints);
  }
  EXPECT_TRUE(ParseStudyText(kOscillator, "osc.yaml").settings.timeIntegration.explicitIntegration.eliminateConstraints);
}

// The defaults of Exudyn 1.13: modified Newton in time integration, full Newton in the static
// solver (exu.SimulationSettings() of 1.13.6).
TEST(StudyFile, DefaultsOfExudyn113) {
  const SimulationSettings s;
  EXPECT_TRUE(s.timeIntegration.newton.useModifiedNewton);
  EXPECT_FALSE(s.staticSolver.newton.useModifiedNewton);
  EXPECT_EQ(s.timeIntegration.newton.maxModifiedNewtonIterations, 8);
  EXPECT_EQ(s.solutionSettings.sensorsWritePeriod, 0.01);
  EXPECT_EQ(s.solutionSettings.outputPrecision, 10);
  const std::string minimal = "model:\n  - NodePoint: {}\n  - ObjectMassPoint: {mass: 1, nodeNumber: 0}\n";
  EXPECT_EQ(ParseStudyText(minimal, "d.yaml").solver, DynamicSolverType::GeneralizedAlpha);
}

// Exudyn 1.13 renamed settings (solutionSettings.sensorsWritePeriod became
// solution.sensors.writePeriod, ...): both names are read into the one setting, nested or dotted.
TEST(StudyFile, SettingsOfBothExudynGenerations) {
  const std::string head = "model:\n  - NodePoint: {}\n  - ObjectMassPoint: {mass: 1, nodeNumber: 0}\n";
  const std::string before = head + R"(simulationSettings:
  solutionSettings: {sensorsWritePeriod: 0.002, outputPrecision: 12}
  linearSolverType: EigenSparse
  timeIntegration.explicitIntegration: {eliminateConstraints: false, computeEndOfStepAccelerations: false}
  timeIntegration: {explicitIntegration.dynamicSolverType: RK67}
)";
  const std::string now = head + R"(simulationSettings:
  solution: {sensors: {writePeriod: 0.002}, precision: 12}
  linearSolver.solverType: EigenSparse
  timeIntegration: {solverType: RK67, explicit: {eliminateConstraints: false, computeEndOfStepAccelerations: false}}
)";
  for (const std::string& text : {before, now}) {
    const StudyFile f = ParseStudyText(text, "g.yaml");
    EXPECT_EQ(f.settings.solutionSettings.sensorsWritePeriod, 0.002);
    EXPECT_EQ(f.settings.solutionSettings.outputPrecision, 12);
    EXPECT_EQ(f.settings.linearSolverType, LinearSolverType::EigenSparse);
    EXPECT_FALSE(f.settings.timeIntegration.explicitIntegration.eliminateConstraints);
    EXPECT_FALSE(f.settings.timeIntegration.explicitIntegration.computeEndOfStepAccelerations);
    EXPECT_EQ(f.solver, DynamicSolverType::RK67);
  }
  // one setting given under both names, or a solver that contradicts solver:
  const std::string twice = now + "  solutionSettings.sensorsWritePeriod: 0.01\n";
  EXPECT_EQ(ErrorOf(twice), Where(twice, "solutionSettings.sensorsWritePeriod") +
                                ": simulationSettings.solution.sensors.writePeriod is given twice");
  const std::string both = now + "solver: RK44\n";
  EXPECT_EQ(ErrorOf(both), Where(both, "RK67") +
                               ": simulationSettings.timeIntegration.solverType = RK67 contradicts solver: RK44; give "
                               "the solver once");
  const std::string typo = Replace(before, "outputPrecision", "outputPrecison");
  EXPECT_EQ(ErrorOf(typo), Where(typo, "outputPrecison") +
                               ": unknown setting 'solutionSettings.outputPrecison' in simulationSettings; did you mean "
                               "'solutionSettings.outputPrecision'?");
}

// Exudyn 1.13's item names: short type names (MassPoint), fields renamed in 1.12.258 (mass for
// physicsMass), visualization fields ignored with one warning; the model is the same.
TEST(StudyFile, ItemsOfBothExudynGenerations) {
  std::string text = Replace(kOscillator, "ObjectMassPoint: {name: mass, mass: m,",
                             "MassPoint: {name: mass, physicsMass: m, Vshow: false, VgraphicsData: [],");
  text = Replace(text, "ObjectConnectorCoordinateSpringDamper: {", "CoordinateSpringDamper: {Vcolor: [1, 0, 0, 1], ");
  text = Replace(text, "NodePointGround: {}", "PointGround: {visualization: {show: false}, Vshow: true}");
  const StudyFile f = ParseStudyText(text, "v.yaml");
  const StudyFile ref = ParseStudyText(kOscillator, "osc.yaml");
  const Layout a = f.model.Compile(), b = ref.model.Compile();
  EXPECT_EQ(a.thetaPaths, b.thetaPaths);
  EXPECT_EQ(f.model.Theta0(), ref.model.Theta0());
  EXPECT_EQ(f.expressions.size(), ref.expressions.size());
  EXPECT_EQ(f.warnings, (std::vector<std::string>{"model: the visualization fields visualization, Vshow, "
                                                  "VgraphicsData, Vcolor are ignored (mbsweep draws no model)"}));
  EXPECT_TRUE(ref.warnings.empty());
  // a parameter path with the old field name is the current one's
  const StudyFile g = ParseStudyText(kOscillator + "study: {type: ParameterVariation, parameters: "
                                                   "{spring.stiffness: [1000, 2000, 2], mass.physicsMass: [1, 2, 2]}}\n",
                                     "p.yaml");
  ParameterMap map(b, g.model.Theta0());
  EXPECT_THROW(MakeStudyMapping(g, b, map), StudyFileError);  // mass.mass is an expression of m in the file
  const std::string direct = Replace(kOscillator, "mass: m,", "mass: 1.5,") +
                             "study: {type: ParameterVariation, parameters: {mass.physicsMass: [1, 2, 2]}}\n";
  const StudyFile h = ParseStudyText(direct, "d.yaml");
  const Layout L = h.model.Compile();
  ParameterMap hm(L, h.model.Theta0());
  const StudyMapping m = MakeStudyMapping(h, L, hm);
  EXPECT_EQ(m.mapParameters.back(), "mass_mass");
  EXPECT_EQ(m.nominal.back(), 1.5);
  // one field under both names
  const std::string both = Replace(kOscillator, "mass: m,", "mass: m, physicsMass: 2,");
  EXPECT_EQ(ErrorOf(both), Where(both, "physicsMass") +
                               ": ObjectMassPoint: 'physicsMass' is the field 'mass' under its name before Exudyn "
                               "1.12.258; give the field once");
}

TEST(StudyFile, ObjectivesResolveSensorsAndFiles) {
  const StudyFile f = ParseStudyText(kOscillator, "osc.yaml");
  ASSERT_EQ(f.objectives.objectives.size(), 2u);
  EXPECT_EQ(f.objectives.samplePeriod, 0.005);
  EXPECT_FALSE(f.objectives.weightedSum);
  EXPECT_EQ(f.objectives.objectives[0].name, "maxDisp");
  EXPECT_EQ(f.objectives.objectives[0].kind, "MaxAbs");
  EXPECT_EQ(f.objectives.objectives[0].sensor, 0);
  EXPECT_EQ(f.objectives.objectives[1].sensor, 0);
  EXPECT_EQ(f.objectives.objectives[1].weight, 2.0);

  const std::string dir = TempDir("study_file_objectives");
  WriteFile(dir + "/ref.csv", "time,x\n0,0\n0.5,0.01\n1,0.02\n");
  const std::string text = Replace(kOscillator, "    - {name: final, kind: FinalValue, sensor: 0, weight: 2}",
                                   "    - {name: error, kind: ErrorExudyn, sensor: sensor0, signalFile: ref.csv, "
                                   "signalColumnName: x, errorDivisor: 1000, errorMultiplier: 1}");
  const StudyFile g = ParseStudyText(text, "osc.yaml", dir);
  ASSERT_EQ(g.objectives.objectives.size(), 2u);
  EXPECT_EQ(g.objectives.objectives[1].signalFile, (std::filesystem::path(dir) / "ref.csv").string());
  EXPECT_EQ(g.objectives.objectives[1].signalColumnName, "x");
  EXPECT_EQ(g.objectives.objectives[1].errorDivisor, 1000.0);
  // The same file loaded from disk resolves relative to its own directory.
  WriteFile(dir + "/osc.yaml", text);
  const StudyFile h = LoadStudyFile(dir + "/osc.yaml");
  EXPECT_EQ(h.directory, dir);
  EXPECT_EQ(h.objectives.objectives[1].signalFile, (std::filesystem::path(dir) / "ref.csv").string());
  // A missing signal file is an error at the signalFile value.
  const std::string missing = Replace(text, "signalFile: ref.csv", "signalFile: nothere.csv");
  const std::string err = ErrorOf(missing, dir);
  EXPECT_EQ(err.rfind(Where(missing, "nothere.csv") + ": objective 'error'", 0), 0u) << err;
}

TEST(StudyFile, EveryItemFieldKind) {
  const std::string text = R"(parameters: {L: 2, J: 0.5, w: 20}
model:
  - NodeRigidBodyRxyz: {name: n, referenceCoordinates: [0, 0, 0, 0, 0, 0]}
  - NodeGenericODE2: {name: g, numberOfODE2Coordinates: 2, initialCoordinates: [0.1, L]}
  - ObjectGround: {name: ground, referenceRotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}
  - ObjectRigidBody: {name: body, mass: 1, inertia: [J, J, J, 0, 0, 0], nodeNumber: n}
  - ObjectGenericODE2: {name: gen, nodeNumbers: [g], massMatrix: [[1, 0], [0, 1]], stiffnessMatrix: [[L*100, 0], [0, 100]]}
  - MarkerBodyRigid: {name: mg, bodyNumber: ground}
  - MarkerNodeRigid: {name: mn, nodeNumber: n}
  - ObjectJointGeneric: {name: joint, markerNumbers: [mg, mn], constrainedAxes: [1, 1, 1, 1, 1, 0]}
  - ObjectConnectorRigidBodySpringDamper: {markerNumbers: [mg, mn], stiffness: [[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,w]]}
  - LoadTorqueVector: {name: torque, markerNumber: mn, loadVector: [0, 0, 1], bodyFixed: true, timeFunction: {type: Harmonic, amplitude: L, angularFrequency: w}}
  - LoadTorqueVector: {name: step, markerNumber: mn, loadVector: [0, 0, 1], timeFunction: {type: Step, startTime: 0.1*L, endValue: 2}}
  - LoadTorqueVector: {name: table, markerNumber: mn, timeFunction: {type: Table, times: [0, 1], values: [0, w]}}
  - SensorNode: {name: rot, nodeNumber: n, outputVariableType: Rotation, fileName: rot.txt}
  - SensorLoad: {loadNumber: torque}
)";
  const StudyFile f = ParseStudyText(text, "items.yaml");
  const Layout L = f.model.Compile();
  const auto theta = f.model.Theta0();
  auto value = [&](const std::string& path) { return theta[static_cast<size_t>(L.ThetaIndex(path))]; };
  EXPECT_EQ(value("g.initialCoordinates[1]"), 2.0);
  EXPECT_EQ(value("body.inertia[2]"), 0.5);
  EXPECT_EQ(value("gen.stiffnessMatrix[0][0]"), 200.0);
  EXPECT_EQ(value("object4.stiffness[5][5]"), 20.0);
  EXPECT_EQ(value("torque.timeFunction.amplitude"), 2.0);
  EXPECT_EQ(value("torque.timeFunction.angularFrequency"), 20.0);
  EXPECT_EQ(value("step.timeFunction.startTime"), 0.2);
  EXPECT_EQ(value("step.timeFunction.endTime"), 0.2);
  EXPECT_EQ(value("step.timeFunction.endValue"), 2.0);
  EXPECT_EQ(value("table.timeFunction.values[1]"), 20.0);
  const auto& joint = std::get<ObjectJointGeneric>(f.model.GetObject(ObjectIndex(4 - 1)));
  EXPECT_EQ(joint.constrainedAxes[5], 0);
  EXPECT_TRUE(std::get<LoadTorqueVector>(f.model.GetLoad(LoadIndex(0))).bodyFixed);
  EXPECT_EQ(std::get<SensorNode>(f.model.GetSensor(SensorIndex(0))).fileName, "rot.txt");
  EXPECT_EQ(std::get<SensorLoad>(f.model.GetSensor(SensorIndex(1))).loadNumber.value, 0);
  // Every expression is recorded with a path of the compiled layout; a Step's startTime
  // expression also defines its endTime.
  std::vector<std::string> paths;
  for (const auto& x : f.expressions) {
    paths.push_back(x.path);
    EXPECT_GE(L.ThetaIndex(x.path), 0);
  }
  for (const char* p : {"g.initialCoordinates[1]", "body.inertia[0]", "body.inertia[2]",
                        "gen.stiffnessMatrix[0][0]", "object4.stiffness[5][5]", "torque.timeFunction.amplitude",
                        "step.timeFunction.startTime", "step.timeFunction.endTime", "table.timeFunction.values[1]"})
    EXPECT_NE(std::find(paths.begin(), paths.end(), p), paths.end()) << p;
  EXPECT_EQ(paths.size(), 11u);
}

// A time function as the text of an expression of t: the study parameters it names become its
// parameters (theta slots the study defines per system); the map form adds parameters of its own.
TEST(StudyFile, ExpressionTimeFunctions) {
  const std::string text = Replace(
      kOscillator, "load: F}",
      "load: 1, timeFunction: 'F*sin(20*t) + (t > 0.5 ? m : 0)'}\n"
      "  - LoadCoordinate: {name: push, markerNumber: marker1, timeFunction: {type: Expression, expression: "
      "'a*exp(-t/tau)', parameters: {a: 2*F, tau: 0.1}}}");
  const StudyFile f = ParseStudyText(text, "s.yaml");
  const auto& force = std::get<LoadCoordinate>(f.model.GetLoad(LoadIndex(0)));
  EXPECT_EQ(force.timeFunction.type, TimeFunctionType::Expression);
  EXPECT_EQ(force.timeFunction.expression, "F*sin(20*t) + (t > 0.5 ? m : 0)");
  EXPECT_EQ(force.timeFunction.parameters,
            (std::vector<std::pair<std::string, Real>>{{"m", 1.6}, {"F", 80}}));  // `parameters:` order
  const auto& push = std::get<LoadCoordinate>(f.model.GetLoad(LoadIndex(1)));
  EXPECT_EQ(push.timeFunction.parameters, (std::vector<std::pair<std::string, Real>>{{"a", 160}, {"tau", 0.1}}));
  const Layout L = f.model.Compile();
  ASSERT_EQ(L.expressions.size(), 2u);
  EXPECT_EQ(L.expressions[0].owner, "force.timeFunction");
  std::vector<std::pair<std::string, std::string>> defined;
  for (const auto& x : f.expressions) {
    EXPECT_GE(L.ThetaIndex(x.path), 0) << x.path;
    defined.emplace_back(x.path, x.expression);
  }
  for (const auto& want : std::vector<std::pair<std::string, std::string>>{
           {"force.timeFunction.m", "m"}, {"force.timeFunction.F", "F"}, {"push.timeFunction.a", "2*F"}})
    EXPECT_NE(std::find(defined.begin(), defined.end(), want), defined.end()) << want.first;
}

// A spring force as an expression of the user function's arguments and a study parameter;
// Exudyn's 0 (no user function) leaves the built-in law.
TEST(StudyFile, SpringForceUserFunction) {
  const std::string text =
      Replace(kOscillator, "damping: 0.002*k}", "damping: 0.002*k, springForceUserFunction: 'k*u + m*1e5*u^3 + d*v'}");
  const StudyFile f = ParseStudyText(text, "s.yaml");
  const auto& spring = std::get<ObjectConnectorCoordinateSpringDamper>(f.model.GetObject(ObjectIndex(1)));
  EXPECT_EQ(spring.springForceUserFunction.expression, "k*u + m*1e5*u^3 + d*v");
  // k is the argument (the spring's stiffness), m the study parameter
  EXPECT_EQ(spring.springForceUserFunction.parameters, (std::vector<std::pair<std::string, Real>>{{"m", 1.6}}));
  const Layout L = f.model.Compile();
  EXPECT_GE(L.ThetaIndex("spring.springForceUserFunction.m"), 0);
  const StudyFile none = ParseStudyText(Replace(kOscillator, "damping: 0.002*k}", "damping: 0.002*k, springForceUserFunction: 0}"), "s.yaml");
  EXPECT_TRUE(std::get<ObjectConnectorCoordinateSpringDamper>(none.model.GetObject(ObjectIndex(1)))
                  .springForceUserFunction.expression.empty());
  const std::string bad = Replace(kOscillator, "damping: 0.002*k}", "damping: 0.002*k, springForceUserFunction: 'k*x'}");
  EXPECT_EQ(ErrorOf(bad), Where(bad, "'k*x'") +
                              ": ObjectConnectorCoordinateSpringDamper 'spring': springForceUserFunction.expression = "
                              "'k*x': unknown variable 'x' (arguments: t, u, v, k, d, offset; parameters: none; "
                              "constants: _pi, _e) at position 2");
}

// Load user functions: LoadCoordinate's loadUserFunction as a text; a Force's
// loadVectorUserFunction as a YAML list of its three values (numbers or texts), or as one text,
// with its own parameters; the list's length and the time function beside it are checked.
TEST(StudyFile, LoadUserFunctions) {
  const std::string force = "  - LoadCoordinate: {name: force, markerNumber: marker1, load: F}\n";
  const std::string text = Replace(
      kOscillator, force,
      "  - LoadCoordinate: {name: force, markerNumber: marker1, load: F, loadUserFunction: 'load*sin(k*t)'}\n"
      "  - MarkerNodePosition: {nodeNumber: node0}\n"
      "  - LoadForceVector: {name: spin, markerNumber: marker2, loadVector: [0, 0, 2],\n"
      "      loadVectorUserFunction: [F*cos(w*t), F*sin(w*t), 0]}\n"
      "  - LoadForceVector: {name: spin2, markerNumber: marker2,\n"
      "      loadVectorUserFunction: {expression: 'a*t, 0, loadVector[2]', parameters: {a: 2*m}}}\n");
  const std::string withW = Replace(text, "  F: 80\n", "  F: 80\n  w: 30\n");
  const StudyFile f = ParseStudyText(withW, "s.yaml");
  EXPECT_EQ(std::get<LoadCoordinate>(f.model.Loads()[0]).loadUserFunction.expression, "load*sin(k*t)");
  const auto& spin = std::get<LoadForceVector>(f.model.Loads()[1]);
  EXPECT_EQ(spin.loadVectorUserFunction.expression, "F*cos(w*t), F*sin(w*t), 0");
  EXPECT_EQ(spin.loadVectorUserFunction.parameters, (std::vector<std::pair<std::string, Real>>{{"F", 80}, {"w", 30}}));
  const auto& spin2 = std::get<LoadForceVector>(f.model.Loads()[2]);
  EXPECT_EQ(spin2.loadVectorUserFunction.parameters, (std::vector<std::pair<std::string, Real>>{{"a", 3.2}}));
  const Layout L = f.model.Compile();
  EXPECT_EQ(L.expressions.size(), 7u);  // 1 + 3 + 3 programs
  EXPECT_GE(L.ThetaIndex("spin.loadVectorUserFunction.w"), 0);
  EXPECT_GE(L.ThetaIndex("force.loadUserFunction.k"), 0);

  const std::string two = Replace(withW, "[F*cos(w*t), F*sin(w*t), 0]", "[F*cos(w*t), F*sin(w*t)]");
  EXPECT_EQ(ErrorOf(two), Where(two, "[F*cos(w*t), F*sin(w*t)]") +
                              ": LoadForceVector 'spin': loadVectorUserFunction has 2 entries, expects a list of 3 "
                              "expressions or one text");
  const std::string beside = Replace(withW, "load: F, loadUserFunction", "load: F, timeFunction: 'sin(t)', loadUserFunction");
  EXPECT_NE(ErrorOf(beside).find("LoadCoordinate 'force' (load 0): timeFunction is given beside loadUserFunction"),
            std::string::npos)
      << ErrorOf(beside);
}

// The position connectors' springForceUserFunction: SpringDamper's one text, the Cartesian
// one's list of three (an entry missing is an error that names the item).
TEST(StudyFile, ConnectorUserFunctions) {
  const std::string force = "  - LoadCoordinate: {name: force, markerNumber: marker1, load: F}\n";
  const std::string text = Replace(
      kOscillator, force,
      force + "  - MarkerNodePosition: {nodeNumber: node0}\n"
              "  - MarkerNodePosition: {nodeNumber: node1}\n"
              "  - ObjectConnectorSpringDamper: {name: strut, markerNumbers: [marker3, marker2], referenceLength: 0.5,\n"
              "      stiffness: k, springForceUserFunction: 'stiffness*deltaL*(1 + c*deltaL^2)'}\n"
              "  - ObjectConnectorCartesianSpringDamper: {name: mount, markerNumbers: [marker3, marker2],\n"
              "      offset: [0.5, 0, 0], damping: [0, 0, 3],\n"
              "      springForceUserFunction: ['k*displacement[0]', 0, 'damping[2]*velocity[2]']}\n");
  const std::string withC = Replace(text, "  F: 80\n", "  F: 80\n  c: 100\n");
  const StudyFile f = ParseStudyText(withC, "s.yaml");
  const auto& strut = std::get<ObjectConnectorSpringDamper>(f.model.Objects()[2]);
  EXPECT_EQ(strut.springForceUserFunction.expression, "stiffness*deltaL*(1 + c*deltaL^2)");
  const auto& mount = std::get<ObjectConnectorCartesianSpringDamper>(f.model.Objects()[3]);
  EXPECT_EQ(mount.springForceUserFunction.expression, "k*displacement[0], 0, damping[2]*velocity[2]");
  const Layout L = f.model.Compile();
  EXPECT_EQ(L.expressions.size(), 4u);  // 1 + 3 programs
  EXPECT_GE(L.ThetaIndex("strut.springForceUserFunction.c"), 0);
  EXPECT_GE(L.ThetaIndex("mount.springForceUserFunction.k"), 0);

  const std::string two = Replace(withC, "['k*displacement[0]', 0, 'damping[2]*velocity[2]']", "['k*displacement[0]', 0]");
  EXPECT_EQ(ErrorOf(two), Where(two, "['k*displacement[0]', 0]") +
                              ": ObjectConnectorCartesianSpringDamper 'mount': springForceUserFunction has 2 entries, "
                              "expects a list of 3 expressions or one text");
  const std::string unknown = Replace(withC, "stiffness*deltaL*(1", "k*L*(1");
  EXPECT_NE(ErrorOf(unknown).find("ObjectConnectorSpringDamper 'strut'"), std::string::npos) << ErrorOf(unknown);
  EXPECT_NE(ErrorOf(unknown).find("unknown variable 'L'"), std::string::npos) << ErrorOf(unknown);
}

TEST(StudyFile, HeaderExampleParses) {
  // The example at the top of study_file.h, verbatim.
  const std::string text = R"(parameters:                 # named study parameters with nominal values, in order
  m: 1.6                    #   (used by `simulate` and to check the model as written)
  k: 4000
model:                      # items in insertion order, each `- <ExudynTypeName>: {fields}`
  - NodePoint: {name: node, referenceCoordinates: [0.5, 0, 0], initialVelocities: [1, 0, 0]}
  - NodePointGround: {name: ground}
  - ObjectMassPoint: {name: mass, mass: m, nodeNumber: node}
  - MarkerNodeCoordinate: {name: mg, nodeNumber: ground, coordinate: 0}
  - MarkerNodeCoordinate: {name: mn, nodeNumber: node, coordinate: 0}
  - ObjectConnectorCoordinateSpringDamper: {name: spring, markerNumbers: [mg, mn],
                                            stiffness: k, damping: 0.002*k}
  - LoadCoordinate: {name: force, markerNumber: mn, load: 80,
                     timeFunction: {type: Harmonic, amplitude: 1, angularFrequency: 20}}
  - SensorObject: {name: springForce, objectNumber: spring, outputVariableType: Force}
solver: GeneralizedAlpha    # DynamicSolverType name (default GeneralizedAlpha)
simulationSettings:         # nested exactly as SimulationSettings (Exudyn's names); a key
                            # may also be a dotted path: `timeIntegration.newton.maxIterations: 12`
  timeIntegration: {numberOfSteps: 1000, endTime: 1, generalizedAlpha: {spectralRadius: 1}}
  solutionSettings: {sensorsWritePeriod: 0.005}
  linearSolverType: EXUdense
objectives:                 # ObjectiveSetDescription; `sensor` by name or index
  samplePeriod: 0.005
  weightedSum: false
  list:
    - {name: maxForce, kind: MaxAbs, sensor: springForce, component: 0}
    - {name: error, kind: ErrorExudyn, sensor: springForce, signalFile: ref.csv,
       errorDivisor: 1000, errorMultiplier: 1}
study:                      # see StudySpec
  type: ParameterVariation
  objective: error          # which objective value drives the study (default: the first)
  parameters: {m: [1, 2, 16], k: [2000, 8000, 16]}
)";
  const std::string dir = TempDir("study_file_header");
  WriteFile(dir + "/ref.csv", "time,force\n0,0\n0.5,1\n1,2\n");
  const StudyFile f = ParseStudyText(text, "study.yaml", dir);
  EXPECT_EQ(f.model.Objects().size(), 2u);
  EXPECT_EQ(f.model.Markers().size(), 2u);
  EXPECT_EQ(f.study.type, StudyType::ParameterVariation);
  EXPECT_EQ(f.study.objective, "error");
  EXPECT_EQ(f.study.ParameterNames(), (std::vector<std::string>{"m", "k"}));
  EXPECT_EQ(f.objectives.objectives[0].sensor, 0);
  EXPECT_EQ(f.settings.timeIntegration.numberOfSteps, 1000);
  const Layout L = f.model.Compile();
  EXPECT_EQ(f.model.Theta0()[static_cast<size_t>(L.ThetaIndex("force.timeFunction.angularFrequency"))], 20.0);
}

// ------------------------------------- expressions --------------------------------------

TEST(StudyFile, ExpressionEvaluatedAndRecorded) {
  const StudyFile f = ParseStudyText(kOscillator, "osc.yaml");
  const auto& spring = std::get<ObjectConnectorCoordinateSpringDamper>(f.model.GetObject(ObjectIndex(1)));
  EXPECT_EQ(spring.damping, 8.0);
  EXPECT_EQ(spring.stiffness, 4000.0);
  ASSERT_EQ(f.expressions.size(), 4u);  // mass, stiffness, damping, load
  const FieldExpression* d = nullptr;
  for (const auto& x : f.expressions)
    if (x.path == "spring.damping") d = &x;
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->expression, "0.002*k");
  EXPECT_EQ(d->where.ToString(), Where(kOscillator, "0.002*k", 0, "osc.yaml"));
  const Layout L = f.model.Compile();
  for (const auto& x : f.expressions) EXPECT_GE(L.ThetaIndex(x.path), 0) << x.path;
  EXPECT_EQ(f.model.Theta0()[static_cast<size_t>(L.ThetaIndex("spring.damping"))], 8.0);
}

TEST(StudyFile, StudyRowsReevaluateExpressions) {
  const std::string text = kOscillator + R"(study:
  type: ParameterVariation
  objective: maxDisp
  parameters: {k: [1000, 3000, 3], force.load: [10, 20, 2]}
)";
  const StudyFile f = ParseStudyText(Replace(text, "load: F", "load: 80"), "osc.yaml");
  ASSERT_EQ(f.study.type, StudyType::ParameterVariation);
  EXPECT_EQ(f.study.ParameterNames(), (std::vector<std::string>{"k", "force.load"}));
  const Layout L = f.model.Compile();
  ParameterMap map(L, f.model.Theta0());
  const StudyMapping m = MakeStudyMapping(f, L, map);
  EXPECT_EQ(m.mapParameters, (std::vector<std::string>{"m", "k", "F", "force_load"}));
  EXPECT_EQ(m.nominal, (std::vector<double>{1.6, 4000, 80, 80}));
  EXPECT_EQ(m.studyColumn, (std::vector<int>{1, 3}));
  const ParameterGrid grid(f.study.ranges, f.study.useLogSpace);
  ASSERT_EQ(grid.Size(), 6u);
  std::vector<std::vector<double>> points;
  for (std::uint64_t i = 0; i < grid.Size(); ++i) points.push_back(grid.Point(i));
  const std::vector<double> rows = StudyRows(m, points);
  ASSERT_EQ(rows.size(), 6u * 4u);
  const int iK = L.ThetaIndex("spring.stiffness"), iD = L.ThetaIndex("spring.damping");
  const int iM = L.ThetaIndex("mass.mass"), iF = L.ThetaIndex("force.load");
  std::vector<double> theta(static_cast<size_t>(L.ThetaSize()));
  for (size_t r = 0; r < points.size(); ++r) {
    EXPECT_EQ(map.BuildRow(&rows[r * 4], theta.data()), "");
    EXPECT_EQ(theta[static_cast<size_t>(iK)], points[r][0]);
    EXPECT_EQ(theta[static_cast<size_t>(iD)], 0.002 * points[r][0]);
    EXPECT_EQ(theta[static_cast<size_t>(iM)], 1.6);
    EXPECT_EQ(theta[static_cast<size_t>(iF)], points[r][1]);
  }
  EXPECT_EQ(theta[static_cast<size_t>(iD)], 6.0);  // last point: k = 3000
}

TEST(StudyFile, OverridesAndBuildModelAt) {
  const StudyFile f = ParseStudyText(kOscillator, "osc.yaml");
  const auto v = WithOverrides(f.parameters, {"k=5000", "m = 2"});
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].value, 2.0);
  EXPECT_EQ(v[1].value, 5000.0);
  EXPECT_EQ(v[2].value, 80.0);
  const Model m = BuildModelAt(f, v);
  const Model ref = test::Oscillator(2, 5000, 80);
  EXPECT_EQ(m.Compile().thetaPaths, ref.Compile().thetaPaths);
  auto t = m.Theta0(), tr = ref.Theta0();
  const int iD = ref.Compile().ThetaIndex("spring.damping");
  EXPECT_EQ(t[static_cast<size_t>(iD)], 10.0);
  tr[static_cast<size_t>(iD)] = 10.0;
  EXPECT_EQ(t, tr);
  try {
    WithOverrides(f.parameters, {"kk=1"});
    ADD_FAILURE();
  } catch (const StudyFileError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'k'?"), std::string::npos) << e.what();
  }
  EXPECT_THROW(WithOverrides(f.parameters, {"k"}), StudyFileError);
  EXPECT_THROW(WithOverrides(f.parameters, {"k=abc"}), StudyFileError);
  // A value that breaks a rule names the item and field.
  std::vector<NamedParameter> bad = f.parameters;
  bad[0].value = -1;
  try {
    BuildModelAt(f, bad);
    ADD_FAILURE();
  } catch (const StudyFileError& e) {
    EXPECT_EQ(std::string(e.what()), Where(kOscillator, "m, nodeNumber", 0, "osc.yaml") +
                                         ": ObjectMassPoint 'mass' (object 0): mass = -1 violates UReal (must be >= 0)");
  }
}

TEST(StudyFile, ThetaPathStudyParameterWithIndex) {
  const std::string text = kOscillator + R"(study:
  type: Sampling
  design: lhs
  count: 4
  parameters:
    node0.initialVelocities[0]: [0.5, 1.5]
)";
  const StudyFile f = ParseStudyText(text, "s.yaml");
  EXPECT_EQ(f.study.ParameterNames(), (std::vector<std::string>{"node0.initialVelocities[0]"}));
  const Layout L = f.model.Compile();
  ParameterMap map(L, f.model.Theta0());
  const StudyMapping m = MakeStudyMapping(f, L, map);
  EXPECT_EQ(m.mapParameters.back(), "node0_initialVelocities_0_");
  EXPECT_EQ(m.nominal.back(), 1.0);
  const std::vector<double> rows = StudyRows(m, {{0.75}});
  std::vector<double> theta(static_cast<size_t>(L.ThetaSize()));
  EXPECT_EQ(map.BuildRow(rows.data(), theta.data()), "");
  EXPECT_EQ(theta[static_cast<size_t>(L.ThetaIndex("node0.initialVelocities[0]"))], 0.75);
  EXPECT_EQ(theta[static_cast<size_t>(L.ThetaIndex("spring.damping"))], 8.0);
  EXPECT_THROW(StudyRows(m, {{0.75, 1.0}}), ValidationError);
  // BuildModelAt rejects a name that is not a parameter of the file.
  NamedParameter p;
  p.name = "kk";
  p.value = 1;
  try {
    BuildModelAt(f, {p});
    ADD_FAILURE();
  } catch (const StudyFileError& e) {
    EXPECT_EQ(std::string(e.what()), "s.yaml: 'kk' is not a parameter of the file (m, k, F); did you mean 'k'?");
  }
}

// ------------------------------------- studies ------------------------------------------

TEST(StudyFile, ParameterVariationRanges) {
  const std::string text = kOscillator + R"(study:
  type: ParameterVariation
  useLogSpace: false
  addComputationIndex: true
  chunkSize: 512
  parameters:
    m: [1, 10, 2]
    k: [1.0, 10, 2]
    F: {values: [1, 2.5, 4]}
)";
  const StudyFile f = ParseStudyText(text, "pv.yaml");
  const auto& r = f.study.ranges;
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].kind, ParameterRange::Kind::Tuple);
  EXPECT_TRUE(r[0].begin.isInt);
  EXPECT_TRUE(r[0].end.isInt);
  EXPECT_EQ(r[0].count, 2.0);
  EXPECT_FALSE(r[1].begin.isInt);
  EXPECT_TRUE(r[1].end.isInt);
  EXPECT_EQ(r[2].kind, ParameterRange::Kind::List);
  ASSERT_EQ(r[2].values.size(), 3u);
  EXPECT_TRUE(r[2].values[0].isInt);
  EXPECT_FALSE(r[2].values[1].isInt);
  EXPECT_EQ(r[2].values[1].value, 2.5);
  EXPECT_TRUE(f.study.addComputationIndex);
  EXPECT_EQ(f.study.chunkSize, 512u);
  const ParameterGrid g(r, false);
  EXPECT_TRUE(g.IsIntType(0));   // (1, 10, 2): (10-1+1)/2 integral
  EXPECT_FALSE(g.IsIntType(1));  // 1.0 is a float
  EXPECT_EQ(r[0].ToPythonString(), "(1, 10, 2)");
  EXPECT_EQ(r[1].ToPythonString(), "(1.0, 10, 2)");

  // Errors of a range name its position.
  const std::string bad = Replace(text, "k: [1.0, 10, 2]", "k: [10, 1, 2]");
  EXPECT_EQ(ErrorOf(bad).rfind(Where(bad, "[10, 1, 2]") + ": ", 0), 0u) << ErrorOf(bad);
  const std::string two = Replace(text, "k: [1.0, 10, 2]", "k: [1.0, 10]");
  EXPECT_EQ(ErrorOf(two), Where(two, "[1.0") +
                              ": study.parameters.k expects [begin, end, n] or {values: [...]}, got a list of 2 values");
}

TEST(StudyFile, SamplingStudy) {
  const std::string text = kOscillator + R"(study:
  type: Sampling
  design: sobol
  count: 256
  seed: 7
  scramble: shift
  parameters: {m: [1, 2], k: [2000, 8000]}
)";
  const StudyFile f = ParseStudyText(text, "s.yaml");
  EXPECT_EQ(f.study.type, StudyType::Sampling);
  EXPECT_EQ(f.study.design, "sobol");
  EXPECT_EQ(f.study.count, 256u);
  EXPECT_EQ(f.study.seed, 7u);
  EXPECT_EQ(f.study.scramble, "shift");
  ASSERT_EQ(f.study.bounds.size(), 2u);
  EXPECT_EQ(f.study.bounds[1].name, "k");
  EXPECT_EQ(f.study.bounds[1].lower, 2000.0);
  EXPECT_EQ(f.study.bounds[1].upper, 8000.0);
  EXPECT_EQ(f.study.ParameterNames(), (std::vector<std::string>{"m", "k"}));

  const std::string bad = Replace(text, "scramble: shift", "scramble: owen");
  EXPECT_EQ(ErrorOf(bad), Where(bad, "owen") + ": study.scramble = 'owen' is not one of: none, shift, lms");

  // A csv design takes its points (and, without parameters, its names) from the file.
  const std::string dir = TempDir("study_file_sampling");
  WriteFile(dir + "/design.csv", "m,k\n1.5,3000\n1.7,5000\n");
  const std::string csv = kOscillator + "study: {type: Sampling, design: csv, designFile: design.csv}\n";
  const StudyFile c = ParseStudyText(csv, "s.yaml", dir);
  EXPECT_EQ(c.study.designFile, (std::filesystem::path(dir) / "design.csv").string());
  EXPECT_EQ(c.study.ParameterNames(), (std::vector<std::string>{"m", "k"}));
  EXPECT_EQ(c.study.count, 2u);
}

TEST(StudyFile, GeneticOptimizationOptions) {
  const std::string text = kOscillator + R"(study:
  type: GeneticOptimization
  objective: maxDisp
  parameters: {m: [1, 2], k: [2000, 8000]}
  populationSize: 40
  numberOfGenerations: 5
  elitistRatio: 0.2
  crossoverProbability: 0.1
  crossoverAmount: 0.4
  rangeReductionFactor: 0.6
  distanceFactor: 0.05
  childDistribution: normal
  distanceFactorGenerations: 3
  initialPopulationSize: 80
  randomizerInitialization: 42
  randomStream: numpy
)";
  const StudyFile f = ParseStudyText(text, "ga.yaml");
  const auto& g = f.study.genetic;
  EXPECT_EQ(f.study.type, StudyType::GeneticOptimization);
  EXPECT_EQ(f.study.objective, "maxDisp");
  ASSERT_EQ(f.study.geneticParameters.size(), 2u);
  EXPECT_EQ(f.study.geneticParameters[0].name, "m");
  EXPECT_EQ(f.study.geneticParameters[1].max, 8000.0);
  // Python ints (no '.', no exponent) are kept as such for the results file's ranges line
  EXPECT_TRUE(f.study.geneticParameters[0].minIsInt && f.study.geneticParameters[0].maxIsInt);
  EXPECT_TRUE(f.study.geneticParameters[1].minIsInt && f.study.geneticParameters[1].maxIsInt);
  EXPECT_EQ(g.populationSize, 40);
  EXPECT_EQ(g.numberOfGenerations, 5);
  EXPECT_EQ(g.elitistRatio, 0.2);
  EXPECT_EQ(g.crossoverProbability, 0.1);
  EXPECT_EQ(g.crossoverAmount, 0.4);
  EXPECT_EQ(g.rangeReductionFactor, 0.6);
  EXPECT_EQ(g.distanceFactor, 0.05);
  EXPECT_EQ(g.childDistribution, ChildDistribution::Normal);
  EXPECT_EQ(g.distanceFactorGenerations, 3);
  EXPECT_EQ(g.initialPopulationSize, 80);
  ASSERT_TRUE(g.randomizerInitialization.has_value());
  EXPECT_EQ(*g.randomizerInitialization, 42);
  EXPECT_EQ(f.study.genetic.randomStream, GeneticRandomStream::Numpy);

  const std::string typo = Replace(text, "populationSize: 40", "populationSise: 40");
  EXPECT_EQ(ErrorOf(typo), Where(typo, "populationSise") +
                               ": unknown key 'populationSise' in a GeneticOptimization study; did you mean "
                               "'populationSize'?");
  const std::string range = Replace(text, "k: [2000, 8000]", "k: [8000, 8000]");
  EXPECT_EQ(ErrorOf(range).rfind(Where(range, "[8000, 8000]") + ": ", 0), 0u) << ErrorOf(range);
  const std::string obj = Replace(text, "objective: maxDisp", "objective: maxDsp");
  EXPECT_EQ(ErrorOf(obj), Where(obj, "maxDsp") +
                              ": study: objective = 'maxDsp' is not an objective value (maxDisp, final); did you "
                              "mean 'maxDisp'?");
}

TEST(StudyFile, SensitivityForms) {
  const std::string text = kOscillator + R"(study:
  type: Sensitivity
  scaledByReference: true
  parameters:
    m: 1.6
    k: [4000, 1e-2]
    F: [80, 1e-3, 2]
)";
  const StudyFile f = ParseStudyText(text, "sens.yaml");
  const auto& p = f.study.sensitivityParameters;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].ref, 1.6);
  EXPECT_EQ(p[0].relStep, 1e-3);
  EXPECT_EQ(p[0].n, 0);
  EXPECT_EQ(p[1].ref, 4000.0);
  EXPECT_EQ(p[1].relStep, 1e-2);
  EXPECT_EQ(p[1].n, 0);
  EXPECT_EQ(p[2].relStep, 1e-3);
  EXPECT_EQ(p[2].n, 2);
  EXPECT_TRUE(f.study.sensitivity.scaledByReference);
  const std::string bad = Replace(text, "F: [80, 1e-3, 2]", "F: [80, 1e-3, 2, 4]");
  EXPECT_EQ(ErrorOf(bad), Where(bad, "[80") +
                              ": study.parameters.F expects ref, [ref, relStep] or [ref, relStep, n], got a list");
}

TEST(StudyFile, IdentificationWithMeasuredChannels) {
  const std::string dir = TempDir("study_file_identification");
  WriteFile(dir + "/measured.csv", "time,x,v\n0,0,1\n0.5,0.01,0.2\n1,0.02,0\n");
  const std::string text = kOscillator + R"(study:
  type: Identification
  parameters: {m: [1, 2], k: [2000, 8000]}
  measured:
    - {sensor: sensor0, file: measured.csv, columnName: x, weight: 2}
    - {sensor: 0, component: 0, file: measured.csv, column: 2}
  genetic: {populationSize: 20, numberOfGenerations: 3, randomizerInitialization: 1, randomStream: numpy}
  refinement: {refinement: NelderMead, maxIterations: 50, tolerance: 1e-8, initialStep: 0.1}
)";
  const StudyFile f = ParseStudyText(text, "id.yaml", dir);
  EXPECT_EQ(f.study.type, StudyType::Identification);
  ASSERT_EQ(f.study.measured.size(), 2u);
  EXPECT_EQ(f.study.measured[0].sensor, "sensor0");
  EXPECT_EQ(f.study.measured[0].file, (std::filesystem::path(dir) / "measured.csv").string());
  EXPECT_EQ(f.study.measured[0].columnName, "x");
  EXPECT_EQ(f.study.measured[0].weight, 2.0);
  EXPECT_EQ(f.study.measured[1].sensor, "0");
  EXPECT_EQ(f.study.measured[1].column, 2);
  EXPECT_EQ(f.study.genetic.populationSize, 20);
  EXPECT_EQ(f.study.genetic.numberOfGenerations, 3);
  EXPECT_EQ(f.study.genetic.randomStream, GeneticRandomStream::Numpy);
  EXPECT_EQ(f.study.identification.refinement, "NelderMead");
  EXPECT_EQ(f.study.identification.maxIterations, 50);
  EXPECT_EQ(f.study.identification.tolerance, 1e-8);
  EXPECT_EQ(f.study.identification.initialStep, 0.1);
  EXPECT_EQ(f.study.ParameterNames(), (std::vector<std::string>{"m", "k"}));

  const std::string col = Replace(text, "columnName: x", "columnName: y");
  EXPECT_EQ(ErrorOf(col, dir).rfind(Where(col, "measured.csv") + ": ", 0), 0u) << ErrorOf(col, dir);
  const std::string sensor = Replace(text, "{sensor: sensor0, file", "{sensor: sensr0, file");
  EXPECT_EQ(ErrorOf(sensor, dir), Where(sensor, "sensr0") +
                                      ": study.measured[0].sensor = 'sensr0' is not the name of a sensor; did you "
                                      "mean 'sensor0'?");
}

// ------------------------------------- errors -------------------------------------------

TEST(StudyFileErrors, MalformedYaml) {
  const std::string text = "model:\n  - NodePoint: {referenceCoordinates: [0, 0, 0}\n";
  const std::string e = ErrorOf(text);
  EXPECT_EQ(e.rfind("s.yaml:2:", 0), 0u) << e;
  EXPECT_NE(e.find("malformed YAML"), std::string::npos) << e;
}

TEST(StudyFileErrors, UnknownTopLevelKey) {
  const std::string text = Replace(kOscillator, "simulationSettings:", "simulationSetings:");
  EXPECT_EQ(ErrorOf(text), "s.yaml:15:1: unknown top-level key 'simulationSetings'; did you mean 'simulationSettings'?");
}

TEST(StudyFileErrors, MisspelledField) {
  const std::string text = Replace(kOscillator, "mass: m", "physicsMas: m");
  EXPECT_EQ(ErrorOf(text), Where(text, "physicsMas") +
                               ": unknown field 'physicsMas' of ObjectMassPoint; did you mean 'mass'?");
  const std::string tf = Replace(kOscillator, "load: F}", "load: F, timeFunction: {type: Harmonic, amplitud: 2}}");
  EXPECT_EQ(ErrorOf(tf), Where(tf, "amplitud") +
                             ": unknown parameter 'amplitud' of a Harmonic time function (LoadCoordinate 'force': "
                             "timeFunction); did you mean 'amplitude'?");
  const std::string tt = Replace(kOscillator, "load: F}", "load: F, timeFunction: {type: Harmonik}}");
  EXPECT_EQ(ErrorOf(tt), Where(tt, "Harmonik") +
                             ": LoadCoordinate 'force': timeFunction.type = 'Harmonik' is not one of: Constant, "
                             "Harmonic, Sweep, Ramp, Step, Table, Expression; did you mean 'Harmonic'?");
  // an expression of t: its unknown name and position in the file
  const std::string te = Replace(kOscillator, "load: F}", "load: F, timeFunction: 'sin(omega*t)'}");
  EXPECT_EQ(ErrorOf(te), Where(te, "'sin(omega") +
                             ": LoadCoordinate 'force': timeFunction.expression = 'sin(omega*t)': unknown variable "
                             "'omega' (arguments: t; parameters: none; constants: _pi, _e) at position 4");
}

TEST(StudyFileErrors, UnknownItemType) {
  const std::string text = Replace(kOscillator, "ObjectMassPoint:", "ObjectMasPoint:");
  EXPECT_EQ(ErrorOf(text), "s.yaml:8:5: unknown item type 'ObjectMasPoint'; did you mean 'ObjectMassPoint'?");
}

TEST(StudyFileErrors, UnknownReference) {
  const std::string text = Replace(kOscillator, "markerNumbers: [marker0, marker1]", "markerNumbers: [marker0, markr1]");
  EXPECT_EQ(ErrorOf(text), Where(text, "markr1") +
                               ": ObjectConnectorCoordinateSpringDamper 'spring': markerNumbers[1] = 'markr1' is not "
                               "the name of a marker listed before this item; did you mean 'marker1'?");
  // References are backward only: the spring is listed after the sensor that refers to it.
  const std::string fwd = Replace(kOscillator, "objectNumber: spring", "objectNumber: later");
  EXPECT_NE(ErrorOf(fwd).find("is not the name of an object listed before this item"), std::string::npos);
  // An index out of range is the model's error.
  const std::string idx = Replace(kOscillator, "nodeNumber: node0", "nodeNumber: 5");
  EXPECT_EQ(ErrorOf(idx), Where(idx, "nodeNumber: 5", 12) +
                              ": ObjectMassPoint 'mass' (object 0): nodeNumber = 5 is not a valid NodeIndex (the "
                              "model has 2 nodes)");
  // Names are unique within a category.
  const std::string dup = Replace(kOscillator, "{name: force,", "{name: force,") +
                          "";
  const std::string dupName = Replace(dup, "- NodePointGround: {}", "- NodePointGround: {name: node0}");
  EXPECT_EQ(ErrorOf(dupName), Where(dupName, "node0") +
                                  ": NodePointGround: name 'node0' is already used by node 0 (names must be unique "
                                  "among the nodes)");
}

TEST(StudyFileErrors, RuleViolationHasPosition) {
  const std::string text = Replace(kOscillator, "mass: m", "mass: -1.6");
  EXPECT_EQ(ErrorOf(text), Where(text, "-1.6") +
                               ": ObjectMassPoint 'mass' (object 0): mass = -1.6 violates UReal (must be >= 0)");
  // Through an expression: the parameter's nominal value breaks the rule.
  const std::string param = Replace(kOscillator, "m: 1.6", "m: -2");
  EXPECT_EQ(ErrorOf(param), Where(param, "m, nodeNumber") +
                                ": ObjectMassPoint 'mass' (object 0): mass = -2 violates UReal (must be >= 0)");
}

TEST(StudyFileErrors, ExpressionWithUnknownVariable) {
  const std::string text = Replace(kOscillator, "damping: 0.002*k", "damping: 0.002*kk");
  EXPECT_EQ(ErrorOf(text), Where(text, "kk") +
                               ": ObjectConnectorCoordinateSpringDamper 'spring': damping = '0.002*kk': unknown "
                               "parameter 'kk' (parameters: m, k, F); did you mean 'k'?");
  const std::string quoted = Replace(kOscillator, "damping: 0.002*k", "damping: \"0.002*kk\"");
  EXPECT_EQ(ErrorOf(quoted).rfind(Where(quoted, "kk") + ": ", 0), 0u) << ErrorOf(quoted);
  const std::string syntax = Replace(kOscillator, "damping: 0.002*k", "damping: 0.002*(k");
  EXPECT_EQ(ErrorOf(syntax).rfind("s.yaml:11:", 0), 0u) << ErrorOf(syntax);
}

TEST(StudyFileErrors, WrongValueType) {
  const std::string text = Replace(kOscillator, "mass: m", "mass: [1, 2]");
  EXPECT_EQ(ErrorOf(text), Where(text, "[1, 2]") +
                               ": ObjectMassPoint 'mass': mass expects a number or an expression of the "
                               "parameters, got a list");
  const std::string vec = Replace(kOscillator, "referenceCoordinates: [0.5, 0, 0]", "referenceCoordinates: [0.5, 0]");
  EXPECT_EQ(ErrorOf(vec), Where(vec, "[0.5, 0]") + ": NodePoint 'node0': referenceCoordinates expects 3 values, got 2");
  const std::string flag = Replace(kOscillator, "storeInternal: true", "storeInternal: 3");
  EXPECT_EQ(ErrorOf(flag), Where(flag, "storeInternal: 3", 15) + ": SensorObject 'sensor0': storeInternal expects true or false, got '3'");
  const std::string steps = Replace(kOscillator, "numberOfSteps: 1000", "numberOfSteps: 10.5");
  EXPECT_EQ(ErrorOf(steps), Where(steps, "10.5") +
                                ": simulationSettings.timeIntegration.numberOfSteps expects an integer, got '10.5'");
}

TEST(StudyFileErrors, UnknownSetting) {
  const std::string text = Replace(kOscillator, "numberOfSteps: 1000", "numberOfStep: 1000");
  EXPECT_EQ(ErrorOf(text), Where(text, "numberOfStep") +
                               ": unknown setting 'timeIntegration.numberOfStep' in simulationSettings; did you mean "
                               "'timeIntegration.numberOfSteps'?");
  // A setting at the wrong level is found where it lives.
  const std::string level = Replace(kOscillator, "endTime: 1", "spectralRadius: 0.8");
  EXPECT_EQ(ErrorOf(level), Where(level, "spectralRadius") +
                                ": unknown setting 'timeIntegration.spectralRadius' in simulationSettings; did you "
                                "mean 'timeIntegration.generalizedAlpha.spectralRadius'?");
  const std::string value = Replace(kOscillator, "linearSolverType: EigenDense", "linearSolverType: EigenDence");
  EXPECT_EQ(ErrorOf(value), Where(value, "EigenDence") +
                                ": simulationSettings.linearSolver.solverType = 'EigenDence' is not one of: EXUdense, "
                                "EigenDense, EigenSparse; did you mean 'EigenDense'?");
  const std::string rule = Replace(kOscillator, "spectralRadius: 1", "spectralRadius: 1.5");
  EXPECT_EQ(ErrorOf(rule), Where(rule, "spectralRadius: 1.5", 16) +
                               ": SimulationSettings: timeIntegration.generalizedAlpha.spectralRadius = 1.5 must be "
                               "in [0, 1]");
  const std::string solver = Replace(kOscillator, "solver: GeneralizedAlpha", "solver: RK45");
  EXPECT_EQ(ErrorOf(solver).rfind(Where(solver, "RK45") + ": solver = 'RK45' is not one of: ", 0), 0u)
      << ErrorOf(solver);
}

TEST(StudyFileErrors, ObjectivesAndStudy) {
  const std::string kind = Replace(kOscillator, "kind: MaxAbs", "kind: Maxabs");
  EXPECT_EQ(ErrorOf(kind), Where(kind, "Maxabs") +
                               ": objective 'maxDisp': kind = 'Maxabs' is not one of: FinalValue, Max, Min, MaxAbs, "
                               "Mean, RMS, Integral, ErrorExudyn, RMSError; did you mean 'MaxAbs'?");
  const std::string comp = Replace(kOscillator, "sensor: sensor0}", "sensor: sensor0, component: 3}");
  EXPECT_EQ(ErrorOf(comp).rfind(Where(comp, "component: 3", 11) + ": ", 0), 0u) << ErrorOf(comp);
  const std::string type = kOscillator + "study: {type: ParameterVariaton, parameters: {m: [1, 2, 2]}}\n";
  EXPECT_EQ(ErrorOf(type), Where(type, "ParameterVariaton") +
                               ": study: type = 'ParameterVariaton' is not one of: ParameterVariation, Sampling, "
                               "GeneticOptimization, Sensitivity, Identification; did you mean 'ParameterVariation'?");
  const std::string param = kOscillator + "study: {type: ParameterVariation, parameters: {mm: [1, 2, 2]}}\n";
  const std::string e = ErrorOf(param);
  EXPECT_EQ(e.rfind(Where(param, "{mm", 1) + ": study parameter 'mm' is neither declared", 0), 0u) << e;
  EXPECT_NE(e.find("did you mean the parameter 'm'?"), std::string::npos) << e;
  const std::string conflict = kOscillator + "study: {type: ParameterVariation, parameters: {spring.damping: [1, 2, 2]}}\n";
  const StudyFile f = ParseStudyText(conflict, "s.yaml");
  const Layout L = f.model.Compile();
  ParameterMap map(L, f.model.Theta0());
  try {
    MakeStudyMapping(f, L, map);
    ADD_FAILURE();
  } catch (const StudyFileError& err) {
    EXPECT_EQ(std::string(err.what()), Where(conflict, "0.002*k") +
                                           ": study parameter 'spring.damping' is defined in the model by the "
                                           "expression '0.002*k'; vary the parameters of the expression instead");
  }
}

TEST(StudyFileErrors, SuggestionsForShortNamesAndFarKeys) {
  // the type names of Exudyn's item dicts (mbs.GetObject(i)['objectType'])
  const std::string dictName = Replace(kOscillator, "ObjectConnectorCoordinateSpringDamper:", "ConnectorCoordinateSpringDamper:");
  EXPECT_EQ(ErrorOf(dictName), "s.yaml:11:5: unknown item type 'ConnectorCoordinateSpringDamper'; did you mean "
                               "'ObjectConnectorCoordinateSpringDamper'?");
  const std::string far = Replace(kOscillator, "solver: GeneralizedAlpha", "foo: 1");
  EXPECT_EQ(ErrorOf(far), "s.yaml:14:1: unknown top-level key 'foo'; valid: parameters, model, solver, "
                          "simulationSettings, objectives, study");
  const std::string ga = kOscillator + "study: {type: GeneticOptimization, parameters: {m: [1, 2]}, populationSize: 0}\n";
  EXPECT_EQ(ErrorOf(ga), Where(ga, "populationSize: 0", 16) + ": GeneticOptimization: populationSize = 0 must be >= 1");
  const std::string period = Replace(kOscillator, "samplePeriod: 0.005", "samplePeriod: -1");
  EXPECT_EQ(ErrorOf(period), Where(period, "samplePeriod: -1", 14) +
                                 ": objectives.samplePeriod = -1 violates UReal (must be >= 0)");
  const std::string dotted = Replace(kOscillator, "newton.relativeTolerance: 1e-6", "newton.relativeTolerence: 1e-6");
  EXPECT_EQ(ErrorOf(dotted), Where(dotted, "newton.relativeTolerence") +
                                 ": unknown setting 'timeIntegration.newton.relativeTolerence' in simulationSettings; "
                                 "did you mean 'timeIntegration.newton.relativeTolerance'?");
  const std::string empty = "";
  EXPECT_EQ(ErrorOf(empty), "s.yaml: the file is empty; a 'model:' section is required");
  EXPECT_EQ(ErrorOf("model: {a: 1}\n"), "s.yaml:1:8: model must be a list of items, each '- <ItemType>: {fields}', got a map");
}

}  // namespace
}  // namespace mbsweep
