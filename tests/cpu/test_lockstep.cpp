// Lockstep batch (common/lockstep.h) on the host: the generalized-alpha phases driven for a
// whole batch, with deferred batched factorizations and solves, reproduce the fused CPU batch
// runner bit for bit (values, statuses, counters, failure data, signals); so does the
// warp-per-system kernel's team driver run with emulated teams.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "common/creators.h"
#include "cpu/batch_lockstep.h"
#include "cpu/evaluator_cpu.h"
#include "tests/cpu/test_util.h"

namespace mbsweep {
namespace {

using Fixture = test::BatchFixture;
constexpr auto Pendulum = test::PendulumBatchFixture;

struct GridOptions {
  int n = 40;
  bool invalidRows = false;      ///< systems 1 and 5: negative mass
  bool stiffRows = false;        ///< systems 3 and 6: absurd stiffness (Newton failures)
  bool adaptiveStep = true;
  int maxIterations = 25;
  bool modifiedNewton = false;
};

BatchProblem Grid(const Fixture& f, const GridOptions& o) {
  ParameterMap map(f.layout, f.theta0);
  map.SetParameters({"m", "k"});
  map.Bind("bob.mass", "m");
  map.Bind("spring.stiffness", "k");
  std::vector<Real> params;
  for (int i = 0; i < o.n; ++i) params.insert(params.end(), {0.5 + 0.01 * i, 10.0 + 37.0 * i});
  if (o.invalidRows) params[2] = params[10] = -1;
  if (o.stiffRows) {
    params[7] = 1e12;
    params[13] = 3e9;
  }
  SimulationSettings s;
  s.timeIntegration.endTime = 0.5;
  s.timeIntegration.numberOfSteps = 100;
  s.timeIntegration.newton.maxIterations = o.maxIterations;
  s.timeIntegration.newton.useModifiedNewton = o.modifiedNewton;
  s.timeIntegration.adaptiveStep = o.adaptiveStep;
  s.solutionSettings.sensorsWritePeriod = 0;
  return MakeBatch(f.layout, map, params, DynamicSolverType::GeneralizedAlpha, s, test::PendulumBatchObjectives(f));
}

bool SameBits(Real a, Real b) { return std::memcmp(&a, &b, sizeof(Real)) == 0; }

// Every value, status, counter and failure datum equal bit for bit (NaN included).
void ExpectIdentical(const BatchResult& fused, const BatchResult& lock) {
  ASSERT_EQ(fused.nSystems, lock.nSystems);
  ASSERT_EQ(fused.values.size(), lock.values.size());
  EXPECT_EQ(fused.status, lock.status);
  for (size_t k = 0; k < fused.values.size(); ++k)
    EXPECT_TRUE(SameBits(fused.values[k], lock.values[k])) << "value " << k << ": " << fused.values[k] << " vs "
                                                           << lock.values[k];
  for (int i = 0; i < fused.nSystems; ++i) {
    const SolveInfo &a = fused.info[static_cast<size_t>(i)], &b = lock.info[static_cast<size_t>(i)];
    EXPECT_EQ(a.status, b.status) << "system " << i;
    EXPECT_TRUE(SameBits(a.t, b.t)) << "system " << i;
    EXPECT_TRUE(SameBits(a.h, b.h)) << "system " << i;
    EXPECT_TRUE(SameBits(a.residual, b.residual)) << "system " << i;
    EXPECT_EQ(a.steps, b.steps) << "system " << i;
    EXPECT_EQ(a.rejectedSteps, b.rejectedSteps) << "system " << i;
    EXPECT_EQ(a.newtonIterations, b.newtonIterations) << "system " << i;
    EXPECT_EQ(a.jacobianUpdates, b.jacobianUpdates) << "system " << i;
    EXPECT_EQ(a.rhsEvaluations, b.rhsEvaluations) << "system " << i;
    EXPECT_EQ(a.singularInitialAccelerations, b.singularInitialAccelerations) << "system " << i;
  }
  EXPECT_EQ(fused.signalCount, lock.signalCount);
  ASSERT_EQ(fused.signals.size(), lock.signals.size());
  for (size_t k = 0; k < fused.signals.size(); ++k) EXPECT_TRUE(SameBits(fused.signals[k], lock.signals[k])) << k;
}

BatchResult Fused(const BatchProblem& p) {
  CpuEvaluatorOptions o;
  o.threads = 2;
  return CreateCpuEvaluator(o)->Evaluate(p);
}

int Total(const BatchResult& r, int SolveInfo::*field) {
  int s = 0;
  for (const SolveInfo& i : r.info) s += i.*field;
  return s;
}

// The constrained pendulum batch with full and with modified Newton, signals recorded: all
// systems ok, identical to the fused runner; the systems need different numbers of Newton
// iterations, so they finish at different rounds and phases.
TEST(Lockstep, ReproducesFusedRunnerFullAndModifiedNewton) {
  const Fixture f = Pendulum();
  for (bool modified : {false, true}) {
    GridOptions o;
    o.modifiedNewton = modified;
    BatchProblem p = Grid(f, o);
    RequestSignals(p, 12);
    LockstepStatistics stats;
    const BatchResult lock = EvaluateLockstepOnHost(p, &stats);
    const BatchResult fused = Fused(p);
    SCOPED_TRACE(modified ? "modified Newton" : "full Newton");
    EXPECT_EQ(fused.CountStatus(SolveStatus::ok), o.n);
    ExpectIdentical(fused, lock);
    EXPECT_EQ(lock.backend, "cpu-lockstep");
    // different work per system: the batch really runs systems at different phases
    int minIt = 1 << 30, maxIt = 0;
    for (const SolveInfo& i : lock.info) {
      minIt = std::min(minIt, i.newtonIterations);
      maxIt = std::max(maxIt, i.newtonIterations);
    }
    EXPECT_LT(minIt, maxIt);
    EXPECT_GE(stats.rounds, maxIt);
    EXPECT_EQ(stats.solves, static_cast<long long>(Total(lock, &SolveInfo::newtonIterations)) + o.n);  // + initial
    EXPECT_EQ(stats.factorizations, static_cast<long long>(Total(lock, &SolveInfo::jacobianUpdates)) + o.n);
    if (modified) {
      EXPECT_LT(Total(lock, &SolveInfo::jacobianUpdates), Total(lock, &SolveInfo::newtonIterations));
    }
  }
}

// invalid_parameter rows and Newton failures without step reduction (the failure batch of
// the CUDA tests): statuses, failure time, step and residual identical.
TEST(Lockstep, ReproducesFusedRunnerWithInvalidRowsAndNewtonFailures) {
  const Fixture f = Pendulum();
  GridOptions o;
  o.n = 16;
  o.invalidRows = o.stiffRows = true;
  o.adaptiveStep = false;
  o.maxIterations = 4;
  const BatchProblem p = Grid(f, o);
  const BatchResult lock = EvaluateLockstepOnHost(p);
  const BatchResult fused = Fused(p);
  ExpectIdentical(fused, lock);
  EXPECT_EQ(lock.status[1], SolveStatus::invalid_parameter);
  EXPECT_EQ(lock.status[5], SolveStatus::invalid_parameter);
  EXPECT_NE(lock.status[3], SolveStatus::ok);
  EXPECT_GT(lock.CountStatus(SolveStatus::ok), 0);
}

// Newton failures cured by step reduction (adaptive steps on, few iterations allowed), with
// full and modified Newton: rejected steps occur and everything stays identical.
TEST(Lockstep, ReproducesFusedRunnerWithStepReduction) {
  const Fixture f = Pendulum();
  for (bool modified : {false, true}) {
    GridOptions o;
    o.n = 24;
    o.invalidRows = o.stiffRows = true;
    // modified Newton updates its Jacobian from the third iteration on (contractivity test)
    o.maxIterations = modified ? 10 : 3;
    o.modifiedNewton = modified;
    const BatchProblem p = Grid(f, o);
    const BatchResult lock = EvaluateLockstepOnHost(p);
    const BatchResult fused = Fused(p);
    SCOPED_TRACE(modified ? "modified Newton" : "full Newton");
    ExpectIdentical(fused, lock);
    EXPECT_GT(Total(lock, &SolveInfo::rejectedSteps), 0);
    EXPECT_GT(lock.CountStatus(SolveStatus::ok), 0);
  }
}

// Explicit solvers are refused with a message naming the rule.
TEST(Lockstep, RefusesExplicitSolvers) {
  test::ExpectRefusesExplicitSolver([](const BatchProblem& p) { EvaluateLockstepOnHost(p); });
  test::ExpectRefusesExplicitSolver([](const BatchProblem& p) { EvaluateTeamOnHost(p, 4); });
}

// The warp-per-system kernel's driver (RunLockstepSystemWithTeam: lane 0 runs the phases, the
// team factorizes and solves the row-major slot) with emulated teams of 1, 4 and 32 lanes
// reproduces the fused runner bit for bit: full and modified Newton with signals, and
// invalid rows, Newton failures and step reduction.
TEST(Lockstep, TeamDriverReproducesFusedRunner) {
  const Fixture f = Pendulum();
  for (bool modified : {false, true}) {
    GridOptions o;
    o.n = 12;
    o.modifiedNewton = modified;
    BatchProblem p = Grid(f, o);
    RequestSignals(p, 12);
    const BatchResult fused = Fused(p);
    for (int team : {1, 4, 32}) {
      SCOPED_TRACE(std::string(modified ? "modified" : "full") + " Newton, team of " + std::to_string(team));
      const BatchResult r = EvaluateTeamOnHost(p, team);
      EXPECT_EQ(r.backend, "cpu-team");
      ExpectIdentical(fused, r);
    }
  }
  GridOptions o;
  o.n = 16;
  o.invalidRows = o.stiffRows = true;
  o.maxIterations = 3;
  const BatchProblem p = Grid(f, o);
  const BatchResult fused = Fused(p);
  const BatchResult r = EvaluateTeamOnHost(p, 32);
  ExpectIdentical(fused, r);
  EXPECT_EQ(r.status[1], SolveStatus::invalid_parameter);
  EXPECT_GT(Total(r, &SolveInfo::rejectedSteps), 0);
}

// The same on the spatial chains of 3 and 7 rigid bodies (33 and 77 unknowns, capacities 64
// and 128: more rows than a warp has lanes, dense iteration matrices with a zero constraint
// block and pivoting).
TEST(Lockstep, TeamDriverReproducesFusedRunnerOnChains) {
  for (int bodies : {3, 7}) {
    const Fixture f = test::ChainBatchFixture(bodies);
    ASSERT_EQ(f.layout.View().nODE2 + f.layout.View().nAE, 11 * bodies);
    const BatchProblem p = test::ChainBatch(f, 4, 40);
    const BatchResult fused = Fused(p);
    EXPECT_EQ(fused.CountStatus(SolveStatus::ok), 4);
    for (int team : {4, 32}) {
      SCOPED_TRACE(std::to_string(bodies) + " bodies, team of " + std::to_string(team));
      ExpectIdentical(fused, EvaluateTeamOnHost(p, team));
    }
  }
}

}  // namespace
}  // namespace mbsweep
