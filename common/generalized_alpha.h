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
///
/// The run is a sequence of resumable phases (Start, Advance, OnFactorized, OnSolved): the
/// integrator itself only assembles matrices into la_ (SetZero/add) and asks its driver to
/// factorize or solve. Run() is the driver that does so at once with la_'s Factorize/Solve (the
/// fused per-system path); common/lockstep.h drives many systems phase by phase and defers
/// the factorizations and solves to one batched call per phase, with the same arithmetic.
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
  budget_exceeded,    ///< the run's step-attempt budget (maxStepAttempts) ran out before endTime
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

/// What a generalized-alpha run needs from its driver next (GeneralizedAlpha::Advance).
enum class GeneralizedAlphaRequest : int {
  factorize,  ///< factorize the matrix just assembled in la_, then call OnFactorized(ok)
  solve,      ///< solve la_ x = w.res (last factorization) into w.delta, then call OnSolved()
  finished,   ///< the run is over; Info() holds its result
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
  bool weightTolerancePerCoordinate = false;  ///< residual norm divided by sqrt(number of unknowns)
  bool adaptiveStep = true;
  Real adaptiveStepDecrease = 0.5, adaptiveStepIncrease = 2;
  int adaptiveStepRecoverySteps = 10, adaptiveStepRecoveryIterations = 7;
  Real minimumStepSize = 1e-8;
  int maxStepAttempts = 2147483647;  ///< accepted + rejected steps before budget_exceeded
  NumDiff numDiff;
};

/// Workspace of one system: pointers to arrays of the given sizes (caller-owned).
struct GeneralizedAlphaWork {
  Real *q, *v, *a, *aAlg, *lambda, *y, *yt;          // current state [n2,n2,n2,n2,nAE,n1,n1]
  Real *qn, *vn, *an, *aAlgN, *yn, *ytn;             // start of step [n2,n2,n2,n2,n1,n1]
  Real *res, *delta;                                 // [N], [N]
  Real *f2;                                          // [n2]
  Real *fConstant;                                   // [n2] ComputeConstantODE2Forces, if usable
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
/// Swaps the n values of a and b.
MBS_HD_INLINE void SwapValues(Real* a, Real* b, int n) {
  MBS_UNROLL for (int i = 0; i < n; ++i) {
    const Real t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
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
/// velocity terms vanish with a constant mass matrix; loads are not differentiated; not those
/// with a user function) and
/// constraint Jacobians that are constants (coordinate constraints). Such a matrix is
/// factorized once per step size, which changes no result: a recomputed one would be the same
/// bit for bit.
MBS_HD_INLINE bool IterationJacobiansAreConstant(const LayoutView& L) {
  if (L.nConstraintNodes > 0) return false;  // the Euler-parameter norm
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
      case ObjectKind::ConnectorCoordinate: break;
      case ObjectKind::ConnectorCoordinateSpringDamper:
        if (GetObjectRecord(L, i).extra[3] >= 0) return false;  // a user function
        break;
      default: return false;
    }
  }
  return true;
}

/// Solves la x = b; a policy that can also hand each x[i] to f(i, x[i]) as it is computed, and
/// so spare the Newton update a store and a load on the iteration's critical path, overloads
/// this and returns true (DenseLA, cpu/linear_algebra.h). Here: Solve only, false.
template <class LA, class F>
MBS_HD_INLINE bool SolveEach(const LA& la, const Real* b, Real* x, F&&) {
  la.Solve(b, x);
  return false;
}

/// Generalized-alpha integrator of one system. `w` must hold the initial state in q, v, y
/// (lambda is computed); returns the final status in info.
MBS_SCALAR_LOOPS_BEGIN
template <class LA, class Observer>
class GeneralizedAlpha {
 public:
  MBS_HD GeneralizedAlpha(const LayoutView& L, const Real* theta, const GeneralizedAlphaParameters& P,
                          GeneralizedAlphaWork& w, LA& la, Observer& obs)
      : MBS_LAYOUT_INIT(L_, L) theta_(theta), P_(P), w_(w), la_(la), obs_(obs) {
    MBS_LAYOUT_SIZE_INIT(n2_, L.nODE2)
    MBS_LAYOUT_SIZE_INIT(n1_, L.nODE1)
    MBS_LAYOUT_SIZE_INIT(nA_, L.nAE)
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
    aAlgFactor_ = (1 - alphaF_) / (1 - alphaM_);
    constantMass_ = MassMatrixIsConstant(L, theta);
    constantMatrix_ = constantMass_ && IterationJacobiansAreConstant(L);
  }

