// The host/device explicit integrators of common/explicit_rk.h run directly with a small
// fixed-capacity LU (as the batch path will) and no recorder, compared bit for bit with the
// CPU reference wrapper (Eigen LU, sensors); tableau consistency; failure statuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <cstring>
#include <string>
#include <vector>

#include "common/explicit_rk.h"
#include "common/integrator_parameters.h"
#include "cpu/simulation.h"
#include "tests/cpu/test_util.h"

namespace mbsweep {
namespace {

// Tableaux are compile-time data (usable in device code and constant expressions).
static_assert(ExplicitTableauOf(DynamicSolverType::DOPRI5).stages == 7, "DOPRI5 has 7 stages");
static_assert(ExplicitTableauOf(DynamicSolverType::ODE23).errorOrder == 3, "ODE23 is embedded");
static_assert(ExplicitTableauOf(DynamicSolverType::RK44).errorOrder == 0, "RK44 is fixed-step");
static_assert(ExplicitTableauOf(DynamicSolverType::VelocityVerlet).stages == 0, "not a Runge-Kutta method");

/// Dense LU with partial pivoting of capacity Cap (no allocation), like the batch path's.
template <int Cap>
struct FixedLA {
  int n = 0;
  Real A[Cap][Cap] = {}, LU[Cap][Cap] = {};
  int piv[Cap] = {};
  void SetZero() {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A[i][j] = 0;
  }
  void add(int i, int j, Real v) { A[i][j] += v; }
  bool Factorize() {
    for (int i = 0; i < n; ++i) {
      piv[i] = i;
      for (int j = 0; j < n; ++j) LU[i][j] = A[i][j];
    }
    for (int k = 0; k < n; ++k) {
      int p = k;
      for (int i = k + 1; i < n; ++i)
        if (std::fabs(LU[i][k]) > std::fabs(LU[p][k])) p = i;
      if (!(std::fabs(LU[p][k]) > 0)) return false;
      if (p != k) {
        for (int j = 0; j < n; ++j) std::swap(LU[p][j], LU[k][j]);
        std::swap(piv[p], piv[k]);
      }
      for (int i = k + 1; i < n; ++i) {
        LU[i][k] /= LU[k][k];
        for (int j = k + 1; j < n; ++j) LU[i][j] -= LU[i][k] * LU[k][j];
      }
    }
    return true;
  }
  void Solve(const Real* b, Real* x) const {
    Real y[Cap];
    for (int i = 0; i < n; ++i) {
      Real s = b[piv[i]];
      for (int j = 0; j < i; ++j) s -= LU[i][j] * y[j];
      y[i] = s;
    }
    for (int i = n - 1; i >= 0; --i) {
      Real s = y[i];
      for (int j = i + 1; j < n; ++j) s -= LU[i][j] * x[j];
      x[i] = s / LU[i][i];
    }
  }
};

/// Observer keeping (t, x, a_x) of every reported state.
struct TraceObserver {
  std::vector<std::array<Real, 3>> rows;
  int finals = 0;
  void OnStart(const StateView& s) { rows.push_back({s.t, s.q[0], s.a[0]}); }
  void OnStep(const StateView& s, bool final) {
    rows.push_back({s.t, s.q[0], s.a[0]});
    finals += final ? 1 : 0;
  }
};

bool SameBits(Real a, Real b) { return std::memcmp(&a, &b, sizeof(Real)) == 0; }

struct DirectRun {
  SolveInfo info;
  std::vector<Real> Y, a;
  TraceObserver obs;
};

DirectRun RunDirect(Simulation& sim, const ExplicitParameters& P) {
  const LayoutView L = sim.GetLayout().View();
  const SystemState s0 = sim.InitialState();
  const int n2 = L.nODE2, n1 = L.nODE1;
  std::vector<Real> buf(static_cast<size_t>(ExplicitWorkSize(P.solverType, n2, n1)), 0.);
  ExplicitWork w = MakeExplicitWork(P.solverType, n2, n1, buf.data());
  std::copy(s0.q.begin(), s0.q.end(), w.Y);
  std::copy(s0.v.begin(), s0.v.end(), w.Y + n2);
  std::copy(s0.y.begin(), s0.y.end(), w.Y + 2 * n2);
  FixedLA<4> la;
  la.n = n2;
  DirectRun r;
  ExplicitIntegrator<FixedLA<4>, TraceObserver> integrator(L, sim.Theta().data(), P, w, la, r.obs);
  r.info = integrator.Run();
  r.Y.assign(w.Y, w.Y + 2 * n2 + n1);
  r.a.assign(w.a, w.a + n2);
  return r;
}

ExplicitParameters ParametersOf(const SimulationSettings& s, DynamicSolverType type) {
  return ToExplicitParameters(s, type);
}

const DynamicSolverType kExplicitTypes[] = {
    DynamicSolverType::ExplicitEuler, DynamicSolverType::ExplicitMidpoint, DynamicSolverType::RK33,
    DynamicSolverType::RK44,          DynamicSolverType::RK67,             DynamicSolverType::ODE23,
    DynamicSolverType::DOPRI5,        DynamicSolverType::VelocityVerlet};

// m = 1, k = 100, d = 0.5 oscillator (x0 = 0.1): ExplicitIntegrator with a fixed-size LU and
// a trace observer reproduces the CPU wrapper (Eigen LU, sensor recorder) bit for bit: final
// state, accelerations, counters and every reported (t, x, a_x), for all types, with and
// without automatic step size (ODE23/DOPRI5 adapt the step), and without end-of-step
// accelerations.
TEST(ExplicitIntegrator, MatchesCpuWrapperBitForBit) {
  Model m;
  const NodeIndex n = test::AddOscillator(m, 1.0, 100.0, 0.5, 0.1, 0.0);
  SensorNode sx, sa;
  sx.nodeNumber = n;
  sx.outputVariableType = OutputVariableType::Coordinates;
  sx.storeInternal = true;
  sx.writeToFile = false;
  sa = sx;
  sa.outputVariableType = OutputVariableType::Coordinates_tt;
  const SensorIndex ix = m.AddSensor(sx), ia = m.AddSensor(sa);
  Simulation sim(m);
  for (const DynamicSolverType type : kExplicitTypes)
    for (int variant = 0; variant < 3; ++variant) {
      SimulationSettings s;
      s.solutionSettings.sensorsWritePeriod = 0;  // every step
      s.timeIntegration.automaticStepSize = variant != 1;
      s.timeIntegration.explicitIntegration.computeEndOfStepAccelerations = variant != 2;
      if (variant == 2) s.timeIntegration.numberOfSteps = 37;
      SCOPED_TRACE(std::string(DynamicSolverTypeName(type)) + " variant " + std::to_string(variant));
      sim.SolveDynamic(s, type);
      const DirectRun r = RunDirect(sim, ParametersOf(s, type));
      ASSERT_EQ(r.info.status, SolveStatus::ok);
      EXPECT_EQ(r.info.steps, sim.Statistics().steps);
      EXPECT_EQ(r.info.rejectedSteps, sim.Statistics().rejectedSteps);
      EXPECT_EQ(r.info.rhsEvaluations, sim.Statistics().rhsEvaluations);
      EXPECT_TRUE(SameBits(r.info.t, sim.State().t));
      const SystemState& st = sim.State();
      for (int i = 0; i < 3; ++i) {
        EXPECT_TRUE(SameBits(r.Y[static_cast<size_t>(i)], st.q[static_cast<size_t>(i)])) << "q" << i;
        EXPECT_TRUE(SameBits(r.Y[static_cast<size_t>(3 + i)], st.v[static_cast<size_t>(i)])) << "v" << i;
        EXPECT_TRUE(SameBits(r.a[static_cast<size_t>(i)], st.a[static_cast<size_t>(i)])) << "a" << i;
      }
      const auto& X = sim.GetSensorStoredData(ix);
      const auto& A = sim.GetSensorStoredData(ia);
      ASSERT_EQ(X.size(), r.obs.rows.size());
      ASSERT_EQ(A.size(), r.obs.rows.size());
      EXPECT_EQ(r.obs.finals, 1);
      int mismatches = 0;
      for (size_t k = 0; k < X.size(); ++k)
        mismatches += !SameBits(X[k][0], r.obs.rows[k][0]) || !SameBits(X[k][1], r.obs.rows[k][1]) ||
                      !SameBits(A[k][1], r.obs.rows[k][2]);
      EXPECT_EQ(mismatches, 0);
      // and it is the oscillator: final x against the closed form (loose; explicit Euler and
      // 37 steps are too coarse for it)
      if (type != DynamicSolverType::ExplicitEuler && variant != 2) {
        EXPECT_NEAR(r.Y[0], test::OscillatorExact(1.0, 100.0, 0.5, 0.1, 0.0, 1.0), 0.05);
      }
    }
}

// Consistency of every tableau: a's row sums are c, the weights (and embedded weights) sum
// to 1; RK67's literals are exactly the doubles of their sqrt(5) formulas.
TEST(ExplicitIntegrator, TableauxAreConsistent) {
  for (const DynamicSolverType type : kExplicitTypes) {
    const ExplicitTableau t = ExplicitTableauOf(type);
    if (type == DynamicSolverType::VelocityVerlet) {
      EXPECT_EQ(t.stages, 0);
      continue;
    }
    SCOPED_TRACE(DynamicSolverTypeName(type));
    ASSERT_GT(t.stages, 0);
    Real sb = 0, se = 0;
    for (int s = 0; s < t.stages; ++s) {
      Real row = 0;
      for (int j = 0; j < s; ++j) row += t.a[s][j];
      EXPECT_NEAR(row, t.c[s], 1e-15) << "row " << s;
      for (int j = s; j < kMaxExplicitStages; ++j) EXPECT_EQ(t.a[s][j], 0);
      sb += t.b[s];
      se += t.bEmbedded[s];
    }
    EXPECT_NEAR(sb, 1, 1e-15);
    if (t.errorOrder > 0) {
      EXPECT_NEAR(se, 1, 1e-15);
    }
  }
  volatile Real five = 5;
  const Real s5 = std::sqrt(static_cast<Real>(five));
  const ExplicitTableau t = ExplicitTableauOf(DynamicSolverType::RK67);
  const Real expected[][3] = {{1, 0, (5 - s5) / 10},           {2, 0, -s5 / 10},
                              {2, 1, (5 + 2 * s5) / 10},       {3, 0, (-15 + 7 * s5) / 20},
                              {3, 1, (-1 + s5) / 4},           {3, 2, (15 - 7 * s5) / 10},
                              {4, 0, (5 - s5) / 60},           {4, 2, 1. / 6.},
                              {4, 3, (15 + 7 * s5) / 60},      {5, 0, (5 + s5) / 60},
                              {5, 2, (9 - 5 * s5) / 12},       {5, 3, 1. / 6.},
                              {5, 4, (-5 + 3 * s5) / 10},      {6, 0, 1. / 6.},
                              {6, 2, (-55 + 25 * s5) / 12},    {6, 3, (-25 - 7 * s5) / 12},
                              {6, 4, 5 - 2 * s5},              {6, 5, (5 + s5) / 2}};
  for (const auto& e : expected)
    EXPECT_TRUE(SameBits(t.a[static_cast<int>(e[0])][static_cast<int>(e[1])], e[2])) << e[0] << "," << e[1];
  const Real c[] = {0, (5 - s5) / 10, (5 + s5) / 10, (5 - s5) / 10, (5 + s5) / 10, (5 - s5) / 10, 1};
  for (int s = 0; s < 7; ++s) EXPECT_TRUE(SameBits(t.c[s], c[s])) << "c" << s;
}

// MakeExplicitWork takes exactly ExplicitWorkSize Reals, without overlaps.
TEST(ExplicitIntegrator, WorkspacePartition) {
  for (const DynamicSolverType type : kExplicitTypes) {
    const int n2 = 3, n1 = 2, N = 2 * n2 + n1;
    const int size = ExplicitWorkSize(type, n2, n1);
    std::vector<Real> buf(static_cast<size_t>(size));
    const ExplicitWork w = MakeExplicitWork(type, n2, n1, buf.data());
    std::vector<int> owner(static_cast<size_t>(size), 0);
    auto mark = [&](const Real* p, int len) {
      if (!p) return;
      for (int i = 0; i < len; ++i) ++owner[static_cast<size_t>(p - buf.data() + i)];
    };
    mark(w.Y, N);
    mark(w.Yn, N);
    mark(w.Ytmp, N);
    mark(w.Yemb, N);
    for (const Real* k : w.K) mark(k, N);
    mark(w.a, n2);
    mark(w.yt, n1);
    mark(w.f, n2);
    mark(w.aVV, n2);
    mark(w.f1, n1);
    for (int i = 0; i < size; ++i) EXPECT_EQ(owner[static_cast<size_t>(i)], 1) << DynamicSolverTypeName(type) << " " << i;
    const ExplicitTableau t = ExplicitTableauOf(type);
    for (int s = 0; s < kMaxExplicitStages; ++s) EXPECT_EQ(w.K[s] != nullptr, s < t.stages);
  }
}

// Failures end the run with a status instead of throwing: a coordinate without mass
// (singular_matrix, at the first evaluation), an unstable step size (diverged, with the
// non-finite state in w.Y), a non-explicit type (invalid_parameter).
TEST(ExplicitIntegrator, FailureStatuses) {
  {
    Model m;
    NodePoint np;
    m.AddNode(np);
    Simulation sim(m);
    for (const DynamicSolverType type : kExplicitTypes) {
      ExplicitParameters P;
      P.solverType = type;
      const DirectRun r = RunDirect(sim, P);
      EXPECT_EQ(r.info.status, SolveStatus::singular_matrix) << DynamicSolverTypeName(type);
      EXPECT_EQ(r.info.t, 0);
      EXPECT_EQ(r.info.steps, 0);
    }
  }
  {
    Model m;
    test::AddOscillator(m, 1.0, 1e8, 0, 0.1, 0);
    Simulation sim(m);
    ExplicitParameters P;
    P.solverType = DynamicSolverType::ExplicitEuler;
    P.numberOfSteps = 1000;  // omega h = 10: grows by ~10 per step, overflows within ~310 steps
    // |v| passes 1e19 (squared norm 1e38, maximumSolutionNorm) after 16 steps (v0 ~ omega q0 = 1e3)
    const DirectRun r = RunDirect(sim, P);
    EXPECT_EQ(r.info.status, SolveStatus::diverged);
    EXPECT_NEAR(r.info.t, 0.016, 0.0025);
    // without the bound, the run goes on until the squared norm overflows (|v| ~ 1e154)
    P.maximumSolutionNorm = std::numeric_limits<Real>::infinity();
    const DirectRun overflow = RunDirect(sim, P);
    EXPECT_EQ(overflow.info.status, SolveStatus::diverged);
    EXPECT_NEAR(overflow.info.t, 0.151, 0.0025);
    P.solverType = DynamicSolverType::GeneralizedAlpha;
    EXPECT_EQ(RunDirect(sim, P).info.status, SolveStatus::invalid_parameter);
  }
}

// Exudyn's step-size rule can reject the same last step forever (remaining step just above
// minimumStepSize but too large for the tolerance). The integrator stops with
// step_too_small there and the CPU wrapper names the situation; here on a stiff
// oscillator (omega = 1e4) with hMin = 1e-4 and t in [0.1, 1.2345].
TEST(ExplicitIntegrator, EndlessRejectionStops) {
  Model m;
  test::AddOscillator(m, 1.0, 1e8, 0, 0.1, 0);
  Simulation sim(m);
  SimulationSettings s;
  auto& ti = s.timeIntegration;
  ti.initialStepSize = 1e-3;
  ti.relativeTolerance = 1e-4;
  ti.absoluteTolerance = 1e-3;
  ti.stepSizeSafety = 0.8;
  ti.stepSizeMaxIncrease = 3;
  ti.minimumStepSize = 1e-4;
  ti.startTime = 0.1;
  ti.endTime = 1.2345;
  ti.numberOfSteps = 7;
  const DirectRun r = RunDirect(sim, ParametersOf(s, DynamicSolverType::DOPRI5));
  EXPECT_EQ(r.info.status, SolveStatus::step_too_small);
  EXPECT_GT(r.info.h, ti.minimumStepSize);
  EXPECT_LT(r.info.h, 1.0001 * ti.minimumStepSize);
  EXPECT_NEAR(r.info.t + r.info.h, ti.endTime, 1e-12);
  try {
    sim.SolveDynamic(s, DynamicSolverType::DOPRI5);
    FAIL() << "expected SolverError";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("DOPRI5: the step-size control cannot make progress at t = "),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mbsweep

namespace mbsweep {
namespace {

// The elimination table is structure, decided when the model is compiled: here the y
// coordinate (global ODE2 index 1) of the oscillator's node, held by the coordinate constraint
// 'fixY' (object 2). The integrator zeroes it (and its velocity, started at 1, and its
// acceleration) after every step and leaves x untouched (bit for bit as without the
// constraint; y and x are uncoupled); it ends with invalid_parameter before the first step
// where the constraint's theta values cannot be eliminated (offset != 0, factor1 != 1)
// or a constraint is not eliminable; without eliminateConstraints it ignores the constraint
// (y = t). Fixed steps for all types here (the step-size control would see the free y).
TEST(ExplicitIntegrator, EliminatesCoordinateConstraints) {
  Model m, free;
  for (Model* x : {&m, &free}) test::AddOscillator(*x, 1.0, 100.0, 0.5, 0.1, 0.0);
  const ObjectIndex fix = CreateCoordinateConstraint(m, "fixY", NodeIndex(0), 1);
  Simulation sim(m), simFree(free);
  for (Simulation* s : {&sim, &simFree}) s->SetParameter("node0.initialVelocities[1]", 1);
  const LayoutView L = sim.GetLayout().View();
  ASSERT_EQ(L.nEliminated, 1);
  EXPECT_EQ(EliminatedCoordinate(L, 0), 1);
  EXPECT_EQ(EliminatedConstraint(L, 0), fix.value);
  EXPECT_EQ(L.constraintsEliminable, 1);
  EXPECT_EQ(sim.GetLayout().eliminationRefusal, "");
  EXPECT_TRUE(ConstraintsEliminable(L, sim.Theta().data()));

  for (const DynamicSolverType type : kExplicitTypes) {
    SCOPED_TRACE(DynamicSolverTypeName(type));
    ExplicitParameters P;
    P.solverType = type;
    P.automaticStepSize = false;
    const DirectRun r = RunDirect(sim, P), rf = RunDirect(simFree, P);
    ASSERT_EQ(r.info.status, SolveStatus::ok);
    EXPECT_EQ(r.Y[1], 0);
    EXPECT_EQ(r.Y[3 + 1], 0);
    EXPECT_EQ(r.a[1], 0);
    EXPECT_NE(rf.Y[1], 0);  // free: y = t
    ASSERT_EQ(r.obs.rows.size(), rf.obs.rows.size());
    int differ = 0;
    for (size_t k = 0; k < r.obs.rows.size(); ++k) differ += r.obs.rows[k] != rf.obs.rows[k];
    EXPECT_EQ(differ, 0);
    P.eliminateConstraints = false;
    const DirectRun ignored = RunDirect(sim, P);
    ASSERT_EQ(ignored.info.status, SolveStatus::ok);
    EXPECT_NEAR(ignored.Y[1], 1.0, 1e-12);
  }
  ExplicitParameters P;
  P.solverType = DynamicSolverType::RK44;
  sim.SetParameter("fixY.offset", 0.5);
  EXPECT_EQ(RunDirect(sim, P).info.status, SolveStatus::invalid_parameter);
  P.eliminateConstraints = false;
  EXPECT_EQ(RunDirect(sim, P).info.status, SolveStatus::ok);
  P.eliminateConstraints = true;
  sim.SetParameter("fixY.offset", 0);
  sim.SetParameter("fixY.factor1", -1);
  EXPECT_EQ(RunDirect(sim, P).info.status, SolveStatus::invalid_parameter);

  // a distance constraint is not eliminable: invalid_parameter, unless the constraints are ignored
  Model d;
  const ObjectIndex ground = CreateGround(d);
  const auto bob = CreateMassPoint(d, "bob", {1, 0, 0}, 1.0);
  CreateDistanceConstraint(d, "rod", {ground, bob.body});
  Simulation sd(d);
  EXPECT_EQ(sd.GetLayout().View().constraintsEliminable, 0);
  EXPECT_EQ(sd.GetLayout().View().nEliminated, 0);
  P.eliminateConstraints = true;
  EXPECT_EQ(RunDirect(sd, P).info.status, SolveStatus::invalid_parameter);
  P.eliminateConstraints = false;
  EXPECT_EQ(RunDirect(sd, P).info.status, SolveStatus::ok);
}

// maxStepAttempts bounds every explicit method: a run that needs more step attempts ends with
// budget_exceeded at the time it reached (the reference solver reports it in words).
TEST(ExplicitIntegrator, StepBudget) {
  Model m;
  test::AddOscillator(m, 1.0, 100, 0, 0.1, 0);
  Simulation sim(m);
  SimulationSettings s;
  s.timeIntegration.numberOfSteps = 100;
  s.timeIntegration.maxStepAttempts = 10;
  for (DynamicSolverType type : {DynamicSolverType::RK44, DynamicSolverType::VelocityVerlet}) {
    const DirectRun r = RunDirect(sim, ParametersOf(s, type));
    EXPECT_EQ(r.info.status, SolveStatus::budget_exceeded) << DynamicSolverTypeName(type);
    EXPECT_EQ(r.info.steps, 10);
    EXPECT_NEAR(r.info.t, 0.1, 1e-14);
  }
  const DirectRun adaptive = RunDirect(sim, ParametersOf(s, DynamicSolverType::DOPRI5));
  EXPECT_EQ(adaptive.info.status, SolveStatus::budget_exceeded);
  EXPECT_EQ(adaptive.info.steps + adaptive.info.rejectedSteps, 10);
  s.timeIntegration.maxStepAttempts = 0;  // automatic: 1000 numberOfSteps + 100000
  EXPECT_EQ(RunDirect(sim, ParametersOf(s, DynamicSolverType::DOPRI5)).info.status, SolveStatus::ok);
  s.timeIntegration.maxStepAttempts = 10;
  try {
    sim.SolveDynamic(s, DynamicSolverType::RK44);
    FAIL() << "expected SolverError";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("RK44: the budget of 10 step attempts (timeIntegration.maxStepAttempts) ran "
                                         "out at t = "),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mbsweep
