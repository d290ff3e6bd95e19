/// @file explicit_rk.h
/// Explicit integrators written once as host/device code, templated on a linear-algebra
/// policy and an observer like common/generalized_alpha.h: fixed-step Runge-Kutta methods
/// (ExplicitEuler, ExplicitMidpoint, RK33, RK44, RK67), embedded methods with Exudyn's
/// step-size control (ODE23, DOPRI5) and velocity Verlet. The CPU reference solver
/// instantiates it with Eigen's dense LU (cpu/solver_explicit.cpp), the batch path with a
/// fixed-capacity dense LU.
///
/// Second-order systems are integrated in first-order form Y = [q, q_t, y]:
///   q' = q_t,  q_t' = M(q)^-1 f(t, q, q_t),  y' = f1(t, y).
/// Algebraic equations (constraints) as Exudyn's explicit solver treats them:
///  - eliminateConstraints (default): every constraint must be a coordinate constraint to
///    ground (the layout's elimination table, layout_records.h) with offset 0 and
///    factor1 1, else the run ends with invalid_parameter before the first step. The
///    listed coordinates and their velocities are set to 0 after every completed step (in
///    the new and, for ODE23/DOPRI5, the embedded solution before the error estimate), and
///    their end-of-step accelerations too; the stages and the initial state are not
///    touched. Lagrange multipliers stay 0 (not reported).
///  - without it: the equations are ignored, the system integrated as if they were absent.
/// Node equations (the Euler-parameter norm of NodeRigidBodyEP) end the run with
/// invalid_parameter in both cases.
///
/// LA policy:  SetZero(); add(i, j, v); bool Factorize(); Solve(const Real* b, Real* x), for
///             the nODE2 x nODE2 mass matrix (assembled with ComputeMassMatrix, the policy is
///             the sink). Factorized once when the layout's mass matrix is constant and
///             reuseConstantMassMatrix is set, else at every right-hand-side evaluation.
/// Observer:   OnStart(const StateView&); OnStep(const StateView&, bool final).
///
/// No allocation, no exceptions: failures end the run with a SolveStatus in SolveInfo
/// (singular_matrix: the mass matrix could not be factorized; diverged: a non-finite state,
/// or a squared norm of q or v beyond maximumSolutionNorm, after a step; step_too_small: the
/// step-size control cannot make progress, see Run(); budget_exceeded: maxStepAttempts ran out).
#pragma once

#include <cfloat>

#include "common/generalized_alpha.h"  // SolveStatus, SolveInfo
#include "common/kinds.h"
#include "common/outputs.h"
#include "common/system.h"