  /// Runs the whole time span, factorizing and solving with la_ as soon as asked: a tight loop
  /// over the phases below. The Newton iterations that need only a solve (Advance's newtonIterate
  /// without a Jacobian update) go round an inner loop without returning to Advance.
  MBS_HD_HOST_NOINLINE SolveInfo Run() {
    Start();
    for (;;) {
      const GeneralizedAlphaRequest r = Advance();
      if (r == GeneralizedAlphaRequest::solve) {
        if (phase_ != Phase::newtonSolve) {
          la_.Solve(w_.res, w_.delta);
          OnSolved();
          continue;
        }
        for (;;) {
          SolveAndUpdate();
          NewtonIterationDone();
          if (phase_ != Phase::newtonIterate || iterations_ >= P_.maxIterations || fullNewton_ || !haveJacobian_) break;
          phase_ = Phase::newtonSolve;
        }
      } else if (r == GeneralizedAlphaRequest::factorize) {
        OnFactorized(la_.Factorize());
      } else {
        return info_;
      }
    }
  }

  /// Resets the run; `w` holds the initial state in q, v, y. Then call Advance.
  MBS_HD void Start() {
    info_ = SolveInfo{};
    phase_ = Phase::start;
  }

  /// Integrates until the run needs a factorization or a solve of la_, or is finished. Asking
  /// again without OnFactorized/OnSolved returns the same request.
  MBS_HD GeneralizedAlphaRequest Advance() {
    for (;;) {
      switch (phase_) {
        case Phase::start:
          if (BeginRun()) return GeneralizedAlphaRequest::factorize;
          break;
        case Phase::initialFactorize:
        case Phase::jacobianFactorize: return GeneralizedAlphaRequest::factorize;
        case Phase::initialSolve:
        case Phase::newtonSolve: return GeneralizedAlphaRequest::solve;
        case Phase::initialDone:
          SetUpStepping();
          break;
        case Phase::stepStart:
          if (!(t_ < P_.endTime - 1e-10)) {
            info_.t = t_;
            info_.h = h_;
            phase_ = Phase::finished;
            return GeneralizedAlphaRequest::finished;
          }
          if (--attemptsLeft_ < 0) {
            info_.status = SolveStatus::budget_exceeded;
            info_.t = t_;
            info_.h = h_;
            phase_ = Phase::finished;
            return GeneralizedAlphaRequest::finished;
          }
          hStep_ = t_ + h_ > P_.endTime ? P_.endTime - t_ : h_;
          SaveStepStart();
          BeginStep();
          break;
        case Phase::newtonIterate:
          if (iterations_ >= P_.maxIterations) {
            StepEnds(SolveStatus::newton_failed);
            break;
          }
          if ((fullNewton_ || !haveJacobian_) && Jacobian(t1_, hStep_, info_)) {
            phase_ = Phase::jacobianFactorize;
            return GeneralizedAlphaRequest::factorize;
          }
          phase_ = Phase::newtonSolve;
          return GeneralizedAlphaRequest::solve;
        case Phase::stepEnd: EndStep(stepStatus_); break;
        case Phase::finished: return GeneralizedAlphaRequest::finished;
      }
    }
  }

