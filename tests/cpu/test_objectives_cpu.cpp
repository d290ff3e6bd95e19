// Objectives on real simulations: the ObjectiveObserver attached to the generalized-alpha
// integrator against the same reductions computed from the sensor series that Simulation
// stores, and ErrorExudyn against the values Exudyn's processing examples report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "common/batch.h"
#include "common/generalized_alpha.h"
#include "common/integrator_parameters.h"
#include "common/objectives.h"
#include "common/objectives_host.h"
#include "common/system_runner.h"
#include "cpu/linear_algebra.h"
#include "cpu/simulation.h"

namespace mbsweep {

// Defined in cpu/solver_implicit.cpp (the settings mapping SolveDynamic uses).

namespace {

/// The oscillator of Exudyn's parameterVariationExample / geneticOptimizationTest: NodePoint
/// (reference [0.5,0,0], u0 = -0.08, v0 = 1), MassPoint, CoordinateSpringDamper to ground
/// (damping 8), LoadCoordinate. Sensors (stored internally): 0 spring Displacement,
/// 1 spring Force, 2 node Position. `refFile`: the Displacement sensor also writes this file.
Model ExudynOscillator(double mass, double spring, double force, const std::string& refFile = "") {
  Model m;
  NodePoint np;
  np.referenceCoordinates = {0.5, 0, 0};
  np.initialCoordinates = {-0.08, 0, 0};
  np.initialVelocities = {1, 0, 0};
  const NodeIndex n1 = m.AddNode(np);
  NodePointGround g;
  const NodeIndex ng = m.AddNode(g);
  ObjectMassPoint mp;
  mp.mass = mass;
  mp.nodeNumber = n1;
  m.AddObject(mp);
  MarkerNodeCoordinate mg, mn;
  mg.nodeNumber = ng;
  mn.nodeNumber = n1;
  const MarkerIndex groundMarker = m.AddMarker(mg), nodeMarker = m.AddMarker(mn);
  ObjectConnectorCoordinateSpringDamper sd;
  sd.markerNumbers = {groundMarker, nodeMarker};
  sd.stiffness = spring;
  sd.damping = 8;
  const ObjectIndex nC = m.AddObject(sd);
  LoadCoordinate lc;
  lc.markerNumber = nodeMarker;
  lc.load = force;
  m.AddLoad(lc);
  SensorObject sDisp;
  sDisp.objectNumber = nC;
  sDisp.outputVariableType = OutputVariableType::Displacement;
  sDisp.storeInternal = true;
  sDisp.fileName = refFile;
  sDisp.writeToFile = !refFile.empty();
  m.AddSensor(sDisp);
  SensorObject sForce = sDisp;
  sForce.outputVariableType = OutputVariableType::Force;
  sForce.fileName.clear();
  sForce.writeToFile = false;
  m.AddSensor(sForce);
  SensorNode sPos;
  sPos.nodeNumber = n1;
  sPos.outputVariableType = OutputVariableType::Position;
  sPos.storeInternal = true;
  sPos.writeToFile = false;
  m.AddSensor(sPos);
  return m;
}

SimulationSettings Settings(int steps, double tEnd, double period) {
  SimulationSettings s;
  s.timeIntegration.numberOfSteps = steps;
  s.timeIntegration.endTime = tEnd;
  s.timeIntegration.generalizedAlpha.spectralRadius = 1;
  s.solutionSettings.sensorsWritePeriod = period;
  return s;
}

/// Runs the generalized-alpha integrator on the simulation's model and theta with `obs`
/// attached (as cpu/solver_implicit.cpp does, Eigen dense LU).
template <class Obs>
SolveInfo RunWithObserver(Simulation& sim, const SimulationSettings& settings, Obs& obs) {
  const LayoutView L = sim.GetLayout().View();
  const SystemState s0 = sim.InitialState();
  const int N = L.nODE2 + L.nODE1 + L.nAE;
  std::vector<Real> buf(static_cast<size_t>(GeneralizedAlphaWorkSize(L)) + 1, 0.);
  GeneralizedAlphaWork w;
  MakeGeneralizedAlphaWork(L, buf.data(), w);
  std::copy(s0.q.begin(), s0.q.end(), w.q);
  std::copy(s0.v.begin(), s0.v.end(), w.v);
  std::copy(s0.y.begin(), s0.y.end(), w.y);
  EigenDenseLA la;
  la.Resize(N);
  const GeneralizedAlphaParameters P = ToGeneralizedAlphaParameters(settings, DynamicSolverType::GeneralizedAlpha);
  GeneralizedAlpha<EigenDenseLA, Obs> ga(L, sim.Theta().data(), P, w, la, obs);
  return ga.Run();
}

/// Reductions of column `c` of stored sensor rows [t, values...], written out plainly.
struct Reference {
  double final = 0, max = -INFINITY, min = INFINITY, maxAbs = 0, mean = 0, rms = 0, integral = 0;
};
Reference Reduce(const std::vector<std::vector<double>>& rows, size_t c) {
  Reference r;
  for (size_t k = 0; k < rows.size(); ++k) {
    const double v = rows[k][c];
    r.max = std::max(r.max, v);
    r.min = std::min(r.min, v);
    r.maxAbs = std::max(r.maxAbs, std::abs(v));
    r.mean += v / static_cast<double>(rows.size());
    r.rms += v * v;
    if (k > 0) r.integral += (rows[k][0] - rows[k - 1][0]) * (v + rows[k - 1][c]) / 2;
  }
  r.final = rows.back()[c];
  r.rms = std::sqrt(r.rms / static_cast<double>(rows.size()));
  return r;
}

/// Records the times at which the integrator called the inner observer.
struct TimeRecorder {
  std::vector<double> starts, steps;
  void OnStart(const StateView& s) { starts.push_back(s.t); }
  void OnStep(const StateView& s, bool) { steps.push_back(s.t); }
};

// The observer samples exactly the rows Simulation stores (same write-period rule, same
// integration) and reduces them like the plain formulas; a write period that is not a
// multiple of the step size exercises the rule.
TEST(ObjectivesCpu, ObserverMatchesStoredSensorSeries) {
  for (const double period : {0.0, 0.0123, 0.05}) {
    SCOPED_TRACE("period " + std::to_string(period));
    const SimulationSettings settings = Settings(200, 1, period);
    Simulation sim(ExudynOscillator(1.6, 4000, 80));
    sim.SolveDynamic(settings);
    const auto& force = sim.GetSensorStoredData(SensorIndex(1));
    const auto& pos = sim.GetSensorStoredData(SensorIndex(2));

    ObjectiveSetDescription d;
    d.samplePeriod = period;
    d.weightedSum = true;
    const char* kinds[] = {"FinalValue", "Max", "Min", "MaxAbs", "Mean", "RMS", "Integral"};
    for (int sensor : {1, 2})
      for (const char* k : kinds) {
        ObjectiveDescription o;
        o.kind = k;
        o.sensor = sensor;
        o.component = 0;
        o.weight = sensor == 1 ? 0.001 : 1;
        if (d.objectives.size() < static_cast<size_t>(kMaxObjectives)) d.objectives.push_back(o);
      }
    // 8 objectives: the 7 kinds on the spring force, then FinalValue of the node x position
    ASSERT_EQ(d.objectives.size(), 8u);
    const CompiledObjectives co = BuildObjectives(d, sim.GetLayout(), sim.Theta());

    TimeRecorder inner;
    ObjectiveObserver<TimeRecorder> obs(sim.GetLayout().View(), sim.Theta().data(), co.set, co.Signal(), &inner);
    const SolveInfo info = RunWithObserver(sim, settings, obs);
    ASSERT_EQ(info.status, SolveStatus::ok);
    EXPECT_EQ(inner.starts.size(), 1u);
    EXPECT_EQ(inner.steps.size(), 200u);
    EXPECT_EQ(obs.samples, static_cast<int>(force.size()));

    double out[kMaxObjectives + 1];
    ASSERT_EQ(obs.Finalize(out), 9);
    const Reference r = Reduce(force, 1);
    const double want[] = {r.final, r.max, r.min, r.maxAbs, r.mean, r.rms, r.integral, pos.back()[1]};
    double sum = 0;
    for (int i = 0; i < 8; ++i) {
      EXPECT_NEAR(out[i], want[i], 1e-12 * (1 + std::abs(want[i]))) << co.valueNames[static_cast<size_t>(i)];
      sum += co.set.objective[i].weight * want[i];
    }
    EXPECT_NEAR(out[8], sum, 1e-12 * (1 + std::abs(sum)));
    // sanity: the force oscillates around the static force -80 (load 80 against the spring)
    EXPECT_LT(r.min, -80);
    EXPECT_GT(r.max, -80);
  }
}

// Exudyn's geneticOptimizationTest: displacement sensor written every 2e-3 s with 100 steps
// (one sample per step, 101 samples), error against the nominal run = sqrt(sum diff^2)/100.
// The reference is read, like in Exudyn, from the nominal run's sensor file (10 digits).
// ParameterVariation with mass (1,10,2), spring (100,10000,3) in log space gives v[3]
// (mass 10, spring 100) = 0.09814894553165972 (Exudyn 1.11; 0.09814894553377107 in 2020).
TEST(ObjectivesCpu, ErrorExudynGeneticOptimizationTest) {
  const std::string refFile = ::testing::TempDir() + "mbsweep_objectives/paramVarDisplacementRef.txt";
  const SimulationSettings settings = Settings(100, 1, 2e-3);
  Simulation ref(ExudynOscillator(1.6, 4000, 80, refFile));
  ref.SolveDynamic(settings);
  ASSERT_EQ(ref.GetSensorStoredData(SensorIndex(0)).size(), 101u);

  ObjectiveSetDescription d;
  d.samplePeriod = 2e-3;
  ObjectiveDescription o;
  o.name = "errorNorm";
  o.kind = "ErrorExudyn";
  o.sensor = 0;
  o.signalFile = refFile;
  o.errorDivisor = 100;  // steps
  o.errorMultiplier = 1;  // tEnd
  d.objectives.push_back(o);
  o.name = "rmsError";
  o.kind = "RMSError";
  d.objectives.push_back(o);

  Simulation sim(ExudynOscillator(10, 100, 80));
  const CompiledObjectives co = BuildObjectives(d, sim.GetLayout(), sim.Theta());
  ObjectiveObserver<> obs(sim.GetLayout().View(), sim.Theta().data(), co.set, co.Signal());
  ASSERT_EQ(RunWithObserver(sim, settings, obs).status, SolveStatus::ok);
  double out[2];
  obs.Finalize(out);
  EXPECT_NEAR(out[0], 0.09814894553165972, 1e-12);  // measured: 3e-14 (10-digit reference file)

  // the same from the two stored series, row by row (numpy's formula)
  sim.SolveDynamic(settings);
  const auto& a = sim.GetSensorStoredData(SensorIndex(0));
  const auto& b = ref.GetSensorStoredData(SensorIndex(0));
  ASSERT_EQ(a.size(), b.size());
  double s = 0;
  for (size_t k = 0; k < a.size(); ++k) s += (a[k][1] - b[k][1]) * (a[k][1] - b[k][1]);
  EXPECT_NEAR(std::sqrt(s) / 100, 0.09814894553165972, 1e-15);  // full precision: Exudyn's digits
  EXPECT_NEAR(out[0], std::sqrt(s) / 100, 1e-12);  // differs only by the 10-digit reference file
  EXPECT_NEAR(out[1], std::sqrt(s / 101), 1e-10);
}

// Exudyn's parameterVariationExample: spring force written every 5e-3 s with 1000 steps
// (201 samples), error = sqrt(sum diff^2)/1000*1 against the nominal run. Exudyn reports
// values[-1] (mass 2, spring 8000) = 3.8418270115351496 and values2[-1] (mass 1.7,
// spring 5000) = 1.8943208246113492 (reference and results from 10-digit sensor files).
TEST(ObjectivesCpu, ErrorExudynParameterVariationExample) {
  const SimulationSettings settings = Settings(1000, 1, 5e-3);
  Simulation ref(ExudynOscillator(1.6, 4000, 80));
  ref.SolveDynamic(settings);
  const auto& rows = ref.GetSensorStoredData(SensorIndex(1));
  ASSERT_EQ(rows.size(), 201u);
  ObjectiveSetDescription d;
  d.samplePeriod = 5e-3;
  ObjectiveDescription o;
  o.kind = "ErrorExudyn";
  o.sensor = 1;
  o.errorDivisor = 1000;
  o.errorMultiplier = 1;
  for (const auto& r : rows) {
    o.signalTimes.push_back(r[0]);
    o.signalValues.push_back(r[1]);
  }
  d.objectives.push_back(o);
  const struct {
    double mass, spring, exudyn;
  } cases[] = {{2, 8000, 3.8418270115351496}, {1.7, 5000, 1.8943208246113492}};
  for (const auto& c : cases) {
    Simulation sim(ExudynOscillator(c.mass, c.spring, 80));
    const CompiledObjectives co = BuildObjectives(d, sim.GetLayout(), sim.Theta());
    ObjectiveObserver<> obs(sim.GetLayout().View(), sim.Theta().data(), co.set, co.Signal());
    ASSERT_EQ(RunWithObserver(sim, settings, obs).status, SolveStatus::ok);
    EXPECT_EQ(obs.samples, 201);
    double out[1];
    obs.Finalize(out);
    // measured: 1.3e-11 and 2.3e-12 (Exudyn compared 10-digit sensor files)
    EXPECT_NEAR(out[0], c.exudyn, 1e-10) << "mass " << c.mass << ", spring " << c.spring;
  }
}

}  // namespace
}  // namespace mbsweep
