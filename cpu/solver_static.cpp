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

/// The load-step schedule of the static solver: where each load step ends and the load
/// factor at a load-step time.
struct LoadStepSchedule {
  const StaticSolverSettings& st;

  /// End of scheduled load step k (1..N): arithmetic t_k = start + k*d/N, or geometric from
  /// d/range with a constant factor.
  Real StepEnd(int k) const {
    const int N = st.numberOfLoadSteps;
    if (!st.loadStepGeometric || N == 1) return st.loadStepStart + st.loadStepDuration * k / N;
    const Real first = st.loadStepDuration / st.loadStepGeometricRange;
    const Real factor = std::pow(st.loadStepGeometricRange, 1. / (N - 1));
    return st.loadStepStart + first * std::pow(factor, k - 1);
  }
  /// Load factor at load-step time t: the fraction of the load-step duration passed (1
  /// without useLoadFactor).
  Real LoadFactorAt(Real t) const { return st.useLoadFactor ? (t - st.loadStepStart) / st.loadStepDuration : 1.; }
};

/// Newton on the static equilibrium of one load step, with its workspace: the residual
/// [f(q) - Cq^T lambda; C(q)] (lambda with the sign of the dynamic equations) at zero
/// velocities, stabilized by -stab M (q - qStart) where stab != 0, and its Jacobian.
class StaticNewton {
 public:
  /// Outcome of one load step's iterations: converged or not, the number of iterations and
  /// the last residual norm.
  struct Result {
    bool converged;
    int iterations;
    Real residual;
  };

  /// Workspace for the system L; the mass matrix for the stabilizer (stabilizerODE2term > 0)
  /// is computed at the state's q.
  StaticNewton(const LayoutView& L, const Real* theta, const StaticSolverSettings& st, SystemState& state,
               SolverStatistics& stats)
      : L_(L),
        theta_(theta),
        st_(st),
        state_(state),
        stats_(stats),
        n_(L.nODE2),
        nA_(L.nAE),
        nd_{st.newton.numericalDifferentiation.relativeEpsilon,
            st.newton.numericalDifferentiation.minimumCoordinateSize},
        zeroV_(static_cast<size_t>(n_), 0.),
        r_(static_cast<size_t>(n_ + nA_)),
        dq_(static_cast<size_t>(n_ + nA_)),
        qStart_(state.q),
        lambdaStart_(state.lambda) {
    J_.Resize(n_ + nA_);
    if (st.stabilizerODE2term > 0) {
      M_.Resize(n_);
      ComputeMassMatrix(L, theta, state.q.data(), M_);
    }
  }

  /// Newton iterations from the state's q and lambda (kept as the step's start) at load-step
  /// time tTarget, load factor lf and stabilizer factor stab. Throws SolverError for a
  /// singular Jacobian.
  Result Solve(Real tTarget, Real lf, Real stab) {
    const auto& nw = st_.newton;
    qStart_ = state_.q;
    lambdaStart_ = state_.lambda;
    Real res = Residual(tTarget, lf, stab);
    // at least one iteration, as in the reference solver: an r0 within the absolute tolerance
    // is raised to twice that tolerance
    Real r0 = res <= nw.absoluteTolerance ? 2 * nw.absoluteTolerance : res;
    bool converged = false;
    int it = 0;
    for (; !converged && it < nw.maxIterations; ++it) {
      AssembleJacobian(tTarget, lf, stab);
      ++stats_.jacobianUpdates;
      if (!J_.Factorize()) ThrowSingularJacobian(lf);
      J_.Solve(r_.data(), dq_.data());
      for (int i = 0; i < n_; ++i) state_.q[static_cast<size_t>(i)] -= dq_[static_cast<size_t>(i)];
      for (int i = 0; i < nA_; ++i) state_.lambda[static_cast<size_t>(i)] -= dq_[static_cast<size_t>(n_ + i)];
      ++stats_.newtonIterations;
      res = Residual(tTarget, lf, stab);
      if (!std::isfinite(res)) break;
      if (it == 0 && nw.adaptInitialResidual && res > r0) r0 = res;
      converged = res / r0 <= nw.relativeTolerance || res <= nw.absoluteTolerance;
    }
    return Result{converged, it, res};
  }

  /// Puts q and lambda back to their values at the start of the last Solve.
  void RestoreStart() {
    state_.q = qStart_;
    state_.lambda = lambdaStart_;
  }

 private:
  /// Evaluates the residual into r_ and returns its norm.
  Real Residual(Real tTarget, Real lf, Real stab) {
    const Real* q = state_.q.data();
    ComputeODE2RHS(L_, theta_, tTarget, q, zeroV_.data(), lf, r_.data());
    ++stats_.rhsEvaluations;
    if (nA_ > 0) {
      AddConstraintReactions(L_, theta_, tTarget, q, zeroV_.data(), state_.lambda.data(), r_.data());
      ComputeAE(L_, theta_, tTarget, q, zeroV_.data(), state_.lambda.data(), false, r_.data() + n_);
    }
    if (stab != 0) {
      const auto& Mm = M_.Matrix();
      for (int i = 0; i < n_; ++i) {
        Real s = 0;
        for (int j = 0; j < n_; ++j) s += Mm(i, j) * (q[j] - qStart_[static_cast<size_t>(j)]);
        r_[static_cast<size_t>(i)] -= stab * s;
      }
    }
    return Norm2(r_);
  }

