/// @file generalized_alpha.h
/// The implicit generalized-alpha DAE integrator (Arnold and Bruls 2007, in Exudyn's variant),
/// written once as host/device code and templated on a linear-algebra policy and an
/// observer. The CPU reference solver instantiates it with Eigen dense/sparse LU, the
/// batch path with a fixed-capacity dense LU.
///
/// Equations:  M(q) q_tt = f(t, q, q_t) - C_q^T lambda,  C(q, t) = 0 (index 3; velocity level
/// in index-2 mode),  y_t = f1(t, y). Newton unknowns: displacement increment dq (ODE2 rows
/// scaled by beta h^2), ODE1 increment dy, and a scaled multiplier increment.
///
/// LA policy:  SetZero(); add(i, j, v); bool Factorize(); Solve(const Real* b, Real* x).
/// Observer:   OnStart(const StateView&); OnStep(const StateView&, bool final).
#pragma once

#include "common/constraints.h"
#include "common/outputs.h"

namespace mbsweep {

/// Status of one system's solve (per system in a batch).
enum class SolveStatus : int {
  ok = 0,
  newton_failed,      ///< Newton did not converge and the step could not be reduced further
  step_too_small,     ///< step size fell below minimumStepSize
  diverged,           ///< non-finite or exploding solution
  invalid_parameter,  ///< a parameter violates its rule (batch path)
  singular_matrix,    ///< singular iteration matrix that step reduction could not cure
};

/// Counters and failure information of one solve.
struct SolveInfo {
  SolveStatus status = SolveStatus::ok;
  Real t = 0;          ///< time reached (failure time on failure)
  Real h = 0;          ///< step size at failure (last step size otherwise)
  Real residual = 0;   ///< residual norm at failure
  int steps = 0, rejectedSteps = 0, newtonIterations = 0, jacobianUpdates = 0, rhsEvaluations = 0;
  int singularInitialAccelerations = 0;  ///< 1 if the initial-acceleration system was singular (a0 = 0 used)
};

/// Plain-data settings of the generalized-alpha integrator (from SimulationSettings).
struct GeneralizedAlphaParameters {
  Real startTime = 0, endTime = 1;
  int numberOfSteps = 100;
  Real spectralRadius = 0.9;
  bool useNewmark = false;
  Real newmarkBeta = 0.25, newmarkGamma = 0.5;
  bool index2 = false;
  bool computeInitialAccelerations = true;
  Real relativeTolerance = 1e-8, absoluteTolerance = 1e-10;
  int maxIterations = 25;
  bool useModifiedNewton = false;
  int maxModifiedNewtonIterations = 8;
  int maxModifiedNewtonRestartIterations = 7;
  Real modifiedNewtonContractivity = 0.5;
  bool modifiedNewtonJacUpdatePerStep = false;
  bool adaptInitialResidual = true;
  Real maximumSolutionNorm = 1e38;
  bool adaptiveStep = true;
  Real adaptiveStepDecrease = 0.5, adaptiveStepIncrease = 2;
  int adaptiveStepRecoverySteps = 10, adaptiveStepRecoveryIterations = 7;
  Real minimumStepSize = 1e-8;
  NumDiff numDiff;
};

/// Workspace of one system: pointers to arrays of the given sizes (caller-owned).
struct GeneralizedAlphaWork {
  Real *q, *v, *a, *aAlg, *lambda, *y, *yt;          // current state [n2,n2,n2,n2,nAE,n1,n1]
  Real *qn, *vn, *an, *aAlgN, *yn, *ytn;             // start of step [n2,n2,n2,n2,n1,n1]
  Real *res, *delta;                                 // [N], [N]
  Real *f2;                                          // [n2]
  Real *massDiagonal;                                // [n2] constant diagonal mass matrix, if any
  Real *ae;                                          // [nAE]
  Real *ae2;                                         // [nAE]
};

namespace detail {
/// Sink adapter: adds s * v at (i + r0, j + c0).
template <class LA> struct OffsetSink {
  LA& la;
  int r0, c0;
  Real s;
  MBS_HD void add(int i, int j, Real v) { la.add(i + r0, j + c0, s * v); }
};
/// Sink that accumulates M * x into out (M never stored).
struct MultiplySink {
  const Real* x;
  Real* out;
  MBS_HD void add(int i, int j, Real v) { out[i] += v * x[j]; }
};
/// Sink that stores a mass matrix's diagonal; `diagonal` turns false at an off-diagonal entry
/// or at a second contribution to one diagonal entry (whose sum would round differently
/// from the entry-by-entry product M * a).
struct DiagonalSink {
  Real* d;
  bool diagonal;
  MBS_HD void add(int i, int j, Real v) {
    if (i != j || d[i] != 0) diagonal = false;
    d[i] += v;
  }
};
MBS_HD_INLINE void Swap(Real*& a, Real*& b) {
  Real* t = a;
  a = b;
  b = t;
}
MBS_HD_INLINE Real NormSq(const Real* x, int n) {
  Real s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}
}  // namespace detail

/// True if, with a constant mass matrix (MassMatrixIsConstant), the iteration matrix of
/// layout L depends on the step size only: right-hand-side Jacobians that are analytic
/// constants (coordinate spring-dampers, generic ODE2/ODE1 objects; planar rigid bodies, whose
/// velocity terms vanish with a constant mass matrix; loads are not differentiated) and
/// constraint Jacobians that are constants (coordinate constraints). Such a matrix is
/// factorized once per step size, which changes no result: a recomputed one would be the same
/// bit for bit.
MBS_HD_INLINE bool IterationJacobiansAreConstant(const LayoutView& L) {
  for (int i = 0; i < L.nNodes; ++i)
    if (GetNodeRecord(L, i).nAE) return false;
  for (int i = 0; i < L.nObjects; ++i) {
    switch (static_cast<ObjectKind>(L.object[i].kind)) {
      case ObjectKind::Ground:
      case ObjectKind::MassPoint:
      case ObjectKind::MassPoint2D:
      case ObjectKind::Mass1D:
      case ObjectKind::RotationalMass1D:
      case ObjectKind::RigidBody2D:
      case ObjectKind::GenericODE2:
      case ObjectKind::GenericODE1:
      case ObjectKind::ConnectorCoordinateSpringDamper:
      case ObjectKind::ConnectorCoordinate: break;
      default: return false;
    }
  }
  return true;
}

/// Generalized-alpha integrator of one system. `w` must hold the initial state in q, v, y
/// (lambda is computed); returns the final status in info.
template <class LA, class Observer>
class GeneralizedAlpha {
 public:
  MBS_HD GeneralizedAlpha(const LayoutView& L, const Real* theta, const GeneralizedAlphaParameters& P,
                          GeneralizedAlphaWork& w, LA& la, Observer& obs)
      : L_(L), theta_(theta), P_(P), w_(w), la_(la), obs_(obs) {
    n2_ = L.nODE2;
    n1_ = L.nODE1;
    nA_ = L.nAE;
    N_ = n2_ + n1_ + nA_;
    if (P.useNewmark) {
      alphaM_ = 0.5;
      alphaF_ = 0.5;
      gamma_ = P.newmarkGamma;
      beta_ = P.newmarkBeta;
    } else {
      const Real rho = P.spectralRadius;
      alphaM_ = (2 * rho - 1) / (rho + 1);
      alphaF_ = rho / (rho + 1);
      gamma_ = 0.5 + alphaF_ - alphaM_;
      beta_ = 0.25 * (gamma_ + 0.5) * (gamma_ + 0.5);
    }
    constantMass_ = MassMatrixIsConstant(L, theta);
    constantMatrix_ = constantMass_ && IterationJacobiansAreConstant(L);
  }

