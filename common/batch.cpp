// The batch contract (common/batch.h): statuses and failure messages, empty results, batch
// construction and checks, signal requests, and the comparison of two results.
#include "common/batch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/explicit_solver_checks.h"
#include "common/rules.h"
#include "common/system_runner.h"

namespace mbsweep {

const char* SolveStatusName(SolveStatus s) {
  switch (s) {
    case SolveStatus::ok: return "ok";
    case SolveStatus::newton_failed: return "newton_failed";
    case SolveStatus::step_too_small: return "step_too_small";
    case SolveStatus::diverged: return "diverged";
    case SolveStatus::invalid_parameter: return "invalid_parameter";
    case SolveStatus::singular_matrix: return "singular_matrix";
    case SolveStatus::budget_exceeded: return "budget_exceeded";
  }
  return "?";
}

std::string DescribeSolveFailure(const SolveInfo& info, const SimulationSettings& settings, DynamicSolverType solver) {
  const TimeIntegrationSettings& ti = settings.timeIntegration;
  const bool implicit = !IsExplicitSolverType(solver);
  const std::string rejected = info.rejectedSteps == 0   ? ""
                               : info.rejectedSteps == 1 ? ", 1 rejected step"
                                                         : ", " + std::to_string(info.rejectedSteps) + " rejected steps";
  const std::string at = " at t = " + FormatReal(info.t) + " (step size " + FormatReal(info.h) + rejected + ")";
  const std::string atWithResidual = " at t = " + FormatReal(info.t) + " (step size " + FormatReal(info.h) +
                                     ", residual " + FormatReal(info.residual) + rejected + ")";
  switch (info.status) {
    case SolveStatus::ok: return "";
    case SolveStatus::newton_failed:
      return "Newton did not converge within maxIterations = " + std::to_string(ti.newton.maxIterations) +
             atWithResidual;
    case SolveStatus::step_too_small:
      return implicit ? "Newton did not converge and the step size cannot be reduced below minimumStepSize = " +
                            FormatReal(ti.minimumStepSize) + atWithResidual
                      : "the step-size control cannot make progress at t = " + FormatReal(info.t) + ": the step " +
                            FormatReal(info.h) + " is rejected again and again (error estimate " +
                            FormatReal(info.residual) + ") but is above minimumStepSize = " +
                            FormatReal(ti.minimumStepSize) +
                            "; lower minimumStepSize or relax absoluteTolerance/relativeTolerance";
    case SolveStatus::diverged:
      return "the solution diverged (not finite, or a squared norm of the coordinates, velocities or "
             "accelerations beyond newton.maximumSolutionNorm = " +
             FormatReal(ti.newton.maximumSolutionNorm) + ")" + at;
    case SolveStatus::singular_matrix:
      return std::string(implicit ? "the iteration matrix is singular" : "the mass matrix is singular") + at;
    case SolveStatus::budget_exceeded:
      return "the budget of " + std::to_string(StepAttemptBudget(ti)) +
             " step attempts (timeIntegration.maxStepAttempts) ran out" + at + " before endTime = " +
             FormatReal(ti.endTime);
    case SolveStatus::invalid_parameter: return "a parameter violates its rule";
  }
  return "unknown status";
}

std::string FailureReason(const BatchProblem& p, const BatchResult& r, int i) {
  const size_t k = static_cast<size_t>(i);
  if (r.status[k] == SolveStatus::invalid_parameter && k < p.rowErrors.size() && !p.rowErrors[k].empty())
    return p.rowErrors[k];
  return DescribeSolveFailure(r.info[k], p.settings, p.solver);
}

int BatchResult::CountStatus(SolveStatus s) const {
  int n = 0;
  for (SolveStatus x : status) n += x == s;
  return n;
}

BatchResult MakeEmptyResult(const BatchProblem& p, const std::string& backend) {
  BatchResult r;
  r.backend = backend;
  r.nSystems = p.nSystems;
  r.nValues = p.NumValues();
  r.values.assign(static_cast<size_t>(r.nSystems) * static_cast<size_t>(r.nValues),
                  std::numeric_limits<Real>::quiet_NaN());
  r.status.assign(static_cast<size_t>(r.nSystems), SolveStatus::ok);
  r.info.assign(static_cast<size_t>(r.nSystems), SolveInfo{});
  if (p.signalRows > 0) {
    r.signalRows = p.signalRows;
    r.signalWidth = p.SignalWidth();
    r.signals.assign(static_cast<size_t>(r.nSystems) * static_cast<size_t>(r.signalRows) *
                         static_cast<size_t>(r.signalWidth),
                     std::numeric_limits<Real>::quiet_NaN());
    r.signalCount.assign(static_cast<size_t>(r.nSystems), 0);
  }
  return r;
}

void RequestSignals(BatchProblem& p, int maxRows) {
  if (maxRows < 0) throw ValidationError("RequestSignals: maxRows = " + std::to_string(maxRows) + " must be >= 0");
  p.signalRows = maxRows;
  p.signalStride = 1;
  if (maxRows == 0) return;
  const TimeIntegrationSettings& ti = p.settings.timeIntegration;
  const double span = ti.endTime - ti.startTime, period = p.objectives.set.samplePeriod;
  // sample times: the start, one per period (or per step) and the final state
  const double expected = period > 0 && period * ti.numberOfSteps > span ? std::floor(span / period + 1e-9) + 2
                                                                          : static_cast<double>(ti.numberOfSteps) + 1;
  p.signalStride = static_cast<int>(std::max(1.0, std::ceil(expected / maxRows)));
}

BatchProblem MakeBatch(const Layout& layout, const ParameterMap& map, const std::vector<Real>& parameters,
                       DynamicSolverType solver, const SimulationSettings& settings, CompiledObjectives objectives) {
  const int np = map.NumParameters();
  if (np == 0 || parameters.size() % static_cast<size_t>(np) != 0)
    throw ValidationError("MakeBatch: " + std::to_string(parameters.size()) +
                          " parameter values are not a whole number of rows of " + std::to_string(np) + " parameters");
  BatchProblem p;
  p.layout = &layout;
  p.solver = solver;
  p.settings = settings;
  p.objectives = std::move(objectives);
  p.nSystems = static_cast<int>(parameters.size() / static_cast<size_t>(np));
  const size_t nt = static_cast<size_t>(layout.ThetaSize());
  p.theta.resize(static_cast<size_t>(p.nSystems) * nt);
  p.rowErrors.resize(static_cast<size_t>(p.nSystems));
  // explicit solvers that eliminate coordinate constraints refuse an offset or factor1
  // they would drop: the model's value before anything runs, a study's value per system
  const bool eliminate = IsExplicitSolverType(solver) && settings.timeIntegration.explicitIntegration.eliminateConstraints;
  if (eliminate) {
    const std::string fixed =
        EliminatedConstraintError(layout, map.Theta0().data(), [&map](int slot) { return !map.Varies(slot); });
    if (!fixed.empty()) throw ValidationError("batch evaluation: " + fixed);
  }
  for (int i = 0; i < p.nSystems; ++i) {
    Real* row = p.theta.data() + i * nt;
    std::string& error = p.rowErrors[static_cast<size_t>(i)];
    error = map.BuildRow(parameters.data() + static_cast<size_t>(i) * static_cast<size_t>(np), row);
    if (error.empty() && eliminate) error = EliminatedConstraintError(layout, row);
  }
  return p;
}

void CheckBatchProblem(const BatchProblem& p) {
  if (!p.layout) throw ValidationError("BatchProblem: no layout");
  ValidateSettings(p.settings, false);
  const LayoutView L = p.layout->View();
  // the theta values (offset, factor1) are per system: MakeBatch's row errors, and the
  // integrator's invalid_parameter for rows built otherwise
  if (IsExplicitSolverType(p.solver))
    CheckExplicitConstraints(*p.layout, nullptr, p.solver, p.settings.timeIntegration.explicitIntegration.eliminateConstraints,
                             "batch evaluation: ");
  const int n = L.nODE2 + L.nODE1 + L.nAE;
  if (BatchCapacityFor(n) == 0)
    throw ValidationError("batch evaluation: the model has " + std::to_string(n) +
                          " unknowns (ODE2 + ODE1 + algebraic); the batch path supports at most " +
                          std::to_string(kMaxBatchCapacity));
  if (p.theta.size() != static_cast<size_t>(p.nSystems) * static_cast<size_t>(p.ThetaSize()))
    throw ValidationError("BatchProblem: theta has " + std::to_string(p.theta.size()) + " values, expected " +
                          std::to_string(p.nSystems) + " x " + std::to_string(p.ThetaSize()));
  if (p.signalRows < 0 || p.signalStride < 1)
    throw ValidationError("BatchProblem: signalRows = " + std::to_string(p.signalRows) + " must be >= 0 and signalStride = " +
                          std::to_string(p.signalStride) + " >= 1");
  // signals are for small batches: refuse what would not fit in memory instead of failing late
  const double signalBytes = static_cast<double>(p.nSystems) * p.signalRows * p.SignalWidth() * sizeof(Real);
  if (signalBytes > kMaxSignalBytes)
    throw ValidationError("batch evaluation: signals of " + std::to_string(p.nSystems) + " systems x " +
                          std::to_string(p.signalRows) + " rows need " + std::to_string(signalBytes / 1073741824.0) +
                          " GiB (at most " + std::to_string(kMaxSignalBytes / 1073741824.0) +
                          " GiB); record fewer rows or split the batch");
}

BatchComparison CompareBatchResults(const BatchResult& a, const BatchResult& b) {
  if (a.nSystems != b.nSystems || a.nValues != b.nValues)
    throw ValidationError("CompareBatchResults: results differ in shape (" + std::to_string(a.nSystems) + " x " +
                          std::to_string(a.nValues) + " vs " + std::to_string(b.nSystems) + " x " +
                          std::to_string(b.nValues) + ")");
  BatchComparison c;
  c.referenceBackend = a.backend;
  c.otherBackend = b.backend;
  c.maxAbsDeviation.assign(static_cast<size_t>(a.nValues), 0.);
  c.maxRelDeviation.assign(static_cast<size_t>(a.nValues), 0.);
  for (int i = 0; i < a.nSystems; ++i) {
    const SolveStatus sa = a.status[static_cast<size_t>(i)], sb = b.status[static_cast<size_t>(i)];
    if (sa != sb) {
      c.statusDiffers.push_back(i);
      continue;
    }
    if (sa != SolveStatus::ok) continue;
    ++c.comparedSystems;
    for (int k = 0; k < a.nValues; ++k) {
      const Real x = a.Value(i, k), y = b.Value(i, k);
      const Real d = std::abs(x - y), s = std::max(std::abs(x), std::abs(y));
      c.maxAbsDeviation[static_cast<size_t>(k)] = std::max(c.maxAbsDeviation[static_cast<size_t>(k)], d);
      if (s > 0) c.maxRelDeviation[static_cast<size_t>(k)] = std::max(c.maxRelDeviation[static_cast<size_t>(k)], d / s);
    }
  }
  if (a.signalRows > 0 && b.signalRows > 0 && a.signalWidth == b.signalWidth) {
    c.maxSignalDeviation.assign(static_cast<size_t>(a.signalWidth - 1), 0.);
    for (int i = 0; i < a.nSystems; ++i) {
      const int na = a.signalCount[static_cast<size_t>(i)], nb = b.signalCount[static_cast<size_t>(i)];
      if (na != nb) c.signalCountDiffers.push_back(i);
      for (int row = 0; row < std::min(na, nb); ++row)
        for (int k = 1; k < a.signalWidth; ++k) {
          const Real x = a.SignalRow(i, row)[k], y = b.SignalRow(i, row)[k];
          if (x != x && y != y) continue;  // NaN in both: the same (a component the sensor lacks)
          const Real d = std::abs(x - y);
          Real& m = c.maxSignalDeviation[static_cast<size_t>(k - 1)];
          if (!(d <= m)) m = d;  // a NaN in one of them shows as NaN
        }
    }
  }
  c.speedup = b.seconds > 0 ? a.seconds / b.seconds : 0;
  return c;
}

std::string FormatComparison(const BatchComparison& c, const std::vector<std::string>& names) {
  std::string s = "comparison of " + c.otherBackend + " against " + c.referenceBackend + " (" +
                  std::to_string(c.comparedSystems) + " systems ok in both)\n";
  char line[256];
  for (size_t k = 0; k < c.maxAbsDeviation.size(); ++k) {
    std::snprintf(line, sizeof(line), "  %-24s max abs deviation %.3e, max rel deviation %.3e\n",
                  k < names.size() ? names[k].c_str() : ("value" + std::to_string(k)).c_str(), c.maxAbsDeviation[k],
                  c.maxRelDeviation[k]);
    s += line;
  }
  for (size_t k = 0; k < c.maxSignalDeviation.size(); ++k) {
    std::snprintf(line, sizeof(line), "  signal of %-14s max abs deviation %.3e\n",
                  k < names.size() ? names[k].c_str() : ("value" + std::to_string(k)).c_str(), c.maxSignalDeviation[k]);
    s += line;
  }
  if (!c.signalCountDiffers.empty())
    s += "  systems with a different number of signal rows: " + std::to_string(c.signalCountDiffers.size()) + "\n";
  s += "  systems with a different status: " + std::to_string(c.statusDiffers.size());
  for (size_t i = 0; i < c.statusDiffers.size() && i < 10; ++i) s += (i ? ", " : " (") + std::to_string(c.statusDiffers[i]);
  if (!c.statusDiffers.empty()) s += c.statusDiffers.size() > 10 ? ", ...)" : ")";
  std::snprintf(line, sizeof(line), "\n  speedup (%s time / %s time): %.2f\n", c.referenceBackend.c_str(),
                c.otherBackend.c_str(), c.speedup);
  return s + line;
}

}  // namespace mbsweep