  /// Result of the factorization Advance asked for (false: singular or not finite).
  MBS_HD void OnFactorized(bool ok) {
    if (phase_ == Phase::jacobianFactorize) {
      haveJacobian_ = ok;
      factorH_ = ok ? hStep_ : 0;
      if (ok)
        phase_ = Phase::newtonSolve;
      else
        StepEnds(SolveStatus::singular_matrix);
      return;
    }
    if (ok) {
      phase_ = Phase::initialSolve;
      return;
    }
    for (int i = 0; i < n2_; ++i) w_.a[i] = 0;
    for (int i = 0; i < n1_; ++i) w_.yt[i] = 0;
    info_.singularInitialAccelerations = 1;
    phase_ = Phase::initialDone;
  }

  /// The solve Advance asked for is in w.delta: a Newton iteration's update, residual and tests,
  /// or the initial accelerations.
  MBS_HD void OnSolved() {
    if (phase_ == Phase::newtonSolve) {
      Update();
      NewtonIterationDone();
      return;
    }
    for (int i = 0; i < n2_; ++i) w_.a[i] = w_.delta[i];
    for (int i = 0; i < n1_; ++i) w_.yt[i] = w_.delta[n2_ + i];
    for (int i = 0; i < nA_; ++i) w_.lambda[i] = w_.delta[n2_ + n1_ + i];
    phase_ = Phase::initialDone;
  }

  /// True once Advance has returned finished.
  MBS_HD bool Finished() const { return phase_ == Phase::finished; }
  /// Status and counters (complete once finished).
  MBS_HD const SolveInfo& Info() const { return info_; }

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
  /// iterate, which Predictor overwrites entirely: a pointer swap instead of a copy. Where every
  /// call is inlined (MBSWEEP_INLINE_ALL) the values are swapped instead: with pointers that
  /// never change, a small model's state stays in registers, where a swap costs nothing.
  MBS_HD void SaveStepStart() {
#if defined(MBSWEEP_INLINE_ALL)
    detail::SwapValues(w_.q, w_.qn, n2_);
    detail::SwapValues(w_.v, w_.vn, n2_);
    detail::SwapValues(w_.a, w_.an, n2_);
    detail::SwapValues(w_.aAlg, w_.aAlgN, n2_);
    detail::SwapValues(w_.y, w_.yn, n1_);
    detail::SwapValues(w_.yt, w_.ytn, n1_);
#else
    detail::Swap(w_.q, w_.qn);
    detail::Swap(w_.v, w_.vn);
    detail::Swap(w_.a, w_.an);
    detail::Swap(w_.aAlg, w_.aAlgN);
    detail::Swap(w_.y, w_.yn);
    detail::Swap(w_.yt, w_.ytn);
#endif
  }
  /// Back to the start of the step (after a rejected step).
  MBS_HD void RestoreStepStart() { SaveStepStart(); }

  /// Assembles [M Cq^T; Cq 0][a0; lambda0] = [f; -(Cq v)_q v] (ODE1 rows: yt0 = f1(y0)) into
  /// la_ and w.res; OnFactorized/OnSolved take the solution (a0 = 0 if singular).
  MBS_HD void InitialAccelerations(Real t, SolveInfo& info) {
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
  }

  /// After a Newton iteration's update: count it, then residual and tests (NewtonTest).
  MBS_HD void NewtonIterationDone() {
    ++iterations_;
    ++info_.newtonIterations;
    NewtonTest();
  }

  /// Residual at the current iterate; returns its (unscaled) squared norm, divided by the number
  /// of unknowns with weightTolerancePerCoordinate; res holds the ODE2 rows scaled by beta h^2
  /// afterwards.
  MBS_HD Real ResidualSq(Real t, Real h, SolveInfo& info) {
    Real* r = w_.res;
    if (constantForces_ && !variableForces_)
      for (int i = 0; i < n2_; ++i) w_.f2[i] = w_.fConstant[i];
    else if (constantForces_)
      ComputeODE2RHSFromConstant(L_, theta_, t, w_.q, w_.v, w_.fConstant, w_.f2, &timeFunctions_);
    else
      ComputeODE2RHS(L_, theta_, t, w_.q, w_.v, 1, w_.f2, &timeFunctions_);
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
    return P_.weightTolerancePerCoordinate ? sq / N_ : sq;
  }