  MBS_HD SolveInfo Run() {
    SolveInfo info;
    Real t = P_.startTime;
    StateView sv = View(t);
    for (int i = 0; i < n1_; ++i) w_.yt[i] = 0;
    for (int i = 0; i < nA_; ++i) w_.lambda[i] = 0;
    for (int i = 0; i < n2_; ++i) w_.a[i] = 0;
    if (P_.computeInitialAccelerations && !InitialAccelerations(t, info)) info.singularInitialAccelerations = 1;
    for (int i = 0; i < n2_; ++i) w_.aAlg[i] = w_.a[i];
    diagonalMass_ = false;
    if (constantMass_) {
      for (int i = 0; i < n2_; ++i) w_.massDiagonal[i] = 0;
      detail::DiagonalSink sd{w_.massDiagonal, true};
      ComputeMassMatrix(L_, theta_, w_.q, sd);
      diagonalMass_ = sd.diagonal;
    }
    obs_.OnStart(sv);

    const Real hMax = (P_.endTime - P_.startTime) / P_.numberOfSteps;
    Real h = hMax;
    int goodSteps = 0;
    haveJacobian_ = false;
    while (t < P_.endTime - 1e-10) {
      const Real hStep = t + h > P_.endTime ? P_.endTime - t : h;
      SaveStepStart();
      int iterations = 0;
      Real residual = 0;
      const SolveStatus st = Step(t + hStep, hStep, iterations, residual, info);
      if (st == SolveStatus::ok) {
        const Real c = (1 - alphaF_) / (1 - alphaM_);
        if (!P_.useNewmark)
          MBS_NO_OVERLAP
          for (int i = 0; i < n2_; ++i) w_.aAlg[i] += c * w_.a[i];
        t = t + hStep >= P_.endTime - 1e-10 ? P_.endTime : t + hStep;
        ++info.steps;
        const bool final = t >= P_.endTime - 1e-10;
        obs_.OnStep(View(t), final);
        if (P_.adaptiveStep && h < hMax && ++goodSteps >= P_.adaptiveStepRecoverySteps &&
            iterations <= P_.adaptiveStepRecoveryIterations) {
          h = h * P_.adaptiveStepIncrease < hMax ? h * P_.adaptiveStepIncrease : hMax;
          goodSteps = 0;
        }
        continue;
      }
      RestoreStepStart();
      ++info.rejectedSteps;
      goodSteps = 0;
      haveJacobian_ = false;
      if (!P_.adaptiveStep || h * P_.adaptiveStepDecrease < P_.minimumStepSize) {
        info.status = P_.adaptiveStep ? SolveStatus::step_too_small : st;
        if (st == SolveStatus::diverged || st == SolveStatus::singular_matrix) info.status = st;
        info.t = t;
        info.h = hStep;
        info.residual = residual;
        return info;
      }
      h *= P_.adaptiveStepDecrease;
    }
    info.t = t;
    info.h = h;
    return info;
  }

