/// @file simulation.h
/// CPU reference solver front end: one model, one theta row, Exudyn-style solve calls and
/// result access (sensor data, node/object outputs, solver statistics).
#pragma once

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "common/model.h"
#include "common/outputs.h"
#include "common/simulation_settings.h"

namespace mbsweep {

/// Full state of one system.
struct SystemState {
  Real t = 0;
  std::vector<Real> q, v, a;  ///< ODE2 coordinates, velocities, accelerations
  std::vector<Real> y, yt;    ///< ODE1 coordinates and derivatives
  std::vector<Real> lambda;   ///< algebraic variables
  StateView View() const {
    return StateView{t, q.data(), v.data(), a.data(), y.data(), yt.data(), lambda.data()};
  }
};

/// Counters of one solve.
struct SolverStatistics {
  int steps = 0;              ///< accepted time (or load) steps
  int rejectedSteps = 0;      ///< rejected steps (error control or Newton failure)
  int newtonIterations = 0;   ///< total Newton iterations
  int jacobianUpdates = 0;    ///< Jacobian computations (and factorizations)
  int rhsEvaluations = 0;     ///< evaluations of the system right-hand side
};

/// Thrown when a solve fails at run time (Newton failure, singular matrix, step too small).
/// The message names the time, step size and residual, or the items involved.
class SolverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Writes sensors at Exudyn's write period into internal storage and files.
class SensorRecorder {
 public:
  SensorRecorder(const Model& model, const Layout& layout, const SimulationSettings& settings,
                 const std::string& solverDescription);
  ~SensorRecorder();
  /// Records the initial state (always written).
  void Start(const LayoutView& L, const Real* theta, const SystemState& s);
  /// Records after an accepted step if the write period is due, or if final.
  void Step(const LayoutView& L, const Real* theta, const SystemState& s, bool final);
  /// Closes the sensor files, checked (IoError naming the file and the reason); a recorder
  /// destroyed without Close (a solver error on its way) closes them unchecked.
  void Close();
  /// True if Step at time t will record (the write period is due, or final).
  bool Due(Real t, bool final) const { return schedule_.Due(t, final); }
  /// Stored rows [t, values...] per sensor (storeInternal sensors only).
  std::vector<std::vector<std::vector<Real>>> stored;
  /// Last recorded values per sensor.
  std::vector<std::vector<Real>> last;

 private:
  void Record(const LayoutView& L, const Real* theta, const SystemState& s);
  struct Sink;
  std::vector<std::unique_ptr<Sink>> sinks_;
  WriteSchedule schedule_;
  int precision_ = 10;
};

/// A model ready to simulate on the CPU with the reference solvers.
class Simulation {
 public:
  /// Compiles the model (throws ValidationError for invalid models).
  explicit Simulation(const Model& model);

  /// Runs a dynamic simulation from the initial values in theta; throws SolverError on
  /// failure and ValidationError for invalid settings.
  void SolveDynamic(const SimulationSettings& settings,
                    DynamicSolverType solverType = DynamicSolverType::GeneralizedAlpha);
  /// Static equilibrium with load steps; throws SolverError on failure.
  void SolveStatic(const SimulationSettings& settings);

  const Layout& GetLayout() const { return layout_; }
  const Model& GetModel() const { return model_; }
  /// The theta row used by the next solve (every Real parameter of the model).
  std::vector<Real>& Theta() { return theta_; }
  /// Sets one parameter by its theta path, e.g. "spring.stiffness".
  void SetParameter(const std::string& path, Real value) { theta_.at(static_cast<size_t>(layout_.ThetaIndex(path))) = value; }

  /// State at the end of the last solve (the initial state before any solve).
  const SystemState& State() const { return state_; }
  const SolverStatistics& Statistics() const { return stats_; }

  /// Rows [t, values...] stored for a sensor with storeInternal = true.
  const std::vector<std::vector<Real>>& GetSensorStoredData(SensorIndex s) const;
  /// Last values written by a sensor.
  const std::vector<Real>& GetSensorValues(SensorIndex s) const;

  /// Outputs of the current state (like Exudyn's GetNodeOutput / GetObjectOutput...).
  std::vector<Real> GetNodeOutput(NodeIndex n, OutputVariableType t) const;
  std::vector<Real> GetObjectOutput(ObjectIndex o, OutputVariableType t) const;
  std::vector<Real> GetObjectOutputBody(ObjectIndex o, OutputVariableType t, const Vector3D& localPosition = {}) const;

  /// Initial state from theta (initial coordinates and velocities; a = 0).
  SystemState InitialState() const;

 private:
  std::vector<Real> EvalOutput(SensorKind kind, int target, OutputVariableType t, const Vector3D& lp) const;
  Model model_;
  Layout layout_;
  std::vector<Real> theta_;
  SystemState state_;
  SolverStatistics stats_;
  std::vector<std::vector<std::vector<Real>>> stored_;
  std::vector<std::vector<Real>> last_;
};

// Solver entry points (one system, theta row given); used by Simulation.
void SolveExplicit(const Layout& layout, const Real* theta, const SimulationSettings& settings, DynamicSolverType type,
                   SystemState& state, SolverStatistics& stats, SensorRecorder* recorder);
void SolveImplicit(const Layout& layout, const Real* theta, const SimulationSettings& settings, DynamicSolverType type,
                   SystemState& state, SolverStatistics& stats, SensorRecorder* recorder);
/// Throws ValidationError naming the constraints if C_q has dependent rows at state s.
void CheckRedundantConstraints(const Layout& layout, const Real* theta, const SystemState& s);
void SolveStaticSystem(const LayoutView& L, const Real* theta, const SimulationSettings& settings, SystemState& state,
                       SolverStatistics& stats, SensorRecorder* recorder);

}  // namespace mbsweep
