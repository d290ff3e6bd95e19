// Static solver: Newton on the equilibrium f(q; loadFactor) = 0 with arithmetic or
// geometric load steps and step reduction on Newton failure (Exudyn's staticSolver).
#include <cmath>
#include <string>
#include <vector>

#include "common/rules.h"
#include "common/constraints.h"
#include "cpu/linear_algebra.h"
#include "cpu/simulation.h"

namespace mbsweep {

namespace {

struct OffsetSink {
  EigenDenseLA& la;
  int r0, c0;
  Real s;
  void add(int i, int j, Real v) { la.add(i + r0, j + c0, s * v); }
};

Real Norm2(const std::vector<Real>& x) {
  Real s = 0;
  for (Real v : x) s += v * v;
  return std::sqrt(s);
}

}  // namespace

void SolveStaticSystem(const LayoutView& L, const Real* theta, const SimulationSettings& settings, SystemState& state,
                       SolverStatistics& stats, SensorRecorder* recorder) {
  const auto& st = settings.staticSolver;
  const auto& nw = st.newton;
  const int n = L.nODE2, nA = L.nAE, nTotal = n + nA;
  const NumDiff nd{nw.numericalDifferentiation.relativeEpsilon, nw.numericalDifferentiation.minimumCoordinateSize};
  std::vector<Real> zeroV(static_cast<size_t>(n), 0.), r(static_cast<size_t>(nTotal)), dq(static_cast<size_t>(nTotal));
  std::fill(state.v.begin(), state.v.end(), 0.);
  std::fill(state.a.begin(), state.a.end(), 0.);
  EigenDenseLA J, M;
  J.Resize(nTotal);
  std::fill(state.lambda.begin(), state.lambda.end(), 0.);
  std::vector<Real> lambdaStart = state.lambda;
  const bool stabilize = st.stabilizerODE2term > 0;
  if (stabilize) {
    M.Resize(n);
    ComputeMassMatrix(L, theta, state.q.data(), M);
  }

  const Real tStart = st.loadStepStart;
  const Real tEnd = st.loadStepStart + st.loadStepDuration;
  const int N = st.numberOfLoadSteps;
  // load-step schedule: arithmetic t_k = k*d/N, or geometric from d/range with a constant factor
  auto stepEnd = [&](int k) -> Real {
    if (!st.loadStepGeometric || N == 1) return tStart + st.loadStepDuration * k / N;
    const Real first = st.loadStepDuration / st.loadStepGeometricRange;
    const Real factor = std::pow(st.loadStepGeometricRange, 1. / (N - 1));
    return tStart + first * std::pow(factor, k - 1);
  };
  auto loadFactorAt = [&](Real t) { return st.useLoadFactor ? (t - tStart) / st.loadStepDuration : 1.; };

  state.t = tStart;
  if (recorder) recorder->Start(L, theta, state);

  Real t = tStart;
  int k = 1;          // index of the next scheduled load step end
  Real scale = 1;     // step reduction after Newton failures (recovers after good steps)
  int goodSteps = 0;
  std::vector<Real> qStart = state.q;
  while (t < tEnd - 1e-12 * std::max(1., std::abs(tEnd))) {
    while (k < N && stepEnd(k) <= t + 1e-14) ++k;
    const Real nominal = stepEnd(k) - t;
    const Real h = scale * nominal;
    const Real tTarget = scale == 1 ? stepEnd(k) : std::min(t + h, tEnd);
    const Real lf = loadFactorAt(tTarget);
    const Real stab = stabilize ? (1 - lf * lf) * st.stabilizerODE2term : 0;
    qStart = state.q;
    lambdaStart = state.lambda;
    // residual [f(q) - Cq^T lambda; C(q)] (lambda with the sign of the dynamic equations)
    auto residual = [&]() {
      ComputeODE2RHS(L, theta, tTarget, state.q.data(), zeroV.data(), lf, r.data());
      ++stats.rhsEvaluations;
      if (nA > 0) {
        AddConstraintReactions(L, theta, tTarget, state.q.data(), zeroV.data(), state.lambda.data(), r.data());
        ComputeAE(L, theta, tTarget, state.q.data(), zeroV.data(), state.lambda.data(), false, r.data() + n);
      }
      if (stab != 0) {
        const auto& Mm = M.Matrix();
        for (int i = 0; i < n; ++i) {
          Real s = 0;
          for (int j = 0; j < n; ++j) s += Mm(i, j) * (state.q[static_cast<size_t>(j)] - qStart[static_cast<size_t>(j)]);
          r[static_cast<size_t>(i)] -= stab * s;
        }
      }
      return Norm2(r);
    };
    Real res = residual();
    // at least one iteration, as in the reference solver: an r0 within the absolute tolerance
    // is raised to twice that tolerance
    Real r0 = res <= nw.absoluteTolerance ? 2 * nw.absoluteTolerance : res;
    bool converged = false;
    int it = 0;
    for (; !converged && it < nw.maxIterations; ++it) {
      J.SetZero();
      ComputeODE2RHSJacobian(L, theta, tTarget, state.q.data(), zeroV.data(), lf, 1., 0., nd, st.computeLoadsJacobian, J);
      if (stab != 0) {
        const auto& Mm = M.Matrix();
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            if (Mm(i, j) != 0) J.add(i, j, -stab * Mm(i, j));
      }
      if (nA > 0) {
        OffsetSink sCq{J, n, 0, 1}, sCqT{J, 0, n, -1}, sLam{J, n, n, 1};
        ComputeAEJacobian(L, theta, tTarget, state.q.data(), zeroV.data(), false, 1, 1, 1, sCq, sCqT, sLam);
      }
      ++stats.jacobianUpdates;
      if (!J.Factorize()) {
        std::string detail;
        for (int i = 0; i < n && detail.empty(); ++i)
          if (J.Matrix().row(i).cwiseAbs().maxCoeff() == 0)
            detail = " (ODE2 coordinate " + std::to_string(i) + " has neither stiffness nor a constraint)";
        throw SolverError("static solver: the Jacobian is singular at load factor " + FormatReal(lf) + detail);
      }
      J.Solve(r.data(), dq.data());
      for (int i = 0; i < n; ++i) state.q[static_cast<size_t>(i)] -= dq[static_cast<size_t>(i)];
      for (int i = 0; i < nA; ++i) state.lambda[static_cast<size_t>(i)] -= dq[static_cast<size_t>(n + i)];
      ++stats.newtonIterations;
      res = residual();
      if (!std::isfinite(res)) break;
      if (it == 0 && nw.adaptInitialResidual && res > r0) r0 = res;
      converged = res / r0 <= nw.relativeTolerance || res <= nw.absoluteTolerance;
    }
    if (!converged) {
      ++stats.rejectedSteps;
      state.q = qStart;
      state.lambda = lambdaStart;
      if (st.adaptiveStep && h * st.adaptiveStepDecrease >= st.minimumStepSize) {
        scale *= st.adaptiveStepDecrease;
        goodSteps = 0;
        continue;
      }
      throw SolverError("static solver: Newton did not converge at load factor " + FormatReal(lf) + " (load step " +
                        FormatReal(tTarget) + ", step size " + FormatReal(h) + ", residual " + FormatReal(res) + ")");
    }
    t = tTarget;
    ++stats.steps;
    state.t = t;
    const bool final = t >= tEnd - 1e-12 * std::max(1., std::abs(tEnd));
    if (recorder) recorder->Step(L, theta, state, final);
    // recover a reduced step after enough good steps with few iterations
    // (the reference counts the post-Newton iteration with the Newton iterations)
    if (scale < 1 && ++goodSteps >= st.adaptiveStepRecoverySteps && it + 1 <= st.adaptiveStepRecoveryIterations) {
      scale = std::min(1., scale * st.adaptiveStepIncrease);
      goodSteps = 0;
    }
  }
}

}  // namespace mbsweep