  /// Parameters derived from the spectral radius (for tests and statistics).
  MBS_HD Real AlphaM() const { return alphaM_; }
  MBS_HD Real AlphaF() const { return alphaF_; }
  MBS_HD Real Gamma() const { return gamma_; }
  MBS_HD Real Beta() const { return beta_; }

 private:
  MBS_HD StateView View(Real t) const {
    StateView s;
    s.t = t;
    s.q = w_.q;
    s.v = w_.v;
    s.a = w_.a;
    s.y = w_.y;
    s.yt = w_.yt;
    s.lambda = w_.lambda;
    return s;
  }
  /// The start-of-step arrays take the current state and the current arrays become the
  /// iterate, which Predictor overwrites entirely: a pointer swap instead of a copy.
  MBS_HD void SaveStepStart() {
    detail::Swap(w_.q, w_.qn);
    detail::Swap(w_.v, w_.vn);
    detail::Swap(w_.a, w_.an);
    detail::Swap(w_.aAlg, w_.aAlgN);
    detail::Swap(w_.y, w_.yn);
    detail::Swap(w_.yt, w_.ytn);
  }
  /// Back to the start of the step (after a rejected step).
  MBS_HD void RestoreStepStart() { SaveStepStart(); }

  /// [M Cq^T; Cq 0][a0; lambda0] = [f; -(Cq v)_q v]; ODE1 rows: yt0 = f1(y0).
  MBS_HD bool InitialAccelerations(Real t, SolveInfo& info) {
    factorH_ = 0;  // la_ no longer holds an iteration matrix
    la_.SetZero();
    detail::OffsetSink<LA> sM{la_, 0, 0, 1};
    ComputeMassMatrix(L_, theta_, w_.q, sM);
    for (int i = 0; i < n1_; ++i) la_.add(n2_ + i, n2_ + i, 1);
    detail::OffsetSink<LA> sCq{la_, n2_ + n1_, 0, 1}, sCqT{la_, 0, n2_ + n1_, 1}, sLam{la_, n2_ + n1_, n2_ + n1_, 1};
    if (nA_ > 0) ComputeAEJacobian(L_, theta_, t, w_.q, w_.v, false, 1, 1, 1, sCq, sCqT, sLam);
    Real* rhs = w_.res;
    ComputeODE2RHS(L_, theta_, t, w_.q, w_.v, 1, w_.f2);
    ++info.rhsEvaluations;
    for (int i = 0; i < n2_; ++i) rhs[i] = w_.f2[i];
    if (n1_ > 0) ComputeODE1RHS(L_, theta_, t, w_.y, rhs + n2_);
    for (int i = 0; i < nA_; ++i) rhs[n2_ + n1_ + i] = 0;
    if (nA_ > 0 && detail::NormSq(w_.v, n2_) > 1e-20) {
      // -(Cq v)_q v by forward differences of g(q) = Cq(q) v (velocity-level equations)
      ComputeAE(L_, theta_, t, w_.q, w_.v, w_.lambda, true, w_.ae);
      for (int j = 0; j < n2_; ++j) {
        if (w_.v[j] == 0) continue;
        const Real q0 = w_.q[j];
        const Real eps = DiffEpsilon(P_.numDiff, q0);
        w_.q[j] = q0 + eps;
        ComputeAE(L_, theta_, t, w_.q, w_.v, w_.lambda, true, w_.ae2);
        w_.q[j] = q0;
        for (int r = 0; r < nA_; ++r) rhs[n2_ + n1_ + r] -= (w_.ae2[r] - w_.ae[r]) / eps * w_.v[j];
      }
    }
    if (!la_.Factorize()) {
      for (int i = 0; i < n2_; ++i) w_.a[i] = 0;
      for (int i = 0; i < n1_; ++i) w_.yt[i] = 0;
      return false;
    }
    la_.Solve(rhs, w_.delta);
    for (int i = 0; i < n2_; ++i) w_.a[i] = w_.delta[i];
    for (int i = 0; i < n1_; ++i) w_.yt[i] = w_.delta[n2_ + i];
    for (int i = 0; i < nA_; ++i) w_.lambda[i] = w_.delta[n2_ + n1_ + i];
    return true;
  }