  /// Assembles the residual's Jacobian with respect to [q; lambda] into J_.
  void AssembleJacobian(Real tTarget, Real lf, Real stab) {
    Real* q = state_.q.data();  // perturbed and restored by the numerical differentiation
    J_.SetZero();
    ComputeODE2RHSJacobian(L_, theta_, tTarget, q, zeroV_.data(), lf, 1., 0., nd_, st_.computeLoadsJacobian, J_);
    if (stab != 0) {
      const auto& Mm = M_.Matrix();
      for (int i = 0; i < n_; ++i)
        for (int j = 0; j < n_; ++j)
          if (Mm(i, j) != 0) J_.add(i, j, -stab * Mm(i, j));
    }
    if (nA_ > 0) {
      OffsetSink sCq{J_, n_, 0, 1}, sCqT{J_, 0, n_, -1}, sLam{J_, n_, n_, 1};
      ComputeAEJacobian(L_, theta_, tTarget, q, zeroV_.data(), false, 1, 1, 1, sCq, sCqT, sLam);
    }
  }

  /// Throws the singular-Jacobian error at load factor lf, naming the first ODE2 coordinate
  /// whose Jacobian row is zero (neither stiffness nor a constraint), if any.
  [[noreturn]] void ThrowSingularJacobian(Real lf) const {
    std::string detail;
    for (int i = 0; i < n_ && detail.empty(); ++i)
      if (J_.Matrix().row(i).cwiseAbs().maxCoeff() == 0)
        detail = " (ODE2 coordinate " + std::to_string(i) + " has neither stiffness nor a constraint)";
    throw SolverError("static solver: the Jacobian is singular at load factor " + FormatReal(lf) + detail);
  }

  const LayoutView& L_;
  const Real* theta_;
  const StaticSolverSettings& st_;
  SystemState& state_;
  SolverStatistics& stats_;
  const int n_, nA_;
  const NumDiff nd_;
  std::vector<Real> zeroV_, r_, dq_;
  std::vector<Real> qStart_, lambdaStart_;
  EigenDenseLA J_, M_;
};

}  // namespace

void SolveStaticSystem(const LayoutView& L, const Real* theta, const SimulationSettings& settings, SystemState& state,
                       SolverStatistics& stats, SensorRecorder* recorder) {
  const auto& st = settings.staticSolver;
  std::fill(state.v.begin(), state.v.end(), 0.);
  std::fill(state.a.begin(), state.a.end(), 0.);
  std::fill(state.lambda.begin(), state.lambda.end(), 0.);
  StaticNewton newton(L, theta, st, state, stats);
  const bool stabilize = st.stabilizerODE2term > 0;

  const LoadStepSchedule schedule{st};
  const Real tStart = st.loadStepStart;
  const Real tEnd = st.loadStepStart + st.loadStepDuration;
  const Real tLast = tEnd - 1e-12 * std::max(1., std::abs(tEnd));  // tEnd less a rounding tolerance
  const int N = st.numberOfLoadSteps;

  state.t = tStart;
  if (recorder) recorder->Start(L, theta, state);

  Real t = tStart;
  int k = 1;       // index of the next scheduled load step end
  Real scale = 1;  // step reduction after Newton failures (recovers after good steps)
  int goodSteps = 0;
  while (t < tLast) {
    while (k < N && schedule.StepEnd(k) <= t + 1e-14) ++k;
    const Real nominal = schedule.StepEnd(k) - t;
    const Real h = scale * nominal;
    const Real tTarget = scale == 1 ? schedule.StepEnd(k) : std::min(t + h, tEnd);
    const Real lf = schedule.LoadFactorAt(tTarget);
    const Real stab = stabilize ? (1 - lf * lf) * st.stabilizerODE2term : 0;
    const StaticNewton::Result result = newton.Solve(tTarget, lf, stab);
    if (!result.converged) {
      ++stats.rejectedSteps;
      newton.RestoreStart();
      if (st.adaptiveStep && h * st.adaptiveStepDecrease >= st.minimumStepSize) {
        scale *= st.adaptiveStepDecrease;
        goodSteps = 0;
        continue;
      }
      throw SolverError("static solver: Newton did not converge at load factor " + FormatReal(lf) + " (load step " +
                        FormatReal(tTarget) + ", step size " + FormatReal(h) + ", residual " +
                        FormatReal(result.residual) + ")");
    }
    t = tTarget;
    ++stats.steps;
    state.t = t;
    const bool final = t >= tLast;
    if (recorder) recorder->Step(L, theta, state, final);
    // recover a reduced step after enough good steps with few iterations
    // (the reference counts the post-Newton iteration with the Newton iterations)
    if (scale < 1 && ++goodSteps >= st.adaptiveStepRecoverySteps &&
        result.iterations + 1 <= st.adaptiveStepRecoveryIterations) {
      scale = std::min(1., scale * st.adaptiveStepIncrease);
      goodSteps = 0;
    }
  }
}

}  // namespace mbsweep
