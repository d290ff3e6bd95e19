// Sensor recording (Exudyn's write-period rule, internal storage, sensor files) and the
// Simulation front end.
#include <chrono>
#include <cstdio>
#include <ctime>

#include "common/output_file.h"
#include "common/rules.h"
#include "common/system_runner.h"
#include "cpu/simulation.h"

namespace mbsweep {

// --------------------------------------------------------------------------------------
// settings
// --------------------------------------------------------------------------------------
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
  for (int i = 0; i < 10; ++i) {
    if (name == kSolverNames[i]) return static_cast<DynamicSolverType>(i);
    all += std::string(i ? ", " : "") + kSolverNames[i];
  }
  throw ValidationError("unknown DynamicSolverType '" + name + "'; valid: " + all);
}

void ValidateSettings(const SimulationSettings& s, bool staticSolve) {
  if (!s.solutionSettings.coordinatesSolutionFileName.empty())
    throw ValidationError("SimulationSettings: solutionSettings.coordinatesSolutionFileName = '" +
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
  Check("solutionSettings.sensorsWritePeriod", s.solutionSettings.sensorsWritePeriod, Rule::UReal);
  Check("solutionSettings.outputPrecision", s.solutionSettings.outputPrecision, Rule::PInt);
}

// --------------------------------------------------------------------------------------
// SensorRecorder
// --------------------------------------------------------------------------------------
struct SensorRecorder::Sink {
  bool storeInternal = false;
  OutputFile file;
};

SensorRecorder::SensorRecorder(const Model& model, const Layout& layout, const SimulationSettings& settings,
                               const std::string& solverDescription) {
  schedule_.period = settings.solutionSettings.sensorsWritePeriod;
  precision_ = settings.solutionSettings.outputPrecision;
  const auto& sensors = model.Sensors();
  stored.resize(sensors.size());
  last.resize(sensors.size());
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%d,%H:%M:%S", std::localtime(&now));
  for (size_t i = 0; i < sensors.size(); ++i) {
    auto sink = std::make_unique<Sink>();
    std::visit(
        [&](const auto& s) {
          sink->storeInternal = s.storeInternal;
          if (!s.writeToFile || s.fileName.empty()) return;
          sink->file = OutputFile::Create(s.fileName, "sensor '" + layout.sensorNames[i] + "' (sensor " +
                                                          std::to_string(i) + "): fileName");
          const SensorKind kind = KindOf(SensorItem(s));
          const int target = static_cast<int>(layout.ints[static_cast<size_t>(layout.sensors[i].ints)]);
          OutputFile& f = sink->file;
          f.Printf("#mbsweep %s sensor output file\n", solverDescription.c_str());
          f.Printf("#measure %s number = %d\n", KindName(kind), target);
          if (kind != SensorKind::Load)
            f.Printf("#OutputVariableType = %s\n", OutputVariableTypeName(static_cast<OutputVariableType>(
                                                        layout.ints[static_cast<size_t>(layout.sensors[i].ints + 1)])));
          f.Printf("#simulation started = %s\n", date);
          f.Write("#columns contain: time, comma separated sensor values (e.g, x,y,z position coordinates)\n");
        },
        sensors[i]);
    sinks_.push_back(std::move(sink));
  }
}

SensorRecorder::~SensorRecorder() = default;

void SensorRecorder::Close() {
  for (auto& s : sinks_) s->file.Close();
}

void SensorRecorder::Record(const LayoutView& L, const Real* theta, const SystemState& s) {
  Real buf[kMaxSensorValues];
  const StateView sv = s.View();
  for (int i = 0; i < L.nSensors; ++i) {
    int n = SensorOutput(L, theta, sv, i, buf, kMaxSensorValues);
    std::vector<Real> vals(buf, buf + std::min(n, kMaxSensorValues));
    if (n > kMaxSensorValues) {  // large generic objects: evaluate into a heap buffer
      vals.resize(static_cast<size_t>(n));
      SensorOutput(L, theta, sv, i, vals.data(), n);
    }
    Sink& sink = *sinks_[static_cast<size_t>(i)];
    if (sink.file.IsOpen()) {
      if (last[static_cast<size_t>(i)].empty())  // first row: finish the header with the value count
        sink.file.Printf("#number of sensor values = %d\n#mbsweep version = 0.1.0\n#\n", n);
      sink.file.Printf("%.*g", precision_, s.t);
      for (Real x : vals) sink.file.Printf(",%.*g", precision_, x);
      sink.file.Write("\n");
    }
    if (sink.storeInternal) {
      std::vector<Real> row;
      row.reserve(vals.size() + 1);
      row.push_back(s.t);
      row.insert(row.end(), vals.begin(), vals.end());
      stored[static_cast<size_t>(i)].push_back(std::move(row));
    }
    last[static_cast<size_t>(i)] = std::move(vals);
  }
}

void SensorRecorder::Start(const LayoutView& L, const Real* theta, const SystemState& s) {
  for (auto& v : stored) v.clear();
  for (auto& v : last) v.clear();
  Record(L, theta, s);
  schedule_.Start(s.t);
}

void SensorRecorder::Step(const LayoutView& L, const Real* theta, const SystemState& s, bool final) {
  if (schedule_.Due(s.t, final)) {
    Record(L, theta, s);
    schedule_.Advance(s.t);
  }
}

// --------------------------------------------------------------------------------------
// Simulation
// --------------------------------------------------------------------------------------
Simulation::Simulation(const Model& model) : model_(model), layout_(model.Compile()), theta_(model.Theta0()) {
  state_ = InitialState();
  stored_.resize(model.Sensors().size());
  last_.resize(model.Sensors().size());
}

SystemState Simulation::InitialState() const {
  SystemState s;
  const LayoutView L = layout_.View();
  s.t = 0;
  s.q.assign(static_cast<size_t>(L.nODE2), 0.);
  s.v.assign(static_cast<size_t>(L.nODE2), 0.);
  s.a.assign(static_cast<size_t>(L.nODE2), 0.);
  s.y.assign(static_cast<size_t>(L.nODE1), 0.);
  s.yt.assign(static_cast<size_t>(L.nODE1), 0.);
  s.lambda.assign(static_cast<size_t>(L.nAE), 0.);
  InitialStateFromTheta(L, theta_.data(), s.q.data(), s.v.data(), s.y.data());
  return s;
}

void Simulation::SolveDynamic(const SimulationSettings& settings, DynamicSolverType solverType) {
  ValidateSettings(settings, false);
  state_ = InitialState();
  state_.t = settings.timeIntegration.startTime;
  stats_ = SolverStatistics{};
  const bool implicit = solverType == DynamicSolverType::GeneralizedAlpha || solverType == DynamicSolverType::TrapezoidalIndex2;
  SensorRecorder rec(model_, layout_, settings, implicit ? "implicit second order time integration" : "explicit time integration");
  if (implicit) SolveImplicit(layout_, theta_.data(), settings, solverType, state_, stats_, &rec);
  else SolveExplicit(layout_, theta_.data(), settings, solverType, state_, stats_, &rec);
  rec.Close();
  stored_ = std::move(rec.stored);
  last_ = std::move(rec.last);
}

void Simulation::SolveStatic(const SimulationSettings& settings) {
  ValidateSettings(settings, true);
  state_ = InitialState();
  stats_ = SolverStatistics{};
  CheckRedundantConstraints(layout_, theta_.data(), state_);
  SensorRecorder rec(model_, layout_, settings, "static solver");
  SolveStaticSystem(layout_.View(), theta_.data(), settings, state_, stats_, &rec);
  rec.Close();
  stored_ = std::move(rec.stored);
  last_ = std::move(rec.last);
}

const std::vector<std::vector<Real>>& Simulation::GetSensorStoredData(SensorIndex s) const {
  return stored_.at(static_cast<size_t>(s.value));
}
const std::vector<Real>& Simulation::GetSensorValues(SensorIndex s) const { return last_.at(static_cast<size_t>(s.value)); }

std::vector<Real> Simulation::EvalOutput(SensorKind kind, int target, OutputVariableType t, const Vector3D& lp) const {
  // evaluate through a temporary sensor record appended to a copy of the structure
  std::vector<ItemRec> sensors = layout_.sensors;
  std::vector<int> ints = layout_.ints;
  std::vector<Real> theta = theta_;
  sensors.push_back(ItemRec{static_cast<int>(kind), static_cast<int>(ints.size()), static_cast<int>(theta.size())});
  ints.insert(ints.end(), {target, static_cast<int>(t)});
  theta.insert(theta.end(), lp.begin(), lp.end());
  LayoutView L = layout_.View();
  L.sensor = sensors.data();
  L.nSensors = static_cast<int>(sensors.size());
  L.ints = ints.data();
  std::vector<Real> out(kMaxSensorValues);
  const int n = SensorOutput(L, theta.data(), state_.View(), L.nSensors - 1, out.data(), kMaxSensorValues);
  if (n == 0)
    throw ValidationError(std::string("OutputVariableType ") + OutputVariableTypeName(t) +
                          " cannot be computed for this item");
  if (n > kMaxSensorValues) {
    out.resize(static_cast<size_t>(n));
    SensorOutput(L, theta.data(), state_.View(), L.nSensors - 1, out.data(), n);
  }
  out.resize(static_cast<size_t>(n));
  return out;
}

std::vector<Real> Simulation::GetNodeOutput(NodeIndex n, OutputVariableType t) const {
  return EvalOutput(SensorKind::Node, n.value, t, {});
}
std::vector<Real> Simulation::GetObjectOutput(ObjectIndex o, OutputVariableType t) const {
  return EvalOutput(SensorKind::Object, o.value, t, {});
}
std::vector<Real> Simulation::GetObjectOutputBody(ObjectIndex o, OutputVariableType t, const Vector3D& lp) const {
  return EvalOutput(SensorKind::Body, o.value, t, lp);
}

}  // namespace mbsweep