  /// Assembles the iteration matrix into la_ and returns true (to be factorized), or returns
  /// false if la_ already holds the factorization for this step size.
  MBS_HD bool Jacobian(Real t, Real h, SolveInfo& info) {
    if (constantMatrix_ && factorH_ == h) {
      haveJacobian_ = true;
      return false;
    }
    const Real bh2 = beta_ * h * h;
    const Real betaP = stepBetaP_, gammaP = stepGammaP_;  // h is the step attempt's
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
      ComputeAEJacobian(L_, theta_, t, w_.q, w_.v, P_.index2, gammaP, 1, stepInverseBh2_, sCq, sCqT, sLam);
    }
    ++info.jacobianUpdates;
    return true;
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
      // After a rejected attempt the reference solver starts the retry from the algorithmic
      // accelerations its failed predictor left (it restores them at the start of the step only
      // for a Newton restart); they are in w_.aAlg then (RejectStep, SaveStepStart).
      // a choice per value, not between pointers: no pointer into the workspace depends on data
      const bool fromRejected = predictFromRejected_;
      predictFromRejected_ = false;
      MBS_NO_OVERLAP
      for (int i = 0; i < n2_; ++i) {
        const Real b = fromRejected ? w_.aAlg[i] : w_.aAlgN[i];
        w_.q[i] = w_.qn[i] + h * w_.vn[i] + h * h * (0.5 - beta_) * b;
        w_.v[i] = w_.vn[i] + h * (1 - gamma_) * b;
        w_.aAlg[i] = (alphaF_ * w_.an[i] - alphaM_ * b) / (1 - alphaM_);
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

  /// The Newton update's factors (the step attempt's, BeginStep) in locals, and the squared norms
  /// of q, v and lambda that it sums for NewtonTest's divergence test while the values pass by.
  struct Updater {
    Real betaP, gammaP, lambdaFactor, ode1Factor;
    Real nq, nv, nl;
  };
  MBS_HD Updater MakeUpdater() const {
    return Updater{stepBetaP_, stepGammaP_, stepInverseBh2_, stepODE1Factor_, 0, 0, 0};
  }
  /// The update by the increment di of ODE2 coordinate i, ODE1 coordinate i, multiplier i.
  MBS_HD_FORCEINLINE void UpdateODE2(Updater& u, int i, Real di) {
    const Real qi = w_.q[i] - di, vi = w_.v[i] - u.gammaP * di;
    w_.q[i] = qi;
    w_.v[i] = vi;
    w_.a[i] -= u.betaP * di;
    u.nq += qi * qi;
    u.nv += vi * vi;
  }
  MBS_HD_FORCEINLINE void UpdateODE1(const Updater& u, int i, Real di) {
    w_.y[i] -= di;
    w_.yt[i] -= u.ode1Factor * di;
  }
  MBS_HD_FORCEINLINE void UpdateAE(Updater& u, int i, Real di) {
    const Real li = w_.lambda[i] - di * u.lambdaFactor;
    w_.lambda[i] = li;
    u.nl += li * li;
  }
  MBS_HD void StoreNorms(const Updater& u) {
    normQSq_ = u.nq;
    normVSq_ = u.nv;
    normLambdaSq_ = u.nl;
  }

  /// Newton update of the iterate by the increments in w.delta.
  MBS_HD void Update() {
    Updater u = MakeUpdater();
    const Real* d = w_.delta;
    MBS_NO_OVERLAP
    for (int i = 0; i < n2_; ++i) UpdateODE2(u, i, d[i]);
    for (int i = 0; i < n1_; ++i) UpdateODE1(u, i, d[n2_ + i]);
    const Real* dl = d + n2_ + n1_;
    MBS_NO_OVERLAP
    for (int i = 0; i < nA_; ++i) UpdateAE(u, i, dl[i]);
    StoreNorms(u);
  }

  /// The update of unknown i (ODE2, ODE1, algebraic) by its increment, for SolveEach.
  struct UpdateSink {
    GeneralizedAlpha& ga;
    Updater& u;
    int n2, n21;
    MBS_HD_FORCEINLINE void operator()(int i, Real di) const {
      if (i < n2)
        ga.UpdateODE2(u, i, di);
      else if (i < n21)
        ga.UpdateODE1(u, i - n2, di);
      else
        ga.UpdateAE(u, i - n21, di);
    }
  };
  /// A Newton iteration's solve and update: where la_'s SolveEach hands the increments over
  /// (DenseLA up to 8 unknowns) the update takes each as it comes, otherwise Solve and Update.
  MBS_HD void SolveAndUpdate() {
    Updater u = MakeUpdater();
    if (SolveEach(la_, w_.res, w_.delta, UpdateSink{*this, u, n2_, n2_ + n1_}))
      StoreNorms(u);
    else
      Update();
  }

  /// Start of the run: zero initial accelerations and multipliers; true if the initial
  /// accelerations are to be computed (their matrix is assembled, to be factorized).
  MBS_HD_COLD bool BeginRun() {
    t_ = P_.startTime;
    // the loads that depend on theta only, once per run (ComputeODE2RHSFromConstant)
    const LayoutView& L = L_;
    constantForces_ = L.nConstantForces > 0 && ComputeConstantODE2Forces(L, theta_, w_.fConstant);
    variableForces_ = !VariableForcesVanish(L_, theta_);
    for (int i = 0; i < n1_; ++i) w_.yt[i] = 0;
    for (int i = 0; i < nA_; ++i) w_.lambda[i] = 0;
    for (int i = 0; i < n2_; ++i) w_.a[i] = 0;
    if (P_.computeInitialAccelerations) {
      InitialAccelerations(t_, info_);
      phase_ = Phase::initialFactorize;
      return true;
    }
    phase_ = Phase::initialDone;
    return false;
  }
  /// Initial accelerations known: constant mass diagonal, observer start, first step size.
  MBS_HD_COLD void SetUpStepping() {
    for (int i = 0; i < n2_; ++i) w_.aAlg[i] = w_.a[i];
    diagonalMass_ = false;
    if (constantMass_) {
      for (int i = 0; i < n2_; ++i) w_.massDiagonal[i] = 0;
      detail::DiagonalSink sd{w_.massDiagonal, true};
      ComputeMassMatrix(L_, theta_, w_.q, sd);
      diagonalMass_ = sd.diagonal;
    }
    obs_.OnStart(View(t_));
    hMax_ = (P_.endTime - P_.startTime) / P_.numberOfSteps;
    h_ = hMax_;
    goodSteps_ = 0;
    attemptsLeft_ = P_.maxStepAttempts;
    haveJacobian_ = false;
    phase_ = Phase::stepStart;
  }

  /// Starts the step from the saved start state to t1_ = t_ + hStep_: predictor and the first
  /// residual (Newton with Exudyn's convergence test follows in newtonIterate and OnSolved).
  MBS_HD void BeginStep() {
    t1_ = t_ + hStep_;
    const Real h = hStep_;
    stepBetaP_ = (1 - alphaM_) / (h * h * beta_ * (1 - alphaF_));
    stepGammaP_ = gamma_ / (h * beta_);
    stepInverseBh2_ = 1 / (beta_ * h * h);
    stepODE1Factor_ = 2 / h;
    iterations_ = 0;
    const bool modified = P_.useModifiedNewton;
    fullNewton_ = !modified;
    // as in the reference, a new step size alone (step reduction or increase, the clipped last
    // step) does not update the Jacobian of modified Newton
    if (modified && P_.modifiedNewtonJacUpdatePerStep) haveJacobian_ = false;
    restarted_ = false;
    extraIteration_ = false;
    PredictAndTest();
  }

  /// Predictor and the initial residual r0 of the step attempt. Newton always makes at least one
  /// iteration: an r0 within the absolute tolerance is raised to twice that tolerance.
  MBS_HD void PredictAndTest() {
    Predictor(hStep_);
    const Real sq = ResidualSq(t1_, hStep_, info_);
    const Real atol = P_.absoluteTolerance;
    SetInitialResidual(sq <= atol * atol ? 4 * atol * atol : sq);
    phase_ = Phase::newtonIterate;
  }

  /// r0^2 of the step attempt: also the current and last residual, and the convergence bound.
  /// The tests compare squared norms (r/r0 <= relTol or r <= absTol as r^2 <= max(relTol r0,
  /// absTol)^2; contractivity r/r_last > c as r^2 > c^2 r_last^2): no square root or division
  /// stands between a residual and the branch on it.
  MBS_HD void SetInitialResidual(Real r0Sq) {
    r0Sq_ = r0Sq;
    residualSq_ = r0Sq;
    lastResidualSq_ = r0Sq;
    const Real rtol2 = P_.relativeTolerance * P_.relativeTolerance * r0Sq,
               atol2 = P_.absoluteTolerance * P_.absoluteTolerance;
    convergedSq_ = rtol2 > atol2 ? rtol2 : atol2;
  }

  /// After a Newton update: residual, convergence, divergence and the modified-Newton rules
  /// (Exudyn's CSolverImplicitSecondOrder.cpp and CSolverBase.cpp), in the reference solver's order:
  /// - convergence first (r/r0 <= relTol or r <= absTol); after a restart one more iteration;
  /// - not converged: divergence (q or v norm^2 >= maximumSolutionNorm, or not finite) ends the
  ///   attempt under full Newton; a Jacobian update after maxModifiedNewtonIterations
  ///   iterations, full Newton after maxModifiedNewtonIterations + maxModifiedNewtonRestartIterations;
  /// - from the third iteration, a contractivity r/r_last above modifiedNewtonContractivity (or
  ///   divergence) updates the Jacobian; a second such event switches to full Newton; divergence,
  ///   contractivity above 2 or full Newton restart the step attempt from its start.
  MBS_HD void NewtonTest() {
    residualSq_ = ResidualSq(t1_, hStep_, info_);
    if (iterations_ == 1 && P_.adaptInitialResidual && residualSq_ > r0Sq_) SetInitialResidual(residualSq_);
    const bool converged = residualSq_ <= convergedSq_;
    if (converged && !extraIteration_) return StepEnds(SolveStatus::ok);
    phase_ = Phase::newtonIterate;
    if (converged) {
      extraIteration_ = false;
      return;
    }
    extraIteration_ = false;
    const bool diverged = !(normQSq_ < P_.maximumSolutionNorm) || !(normVSq_ < P_.maximumSolutionNorm) ||
                          !(normLambdaSq_ == normLambdaSq_) || !(residualSq_ == residualSq_);
    if (diverged && fullNewton_) return StepEnds(SolveStatus::diverged);
    if (fullNewton_) return;
    if (iterations_ > P_.maxModifiedNewtonIterations) haveJacobian_ = false;
    const int restartLimit =
        P_.maxModifiedNewtonIterations + (P_.modifiedNewtonJacUpdatePerStep ? 0 : P_.maxModifiedNewtonRestartIterations);
    if (iterations_ > restartLimit) {
      fullNewton_ = true;
      return;
    }
    const Real c = P_.modifiedNewtonContractivity, lastSq = lastResidualSq_;
    lastResidualSq_ = residualSq_;
    if (!diverged && !(iterations_ > 2 && residualSq_ > c * c * lastSq)) return;
    haveJacobian_ = false;
    if (restarted_) fullNewton_ = true;
    if (diverged || residualSq_ > 4 * lastSq || fullNewton_) RestartStep();  // contractivity > 2
  }

  /// The step attempt ends with status st (EndStep follows in Advance).
  MBS_HD void StepEnds(SolveStatus st) {
    stepStatus_ = st;
    phase_ = Phase::stepEnd;
  }

  /// End of a step attempt: accept it (next step) or reject it (smaller step, or the end of
  /// the run with a failure status).
  MBS_HD void EndStep(SolveStatus st) {
    phase_ = Phase::stepStart;
    if (st == SolveStatus::ok) {
      // the squared norm of a, summed where the update of a_alg reads a anyway
      Real aSq = 0;
      if (!P_.useNewmark) {
        // A system at rest keeps an algorithmic mode that decays by -alpha_m/(1 - alpha_m) per
        // step into the subnormal range and then sits at the smallest subnormal for good. On
        // x86 every operation on a subnormal costs about a hundred cycles (the benchmark
        // oscillator, at rest after 20 of its 100 s, ran 2.3e6 instead of 9.3e6 steps/s).
        // Values below the smallest normal double are set to 0 (NaN is kept); no coordinate moves.
        constexpr Real kSmallestNormal = 2.2250738585072014e-308;
        MBS_NO_OVERLAP
        for (int i = 0; i < n2_; ++i) {
          const Real ai = w_.a[i];
          const Real x = w_.aAlg[i] + aAlgFactor_ * ai;
          w_.aAlg[i] = fabs(x) < kSmallestNormal ? Real(0) : x;
          aSq += ai * ai;
        }
      } else {
        for (int i = 0; i < n2_; ++i) aSq += w_.a[i] * w_.a[i];
      }
      if (!(normQSq_ < P_.maximumSolutionNorm && normVSq_ < P_.maximumSolutionNorm && aSq < P_.maximumSolutionNorm)) {
        // a converged step whose solution is beyond maximumSolutionNorm (a linear system
        // converges whatever the size of its solution; a mass of 1e-300 kg gives accelerations
        // of 1e302): mbsweep's addition to the reference's rules, so that such a run is not ok
        info_.status = SolveStatus::diverged;
        info_.t = t_;
        info_.h = hStep_;
        info_.residual = sqrt(residualSq_);
        phase_ = Phase::finished;
        return;
      }
      t_ = t_ + hStep_ >= P_.endTime - 1e-10 ? P_.endTime : t_ + hStep_;
      ++info_.steps;
      const bool final = t_ >= P_.endTime - 1e-10;
      obs_.OnStep(View(t_), final);
      // the reference counts the (single) post-Newton iteration with the Newton iterations
      if (P_.adaptiveStep && h_ < hMax_ && ++goodSteps_ >= P_.adaptiveStepRecoverySteps &&
          iterations_ + 1 <= P_.adaptiveStepRecoveryIterations) {
        h_ = h_ * P_.adaptiveStepIncrease < hMax_ ? h_ * P_.adaptiveStepIncrease : hMax_;
        goodSteps_ = 0;
      }
      return;
    }
    RejectStep(st);
  }

  /// Modified Newton failed: the step attempt starts again from its start state with a fresh
  /// Jacobian; the iteration count goes on, r0 stays, and one iteration more is required after
  /// convergence.
  MBS_HD_COLD void RestartStep() {
    restarted_ = true;
    haveJacobian_ = false;
    Predictor(hStep_);  // from the start-of-step arrays, as at the step's start
    ResidualSq(t1_, hStep_, info_);
    residualSq_ = r0Sq_;
    lastResidualSq_ = r0Sq_;
    extraIteration_ = true;
  }

  /// A failed step attempt: back to its start with a smaller step, or the end of the run.
  MBS_HD_COLD void RejectStep(SolveStatus st) {
    RestoreStepStart();
    ++info_.rejectedSteps;
    goodSteps_ = 0;
    predictFromRejected_ = true;
    if (!P_.adaptiveStep || !(h_ > P_.minimumStepSize)) {
      info_.status = P_.adaptiveStep ? SolveStatus::step_too_small : st;
      if (st == SolveStatus::diverged || st == SolveStatus::singular_matrix) info_.status = st;
      info_.t = t_;
      info_.h = hStep_;
      info_.residual = sqrt(residualSq_);
      phase_ = Phase::finished;
      return;
    }
    h_ = h_ * P_.adaptiveStepDecrease > P_.minimumStepSize ? h_ * P_.adaptiveStepDecrease : P_.minimumStepSize;
  }

  /// Resume points of the run (Advance, OnFactorized, OnSolved).
  enum class Phase : unsigned char {
    start,              ///< Start() was called
    initialFactorize,   ///< waiting for the initial-acceleration matrix's factorization
    initialSolve,       ///< waiting for the initial-acceleration solve
    initialDone,        ///< initial accelerations known: set up and begin stepping
    stepStart,          ///< begin the next step (or finish)
    newtonIterate,      ///< next Newton iteration: iteration limit, Jacobian, solve
    jacobianFactorize,  ///< waiting for the iteration matrix's factorization
    newtonSolve,        ///< waiting for the Newton solve
    stepEnd,            ///< the step attempt ended with stepStatus_: accept or reject it
    finished,
  };

  MBS_LAYOUT_MEMBER(L_);
  const Real* theta_;
  const GeneralizedAlphaParameters& P_;
  GeneralizedAlphaWork& w_;
  LA& la_;
  Observer& obs_;
  MBS_LAYOUT_SIZE_MEMBER(n2_, nODE2);
  MBS_LAYOUT_SIZE_MEMBER(n1_, nODE1);
  MBS_LAYOUT_SIZE_MEMBER(nA_, nAE);
  int N_ = 0;
  Real alphaM_ = 0, alphaF_ = 0, gamma_ = 0, beta_ = 0;
  Real aAlgFactor_ = 0;  ///< (1 - alphaF) / (1 - alphaM): the end-of-step update of aAlg
  bool haveJacobian_ = false;
  bool constantMass_ = false;    ///< MassMatrixIsConstant
  bool diagonalMass_ = false;    ///< w_.massDiagonal holds the constant diagonal mass matrix
  bool constantMatrix_ = false;  ///< iteration matrix depends on h only: reuse the factorization for the same h
  Real factorH_ = 0;             ///< step size of the factorization la_ holds (0: none)
  // run and step-control state (kept between phases)
  Phase phase_ = Phase::start;
  SolveInfo info_;
  Real t_ = 0, h_ = 0, hMax_ = 0;  ///< time reached, step size, largest step size
  Real hStep_ = 0, t1_ = 0;        ///< size and end time of the current step attempt
  /// The step attempt's Newton factors (BeginStep), for Jacobian and Update: beta' = d a / d delta,
  /// gamma' = d v / d delta, 1 / (beta h^2) = d lambda / d delta, 2 / h = d y_t / d delta
  Real stepBetaP_ = 0, stepGammaP_ = 0, stepInverseBh2_ = 0, stepODE1Factor_ = 0;
  bool constantForces_ = false;  ///< w_.fConstant holds the constant loads (BeginRun)
  bool variableForces_ = true;   ///< the variable force list adds something (BeginRun)
  TimeFunctionCache timeFunctions_;  ///< the loads' time functions at the residuals' time
  int goodSteps_ = 0;              ///< accepted steps since the last step-size change
  int attemptsLeft_ = 0;           ///< step attempts left of maxStepAttempts
  // Newton state of the current step attempt
  int iterations_ = 0;
  Real residualSq_ = 0, r0Sq_ = 0, lastResidualSq_ = 0;  ///< squared residual norms
  Real convergedSq_ = 0;                                ///< converged at residualSq_ <= this
  Real normQSq_ = 0, normVSq_ = 0, normLambdaSq_ = 0;   ///< of the iterate (Update)
  bool fullNewton_ = false;
  bool restarted_ = false;       ///< the step attempt was restarted (RestartStep)
  bool extraIteration_ = false;  ///< after a restart: one iteration more once converged
  bool predictFromRejected_ = false;  ///< the next predictor starts from the rejected attempt's aAlg
  SolveStatus stepStatus_ = SolveStatus::ok;  ///< how the step attempt ended (Phase::stepEnd)
};
MBS_SCALAR_LOOPS_END

}  // namespace mbsweep