namespace mbsweep {

/// Largest number of stages of the explicit methods (RK67 and DOPRI5).
constexpr int kMaxExplicitStages = 7;

/// Butcher tableau of an explicit method: a is strictly lower triangular (a[s][j], j < s).
struct ExplicitTableau {
  int stages = 0;      ///< 0: not a Runge-Kutta method (velocity Verlet, implicit types)
  int errorOrder = 0;  ///< p in hOpt = h err^(-1/p) for embedded methods; 0: no error estimate
  Real a[kMaxExplicitStages][kMaxExplicitStages] = {};
  Real b[kMaxExplicitStages] = {};
  Real bEmbedded[kMaxExplicitStages] = {};  ///< embedded weights (errorOrder > 0 only)
  Real c[kMaxExplicitStages] = {};
};

/// The tableau of an explicit Runge-Kutta type (stages = 0 for any other type). A constexpr
/// function so that host and device see the same compile-time constants.
// NOLINTNEXTLINE(readability-function-size): a data table, the published coefficients of each method
MBS_HD constexpr ExplicitTableau ExplicitTableauOf(DynamicSolverType type) {
  ExplicitTableau t;
  switch (type) {
    case DynamicSolverType::ExplicitEuler:
      t.stages = 1;
      t.b[0] = 1;
      break;
    case DynamicSolverType::ExplicitMidpoint:
      t.stages = 2;
      t.a[1][0] = 0.5;
      t.b[1] = 1;
      t.c[1] = 0.5;
      break;
    case DynamicSolverType::RK33:  // Heun's third-order method
      t.stages = 3;
      t.a[1][0] = 1. / 3.;
      t.a[2][1] = 2. / 3.;
      t.b[0] = 0.25;
      t.b[2] = 0.75;
      t.c[1] = 1. / 3.;
      t.c[2] = 2. / 3.;
      break;
    case DynamicSolverType::RK44:
      t.stages = 4;
      t.a[1][0] = 0.5;
      t.a[2][1] = 0.5;
      t.a[3][2] = 1;
      t.b[0] = 1. / 6.;
      t.b[1] = 1. / 3.;
      t.b[2] = 1. / 3.;
      t.b[3] = 1. / 6.;
      t.c[1] = 0.5;
      t.c[2] = 0.5;
      t.c[3] = 1;
      break;
    case DynamicSolverType::RK67:
      // Butcher (1964), 7 stages, order 6. The coefficients involve s5 = sqrt(5); they are
      // the doubles that the host computes from the formulas in the comments (round-trip
      // 17-digit literals, checked by tests/common/test_explicit_rk.cpp), so that device
      // code (which may contract a*b+c into an FMA) uses the very same numbers.
      t.stages = 7;
      t.a[1][0] = 0.27639320225002101;    // (5 - s5) / 10
      t.a[2][0] = -0.22360679774997899;   // -s5 / 10
      t.a[2][1] = 0.94721359549995798;    // (5 + 2 s5) / 10
      t.a[3][0] = 0.032623792124926429;   // (-15 + 7 s5) / 20
      t.a[3][1] = 0.30901699437494745;    // (-1 + s5) / 4
      t.a[3][2] = -0.065247584249852858;  // (15 - 7 s5) / 10
      t.a[4][0] = 0.046065533708336839;   // (5 - s5) / 60
      t.a[4][2] = 1. / 6.;
      t.a[4][3] = 0.51087459737497543;   // (15 + 7 s5) / 60
      t.a[5][0] = 0.12060113295832983;   // (5 + s5) / 60
      t.a[5][2] = -0.18169499062491243;  // (9 - 5 s5) / 12
      t.a[5][3] = 1. / 6.;
      t.a[5][4] = 0.17082039324993695;  // (-5 + 3 s5) / 10
      t.a[6][0] = 1. / 6.;
      t.a[6][2] = 0.075141619791228464;  // (-55 + 25 s5) / 12
      t.a[6][3] = -3.3877063202082112;   // (-25 - 7 s5) / 12
      t.a[6][4] = 0.52786404500042039;   // 5 - 2 s5
      t.a[6][5] = 3.6180339887498949;    // (5 + s5) / 2
      t.b[0] = 1. / 12.;
      t.b[4] = 5. / 12.;
      t.b[5] = 5. / 12.;
      t.b[6] = 1. / 12.;
      t.c[1] = 0.27639320225002101;  // (5 - s5) / 10
      t.c[2] = 0.72360679774997894;  // (5 + s5) / 10
      t.c[3] = 0.27639320225002101;
      t.c[4] = 0.72360679774997894;
      t.c[5] = 0.27639320225002101;
      t.c[6] = 1;
      break;
    case DynamicSolverType::ODE23:  // Bogacki-Shampine 3(2)
      t.stages = 4;
      t.errorOrder = 3;
      t.a[1][0] = 0.5;
      t.a[2][1] = 0.75;
      t.a[3][0] = 2. / 9.;
      t.a[3][1] = 1. / 3.;
      t.a[3][2] = 4. / 9.;
      t.b[0] = 2. / 9.;
      t.b[1] = 1. / 3.;
      t.b[2] = 4. / 9.;
      t.bEmbedded[0] = 7. / 24.;
      t.bEmbedded[1] = 0.25;
      t.bEmbedded[2] = 1. / 3.;
      t.bEmbedded[3] = 0.125;
      t.c[1] = 0.5;
      t.c[2] = 0.75;
      t.c[3] = 1;
      break;
    case DynamicSolverType::DOPRI5:  // Dormand-Prince 5(4)
      t.stages = 7;
      t.errorOrder = 5;
      t.a[1][0] = 1. / 5.;
      t.a[2][0] = 3. / 40.;
      t.a[2][1] = 9. / 40.;
      t.a[3][0] = 44. / 45.;
      t.a[3][1] = -56. / 15.;
      t.a[3][2] = 32. / 9.;
      t.a[4][0] = 19372. / 6561.;
      t.a[4][1] = -25360. / 2187.;
      t.a[4][2] = 64448. / 6561.;
      t.a[4][3] = -212. / 729.;
      t.a[5][0] = 9017. / 3168.;
      t.a[5][1] = -355. / 33.;
      t.a[5][2] = 46732. / 5247.;
      t.a[5][3] = 49. / 176.;
      t.a[5][4] = -5103. / 18656.;
      t.a[6][0] = 35. / 384.;
      t.a[6][2] = 500. / 1113.;
      t.a[6][3] = 125. / 192.;
      t.a[6][4] = -2187. / 6784.;
      t.a[6][5] = 11. / 84.;
      t.b[0] = 35. / 384.;
      t.b[2] = 500. / 1113.;
      t.b[3] = 125. / 192.;
      t.b[4] = -2187. / 6784.;
      t.b[5] = 11. / 84.;
      t.bEmbedded[0] = 5179. / 57600.;
      t.bEmbedded[2] = 7571. / 16695.;
      t.bEmbedded[3] = 393. / 640.;
      t.bEmbedded[4] = -92097. / 339200.;
      t.bEmbedded[5] = 187. / 2100.;
      t.bEmbedded[6] = 1. / 40.;
      t.c[1] = 0.2;
      t.c[2] = 0.3;
      t.c[3] = 0.8;
      t.c[4] = 8. / 9.;
      t.c[5] = 1;
      t.c[6] = 1;
      break;
    default: break;
  }
  return t;
}

/// True for the types ExplicitIntegrator handles (the Runge-Kutta family and VelocityVerlet).
MBS_HD_INLINE bool IsExplicitSolverType(DynamicSolverType type) {
  return type == DynamicSolverType::VelocityVerlet || ExplicitTableauOf(type).stages > 0;
}

/// Plain-data settings of the explicit integrators (from SimulationSettings.timeIntegration;
/// names and defaults as there).
struct ExplicitParameters {
  DynamicSolverType solverType = DynamicSolverType::DOPRI5;
  Real startTime = 0, endTime = 1;
  int numberOfSteps = 100;        ///< maximum step size (endTime - startTime) / numberOfSteps
  bool automaticStepSize = true;  ///< ODE23/DOPRI5: error control (else fixed steps)
  Real absoluteTolerance = 1e-8;  ///< error control
  Real relativeTolerance = 1e-8;  ///< error control
  Real initialStepSize = 0;       ///< 0: the maximum step size
  Real minimumStepSize = 1e-8;
  Real stepSizeMaxIncrease = 2;
  Real stepSizeSafety = 0.9;
  bool reuseConstantMassMatrix = true;
  bool computeEndOfStepAccelerations = true;  ///< else a and yt stay 0 for the observer
  bool eliminateConstraints = true;           ///< explicitIntegration.eliminateConstraints (see the file comment)
  Real maximumSolutionNorm = 1e38;            ///< a squared norm of q or v beyond: diverged (mbsweep's addition)
  int maxStepAttempts = 2147483647;           ///< accepted + rejected steps before budget_exceeded
};

/// Workspace of one system: pointers to caller-owned arrays (N = 2 nODE2 + nODE1). Which
/// arrays a type needs: see MakeExplicitWork. Y and Yn are exchanged (pointer swap) on
/// every accepted Runge-Kutta step: read the final state through w.Y after Run().
struct ExplicitWork {
  Real* Y;                      ///< [N] state [q; q_t; y]: initial on entry, final on return
  Real* Yn;                     ///< [N] new state (Runge-Kutta)
  Real* Ytmp;                   ///< [N] stage argument (Runge-Kutta)
  Real* Yemb;                   ///< [N] embedded solution (ODE23, DOPRI5)
  Real* K[kMaxExplicitStages];  ///< [N] each: stage derivatives (the first `stages`)
  Real* a;                      ///< [nODE2] accelerations reported to the observer
  Real* yt;                     ///< [nODE1] ODE1 derivatives reported to the observer
  Real* f;                      ///< [nODE2] force vector scratch
  Real* aVV;                    ///< [nODE2] velocity Verlet accelerations
  Real* f1;                     ///< [nODE1] velocity Verlet ODE1 right-hand side
};

/// Number of Reals MakeExplicitWork takes from its buffer.
MBS_HD_INLINE int ExplicitWorkSize(DynamicSolverType type, int nODE2, int nODE1) {
  const int N = 2 * nODE2 + nODE1;
  if (type == DynamicSolverType::VelocityVerlet) return N + 3 * nODE2 + 2 * nODE1;
  const ExplicitTableau t = ExplicitTableauOf(type);
  return (3 + (t.errorOrder > 0 ? 1 : 0) + t.stages) * N + 2 * nODE2 + nODE1;
}

/// Partitions `buffer` (ExplicitWorkSize Reals) into a workspace; arrays a type does not use
/// are nullptr.
MBS_HD_INLINE ExplicitWork MakeExplicitWork(DynamicSolverType type, int nODE2, int nODE1, Real* buffer) {
  const int N = 2 * nODE2 + nODE1;
  ExplicitWork w{};
  Real* p = buffer;
  w.Y = p;
  p += N;
  w.a = p;
  p += nODE2;
  w.yt = p;
  p += nODE1;
  w.f = p;
  p += nODE2;
  if (type == DynamicSolverType::VelocityVerlet) {
    w.aVV = p;
    p += nODE2;
    w.f1 = p;
    return w;
  }
  const ExplicitTableau t = ExplicitTableauOf(type);
  w.Yn = p;
  p += N;
  w.Ytmp = p;
  p += N;
  if (t.errorOrder > 0) {
    w.Yemb = p;
    p += N;
  }
  for (int s = 0; s < t.stages; ++s) {
    w.K[s] = p;
    p += N;
  }
  return w;
}

namespace detail {
/// std::min / std::max semantics (including which argument a NaN comparison returns), for
/// host and device alike.
MBS_HD_INLINE Real MinLikeStd(Real a, Real b) { return (b < a) ? b : a; }
MBS_HD_INLINE Real MaxLikeStd(Real a, Real b) { return (a < b) ? b : a; }
MBS_HD_INLINE bool IsFiniteReal(Real x) { return fabs(x) <= DBL_MAX; }  // false for inf and NaN
}  // namespace detail

/// Explicit integrator of one system. `w.Y` must hold the initial state [q; q_t; y]; Run()
/// integrates from startTime to endTime and returns the status, counters, the time reached
/// and the last step size in SolveInfo. On return w.Y holds the state at info.t (on failure:
/// the last accepted state, or the new state if the failure came after accepting it;
/// velocity Verlet with a mass matrix that becomes singular within a step: that step's
/// partial update), and w.a / w.yt the accelerations last computed for the observer.
template <class LA, class Observer> class ExplicitIntegrator {
 public:
  MBS_HD ExplicitIntegrator(const LayoutView& L, const Real* theta, const ExplicitParameters& P, ExplicitWork& w,
                            LA& la, Observer& obs)
      : MBS_LAYOUT_INIT(L_, L) theta_(theta), P_(P), w_(w), la_(la), obs_(obs), tab_(ExplicitTableauOf(P.solverType)) {
    MBS_LAYOUT_SIZE_INIT(n2_, L.nODE2)
    MBS_LAYOUT_SIZE_INIT(n1_, L.nODE1)
    N_ = 2 * n2_ + n1_;
    constantMass_ = P.reuseConstantMassMatrix && MassMatrixIsConstant(L, theta);
    nEliminated_ = P.eliminateConstraints ? L.nEliminated : 0;
  }

  /// Runs the integration. Step-size control of ODE23/DOPRI5 (with automaticStepSize) is
  /// Exudyn's: err = RMS over all components of (Yemb - Y1) / (atol + max(Yemb, Y0) rtol),
  /// hOpt = h (1/err)^(1/p), hNew = min(hMax, maxIncrease h, max(hMin, safety hOpt)); the
  /// step is rejected if hOpt < h and h > hMin; the last step ends exactly at endTime.
  /// Where that rule rejects the same step size twice in a row from the same state (this
  /// happens when the remaining step to endTime is just above minimumStepSize and too
  /// large for the tolerance), it would repeat forever; Run() then stops with
  /// step_too_small instead (results of every run that terminates are unchanged).
  /// Constraints: see the file comment (invalid_parameter where they cannot be eliminated).
  MBS_HD SolveInfo Run() {
    SolveInfo info;
    info.t = P_.startTime;
    const LayoutView& L = L_;
    const bool constraintsOk =
        L.nConstraintNodes == 0 && (L.nAE == 0 || !P_.eliminateConstraints || ConstraintsEliminable(L, theta_));
    if (!constraintsOk || !IsExplicitSolverType(P_.solverType) || P_.numberOfSteps <= 0) {
      info.status = SolveStatus::invalid_parameter;
      return info;
    }
    for (int i = 0; i < n2_; ++i) w_.a[i] = 0;  // explicit solvers start with a = 0
    for (int i = 0; i < n1_; ++i) w_.yt[i] = 0;
    massFactorized_ = false;
    obs_.OnStart(View(P_.startTime));
    if (P_.solverType == DynamicSolverType::VelocityVerlet) return RunVelocityVerlet(info);
    if (tab_.errorOrder > 0 && P_.automaticStepSize) return RunAdaptive(info);
    return RunFixed(info);
  }

  /// The tableau in use (stages = 0 for velocity Verlet).
  MBS_HD const ExplicitTableau& Tableau() const { return tab_; }
  /// Size N = 2 nODE2 + nODE1 of the first-order state.
  MBS_HD int Size() const { return N_; }

 private:
  MBS_HD StateView View(Real t) const {
    StateView s;
    s.t = t;
    s.q = w_.Y;
    s.v = w_.Y + n2_;
    s.a = w_.a;
    s.y = w_.Y + 2 * n2_;
    s.yt = w_.yt;
    s.lambda = nullptr;  // no algebraic variables
    return s;
  }

  MBS_HD static SolveInfo Fail(SolveInfo& info, SolveStatus status, Real t, Real h, Real residual = 0) {
    info.status = status;
    info.t = t;
    info.h = h;
    info.residual = residual;
    return info;
  }

  /// Assembles and factorizes M(q) unless a constant one is already factorized.
  MBS_HD bool FactorizeMass(const Real* q) {
    if (constantMass_ && massFactorized_) return true;
    la_.SetZero();
    ComputeMassMatrix(L_, theta_, q, la_);
    if (!la_.Factorize()) return false;
    massFactorized_ = true;
    return true;
  }

  /// dY = [q_t, M^-1 f, f1] at (t, Y); false if the mass matrix is singular.
  MBS_HD bool Eval(Real t, const Real* Y, Real* dY, SolveInfo& info) {
    ++info.rhsEvaluations;
    const Real* q = Y;
    const Real* v = Y + n2_;
    const Real* y = Y + 2 * n2_;
    for (int i = 0; i < n2_; ++i) dY[i] = v[i];
    if (n2_ > 0) {
      ComputeODE2RHS(L_, theta_, t, q, v, 1., w_.f);
      if (!FactorizeMass(q)) return false;
      la_.Solve(w_.f, dY + n2_);
    }
    if (n1_ > 0) ComputeODE1RHS(L_, theta_, t, y, dY + 2 * n2_);
    return true;
  }

  /// Accelerations M^-1 f at (t, q, v) (not counted as a right-hand-side evaluation).
  MBS_HD bool Accelerations(Real t, const Real* q, const Real* v, Real* a) {
    if (n2_ == 0) return true;
    ComputeODE2RHS(L_, theta_, t, q, v, 1., w_.f);
    if (!FactorizeMass(q)) return false;
    la_.Solve(w_.f, a);
    return true;
  }

  /// Sets the eliminated coordinates and their velocities in Y = [q; q_t; y] to 0.
  MBS_HD void EliminateCoordinates(Real* Y) const {
    for (int k = 0; k < nEliminated_; ++k) {
      const int i = EliminatedCoordinate(L_, k);
      Y[i] = 0;
      Y[n2_ + i] = 0;
    }
  }
  /// Sets the accelerations a[nODE2] of the eliminated coordinates to 0.
  MBS_HD void EliminateAccelerations(Real* a) const {
    for (int k = 0; k < nEliminated_; ++k) a[EliminatedCoordinate(L_, k)] = 0;
  }

  /// After an accepted step to t: end-of-step accelerations, finiteness check, observer.
  MBS_HD SolveStatus EndOfStep(Real t, bool final) {
    const Real* Y = w_.Y;
    if (P_.computeEndOfStepAccelerations && ObserverDue(obs_, t, final)) {
      if (!Accelerations(t, Y, Y + n2_, w_.a)) return SolveStatus::singular_matrix;
      EliminateAccelerations(w_.a);
      if (n1_ > 0) ComputeODE1RHS(L_, theta_, t, Y + 2 * n2_, w_.yt);
    }
    Real qSq = 0, vSq = 0;
    for (int i = 0; i < n2_; ++i) {
      qSq += Y[i] * Y[i];
      vSq += Y[n2_ + i] * Y[n2_ + i];
    }
    // false for NaN and infinities too: the finiteness of q and v needs no loop of its own
    if (!(qSq < P_.maximumSolutionNorm && vSq < P_.maximumSolutionNorm)) return SolveStatus::diverged;
    for (int i = 2 * n2_; i < N_; ++i)
      if (!detail::IsFiniteReal(Y[i])) return SolveStatus::diverged;
    obs_.OnStep(View(t), final);
    return SolveStatus::ok;
  }

  MBS_HD bool ComputeStages(Real t, Real h, SolveInfo& info) {
    for (int s = 0; s < tab_.stages; ++s) {
      Combine(tab_.a[s], s, h, w_.Ytmp);
      if (!Eval(t + tab_.c[s] * h, w_.Ytmp, w_.K[s], info)) return false;
    }
    return true;
  }

  /// out = Y + sum over the first S stages of h b[s] K[s] (each element summed in stage order).
  MBS_HD void Combine(const Real* b, int S, Real h, Real* out) const {
    const Real* Y = w_.Y;
    MBS_NO_OVERLAP
    for (int i = 0; i < N_; ++i) out[i] = Y[i];
    for (int s = 0; s < S; ++s) {
      if (b[s] == 0) continue;
      const Real hb = h * b[s];
      const Real* K = w_.K[s];
      MBS_NO_OVERLAP
      for (int i = 0; i < N_; ++i) out[i] += hb * K[i];
    }
  }

  MBS_HD void AcceptNewState() {
    Real* tmp = w_.Y;
    w_.Y = w_.Yn;
    w_.Yn = tmp;
  }

  MBS_HD SolveInfo RunFixed(SolveInfo& info) {
    const Real t0 = P_.startTime, tEnd = P_.endTime;
    const int n = P_.numberOfSteps;
    const Real hMax = (tEnd - t0) / n;
    Real t = t0;
    for (int step = 0; step < n; ++step) {
      const Real h = step + 1 == n ? tEnd - t : hMax;
      if (step >= P_.maxStepAttempts) return Fail(info, SolveStatus::budget_exceeded, t, h);
      if (!ComputeStages(t, h, info)) return Fail(info, SolveStatus::singular_matrix, t, h);
      Combine(tab_.b, tab_.stages, h, w_.Yn);
      EliminateCoordinates(w_.Yn);
      AcceptNewState();
      t = step + 1 == n ? tEnd : t + h;
      ++info.steps;
      const SolveStatus st = EndOfStep(t, step + 1 == n);
      if (st != SolveStatus::ok) return Fail(info, st, t, h);
      info.h = h;
    }
    info.t = t;
    return info;
  }

  /// Embedded methods with Exudyn's step-size control (see Run()).
  MBS_HD SolveInfo RunAdaptive(SolveInfo& info) {
    const Real t0 = P_.startTime, tEnd = P_.endTime;
    const Real hMax = (tEnd - t0) / P_.numberOfSteps;
    const Real hMin = P_.minimumStepSize;
    Real h = P_.initialStepSize > 0 ? detail::MinLikeStd(P_.initialStepSize, hMax) : hMax;
    Real t = t0;
    const Real p = static_cast<Real>(tab_.errorOrder);
    Real lastRejected = -1;  // step size of the last rejection since the last accepted step
    while (t < tEnd - 1e-10) {
      if (info.steps + info.rejectedSteps >= P_.maxStepAttempts) return Fail(info, SolveStatus::budget_exceeded, t, h);
      const bool last = t + h >= tEnd - 1e-10;
      const Real hStep = last ? tEnd - t : h;
      if (!ComputeStages(t, hStep, info)) return Fail(info, SolveStatus::singular_matrix, t, hStep);
      Combine(tab_.b, tab_.stages, hStep, w_.Yn);
      Combine(tab_.bEmbedded, tab_.stages, hStep, w_.Yemb);
      EliminateCoordinates(w_.Yn);
      EliminateCoordinates(w_.Yemb);
      Real sum = 0;
      for (int i = 0; i < N_; ++i) {
        const Real sc = P_.absoluteTolerance + detail::MaxLikeStd(w_.Yemb[i], w_.Y[i]) * P_.relativeTolerance;
        const Real e = (w_.Yemb[i] - w_.Yn[i]) / sc;
        sum += e * e;
      }
      Real err = N_ > 0 ? sqrt(sum / N_) : 0;
      if (err == 0) err = 1e-12;
      const Real hOpt = hStep * pow(1. / err, 1. / p);
      const Real hNew = detail::MinLikeStd(detail::MinLikeStd(hMax, P_.stepSizeMaxIncrease * hStep),
                                           detail::MaxLikeStd(hMin, P_.stepSizeSafety * hOpt));
      if (hOpt < hStep && hStep > hMin) {
        ++info.rejectedSteps;
        // the same step from the same state again: the rule would reject it forever
        if (hStep == lastRejected) return Fail(info, SolveStatus::step_too_small, t, hStep, err);
        lastRejected = hStep;
        h = hNew;
        continue;
      }
      lastRejected = -1;
      AcceptNewState();
      t = last ? tEnd : t + hStep;
      ++info.steps;
      const SolveStatus st = EndOfStep(t, last);
      if (st != SolveStatus::ok) return Fail(info, st, t, hStep, err);
      info.h = hStep;
      h = hNew;
    }
    info.t = t;
    return info;
  }

  /// v += h/2 a; q += h v; a = M^-1 f(q, v); v += h/2 a; ODE1 by explicit Euler. The
  /// accelerations start from M^-1 f at the initial state (as Exudyn's implementation does:
  /// second order for position-dependent forces, first order with velocity-dependent ones,
  /// since f is evaluated with the half-step velocity).
  MBS_HD SolveInfo RunVelocityVerlet(SolveInfo& info) {
    const Real t0 = P_.startTime, tEnd = P_.endTime;
    const int n = P_.numberOfSteps;
    const Real hMax = (tEnd - t0) / n;
    Real t = t0;
    for (int i = 0; i < n2_; ++i) w_.aVV[i] = 0;
    if (!Accelerations(t, w_.Y, w_.Y + n2_, w_.aVV)) return Fail(info, SolveStatus::singular_matrix, t, hMax);
    for (int step = 0; step < n; ++step) {
      const Real h = detail::MinLikeStd(hMax, tEnd - t);
      if (step >= P_.maxStepAttempts) return Fail(info, SolveStatus::budget_exceeded, t, h);
      Real* q = w_.Y;
      Real* v = w_.Y + n2_;
      Real* y = w_.Y + 2 * n2_;
      if (n1_ > 0) ComputeODE1RHS(L_, theta_, t, y, w_.f1);
      for (int i = 0; i < n2_; ++i) v[i] += 0.5 * h * w_.aVV[i];
      for (int i = 0; i < n2_; ++i) q[i] += h * v[i];
      ++info.rhsEvaluations;
      // a failure here leaves w.Y in mid-step (q at t + h, v at the half step, y at t)
      if (!Accelerations(t + h, q, v, w_.aVV)) return Fail(info, SolveStatus::singular_matrix, t, h);
      for (int i = 0; i < n2_; ++i) v[i] += 0.5 * h * w_.aVV[i];
      for (int i = 0; i < n1_; ++i) y[i] += h * w_.f1[i];
      EliminateCoordinates(w_.Y);
      EliminateAccelerations(w_.aVV);
      t = step + 1 == n ? tEnd : t + h;
      ++info.steps;
      const SolveStatus st = EndOfStep(t, step + 1 == n);
      if (st != SolveStatus::ok) return Fail(info, st, t, h);
      info.h = h;
    }
    info.t = t;
    return info;
  }

  MBS_LAYOUT_MEMBER(L_);
  const Real* theta_;
  const ExplicitParameters& P_;
  ExplicitWork& w_;
  LA& la_;
  Observer& obs_;
  ExplicitTableau tab_;
  MBS_LAYOUT_SIZE_MEMBER(n2_, nODE2);
  MBS_LAYOUT_SIZE_MEMBER(n1_, nODE1);
  int N_ = 0;
  int nEliminated_ = 0;  ///< entries of the elimination table applied (0 without eliminateConstraints)
  bool constantMass_ = true, massFactorized_ = false;
};

}  // namespace mbsweep