  /// Residual at the current iterate; returns its (unscaled) norm; res holds the ODE2 rows
  /// scaled by beta h^2 afterwards.
  MBS_HD Real Residual(Real t, Real h, SolveInfo& info) {
    Real* r = w_.res;
    ComputeODE2RHS(L_, theta_, t, w_.q, w_.v, 1, w_.f2);
    ++info.rhsEvaluations;
    if (nA_ > 0) AddConstraintReactionsAndAE(L_, theta_, t, w_.q, w_.v, w_.lambda, P_.index2, w_.f2, r + n2_ + n1_);
    // the ODE2 rows M a - f, summed into the norm and scaled in the same pass
    const Real s = beta_ * h * h;
    Real sq = 0;
    if (diagonalMass_) {
      MBS_NO_OVERLAP
      for (int i = 0; i < n2_; ++i) {
        const Real ri = -w_.f2[i] + w_.massDiagonal[i] * w_.a[i];
        sq += ri * ri;
        r[i] = ri * s;
      }
    } else {
      for (int i = 0; i < n2_; ++i) r[i] = -w_.f2[i];
      detail::MultiplySink ms{w_.a, r};
      ComputeMassMatrix(L_, theta_, w_.q, ms);
      MBS_NO_OVERLAP
      for (int i = 0; i < n2_; ++i) {
        sq += r[i] * r[i];
        r[i] *= s;
      }
    }
    if (n1_ > 0) {
      ComputeODE1RHS(L_, theta_, t, w_.y, r + n2_);
      for (int i = 0; i < n1_; ++i) r[n2_ + i] -= w_.yt[i];
    }
    for (int i = n2_; i < N_; ++i) sq += r[i] * r[i];
    return sqrt(sq);
  }

