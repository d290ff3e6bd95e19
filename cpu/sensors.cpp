// Sensor recording (Exudyn's write-period rule, internal storage, sensor files) and the
// Simulation front end.
#include <chrono>
#include <cstdio>
#include <ctime>

#include "common/expression_compiler.h"
#include "common/output_file.h"
#include "common/rules.h"
#include "common/system_runner.h"
#include "cpu/simulation.h"

namespace mbsweep {

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
  SolveStaticSystem(MuParserLayoutView(layout_).view, theta_.data(), settings, state_, stats_, &rec);
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