  MBS_HD bool Jacobian(Real t, Real h, SolveInfo& info) {
    if (constantMatrix_ && factorH_ == h) return haveJacobian_ = true;
    const Real bh2 = beta_ * h * h;
    const Real betaP = (1 - alphaM_) / (h * h * beta_ * (1 - alphaF_));
    const Real gammaP = gamma_ / (h * beta_);
    la_.SetZero();
    detail::OffsetSink<LA> sM{la_, 0, 0, betaP * bh2};
    ComputeMassMatrix(L_, theta_, w_.q, sM);
    detail::OffsetSink<LA> sK{la_, 0, 0, 1};
    ComputeODE2RHSJacobian(L_, theta_, t, w_.q, w_.v, 1, -bh2, -gammaP * bh2, P_.numDiff, false, sK);
    if (n1_ > 0) {
      detail::OffsetSink<LA> s1{la_, n2_, n2_, 1};
      ComputeODE1RHSJacobian(L_, theta_, 1, s1);
      for (int i = 0; i < n1_; ++i) la_.add(n2_ + i, n2_ + i, -2 / h);
    }
    if (nA_ > 0) {
      detail::OffsetSink<LA> sCq{la_, n2_ + n1_, 0, 1}, sCqT{la_, 0, n2_ + n1_, 1}, sLam{la_, n2_ + n1_, n2_ + n1_, 1};
      ComputeAEJacobian(L_, theta_, t, w_.q, w_.v, P_.index2, gammaP, 1, 1 / bh2, sCq, sCqT, sLam);
    }
    ++info.jacobianUpdates;
    haveJacobian_ = la_.Factorize();
    factorH_ = haveJacobian_ ? h : 0;
    return haveJacobian_;
  }

  MBS_HD void Predictor(Real h) {
    const Real bh2 = beta_ * h * h;
    if (P_.useNewmark) {
      for (int i = 0; i < n2_; ++i) {
        w_.q[i] = w_.qn[i] + h * w_.vn[i] + h * h * (0.5 - beta_) * w_.an[i];
        w_.v[i] = w_.vn[i] + h * (1 - gamma_) * w_.an[i];
        w_.a[i] = 0;
      }
    } else {
      MBS_NO_OVERLAP
      for (int i = 0; i < n2_; ++i) {
        w_.q[i] = w_.qn[i] + h * w_.vn[i] + h * h * (0.5 - beta_) * w_.aAlgN[i];
        w_.v[i] = w_.vn[i] + h * (1 - gamma_) * w_.aAlgN[i];
        w_.aAlg[i] = (alphaF_ * w_.an[i] - alphaM_ * w_.aAlgN[i]) / (1 - alphaM_);
        w_.q[i] += bh2 * w_.aAlg[i];
        w_.v[i] += h * gamma_ * w_.aAlg[i];
        w_.a[i] = 0;
      }
    }
    for (int i = 0; i < nA_; ++i) w_.lambda[i] = 0;
    for (int i = 0; i < n1_; ++i) {
      w_.y[i] = w_.yn[i] + 0.5 * h * w_.ytn[i];
      w_.yt[i] = 0;
    }
  }

  MBS_HD void Update(Real h) {
    const Real bh2 = beta_ * h * h;
    const Real betaP = (1 - alphaM_) / (h * h * beta_ * (1 - alphaF_));
    const Real gammaP = gamma_ / (h * beta_);
    const Real* d = w_.delta;
    MBS_NO_OVERLAP
    for (int i = 0; i < n2_; ++i) {
      w_.q[i] -= d[i];
      w_.v[i] -= gammaP * d[i];
      w_.a[i] -= betaP * d[i];
    }
    for (int i = 0; i < n1_; ++i) {
      w_.y[i] -= d[n2_ + i];
      w_.yt[i] -= (2 / h) * d[n2_ + i];
    }
    for (int i = 0; i < nA_; ++i) w_.lambda[i] -= d[n2_ + n1_ + i] / bh2;
  }

  /// One step from the saved start state to time t1; Newton with Exudyn's convergence test.
  MBS_HD SolveStatus Step(Real t1, Real h, int& iterations, Real& residual, SolveInfo& info) {
    Predictor(h);
    residual = Residual(t1, h, info);
    Real r0 = residual <= P_.absoluteTolerance ? 2 * P_.absoluteTolerance : residual;
    bool converged = residual <= P_.absoluteTolerance;
    const bool modified = P_.useModifiedNewton;
    bool fullNewton = !modified;
    if (modified && (P_.modifiedNewtonJacUpdatePerStep || h != lastH_)) haveJacobian_ = false;
    lastH_ = h;
    int restarts = 0;
    Real lastResidual = residual;
    iterations = 0;
    while (!converged) {
      if (iterations >= P_.maxIterations) return SolveStatus::newton_failed;
      if (fullNewton || !haveJacobian_) {
        if (!Jacobian(t1, h, info)) return SolveStatus::singular_matrix;
      }
      la_.Solve(w_.res, w_.delta);
      Update(h);
      ++iterations;
      ++info.newtonIterations;
      residual = Residual(t1, h, info);
      const bool diverged = !(residual == residual) || residual * residual >= P_.maximumSolutionNorm ||
                            !(detail::NormSq(w_.q, n2_) < P_.maximumSolutionNorm);
      if (modified && !fullNewton) {
        const Real contractivity = residual / (lastResidual > 0 ? lastResidual : 1);
        if (diverged || contractivity > 2) {
          // restart the step from its start with a fresh Jacobian and full Newton
          if (++restarts > 1) return SolveStatus::diverged;
          fullNewton = true;
          haveJacobian_ = false;
          Predictor(h);
          residual = Residual(t1, h, info);
          r0 = residual <= P_.absoluteTolerance ? 2 * P_.absoluteTolerance : residual;
          lastResidual = residual;
          converged = residual <= P_.absoluteTolerance;
          continue;
        }
        if ((iterations >= 2 && contractivity > P_.modifiedNewtonContractivity) ||
            iterations >= P_.maxModifiedNewtonIterations)
          haveJacobian_ = false;  // update the Jacobian at the current iterate
        if (iterations >= P_.maxModifiedNewtonIterations + P_.maxModifiedNewtonRestartIterations) fullNewton = true;
      } else if (diverged) {
        return SolveStatus::diverged;
      }
      if (iterations == 1 && P_.adaptInitialResidual && residual > r0) r0 = residual;
      lastResidual = residual;
      converged = residual / r0 <= P_.relativeTolerance || residual <= P_.absoluteTolerance;
    }
    if (fullNewton && modified) haveJacobian_ = false;  // next step: modified Newton with a fresh Jacobian
    return SolveStatus::ok;
  }

  const LayoutView& L_;
  const Real* theta_;
  const GeneralizedAlphaParameters& P_;
  GeneralizedAlphaWork& w_;
  LA& la_;
  Observer& obs_;
  int n2_ = 0, n1_ = 0, nA_ = 0, N_ = 0;
  Real alphaM_ = 0, alphaF_ = 0, gamma_ = 0, beta_ = 0;
  bool haveJacobian_ = false;
  Real lastH_ = -1;
  bool constantMass_ = false;    ///< MassMatrixIsConstant
  bool diagonalMass_ = false;    ///< w_.massDiagonal holds the constant diagonal mass matrix
  bool constantMatrix_ = false;  ///< iteration matrix depends on h only: reuse the factorization for the same h
  Real factorH_ = 0;             ///< step size of the factorization la_ holds (0: none)
};

}  // namespace mbsweep
