// Explicit Runge-Kutta integrators (fixed step and embedded with Exudyn's step-size
// control) and velocity Verlet. Second-order systems are integrated in first-order form
// Y = [q, q_t, y]:  q' = q_t,  q_t' = M^-1 f(t, q, q_t),  y' = f1(t, y).
#include <cmath>
#include <string>
#include <vector>

#include "common/rules.h"
#include "common/system.h"
#include "cpu/linear_algebra.h"
#include "cpu/simulation.h"

namespace mbsweep {

namespace {

/// Butcher tableau of an explicit method (lower-triangular a, row-major).
struct Tableau {
  int stages = 0;
  std::vector<Real> a, b, c;
  std::vector<Real> bEmbedded;  ///< empty for fixed-step methods
  int errorOrder = 0;           ///< p in hOpt = h * err^(-1/p)
};

Tableau GetTableau(DynamicSolverType type) {
  Tableau t;
  switch (type) {
    case DynamicSolverType::ExplicitEuler:
      t.stages = 1;
      t.a = {0};
      t.b = {1};
      t.c = {0};
      break;
    case DynamicSolverType::ExplicitMidpoint:
      t.stages = 2;
      t.a = {0, 0, 0.5, 0};
      t.b = {0, 1};
      t.c = {0, 0.5};
      break;
    case DynamicSolverType::RK33:  // Heun's third-order method
      t.stages = 3;
      t.a = {0, 0, 0, 1. / 3., 0, 0, 0, 2. / 3., 0};
      t.b = {0.25, 0, 0.75};
      t.c = {0, 1. / 3., 2. / 3.};
      break;
    case DynamicSolverType::RK44:
      t.stages = 4;
      t.a = {0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0};
      t.b = {1. / 6., 1. / 3., 1. / 3., 1. / 6.};
      t.c = {0, 0.5, 0.5, 1};
      break;
    case DynamicSolverType::RK67: {  // Butcher (1964), 7 stages, order 6
      const Real s5 = std::sqrt(5.);
      t.stages = 7;
      t.a.assign(49, 0.);
      auto A = [&](int i, int j, Real v) { t.a[static_cast<size_t>(i * 7 + j)] = v; };
      A(1, 0, (5 - s5) / 10);
      A(2, 0, -s5 / 10);
      A(2, 1, (5 + 2 * s5) / 10);
      A(3, 0, (-15 + 7 * s5) / 20);
      A(3, 1, (-1 + s5) / 4);
      A(3, 2, (15 - 7 * s5) / 10);
      A(4, 0, (5 - s5) / 60);
      A(4, 2, 1. / 6.);
      A(4, 3, (15 + 7 * s5) / 60);
      A(5, 0, (5 + s5) / 60);
      A(5, 2, (9 - 5 * s5) / 12);
      A(5, 3, 1. / 6.);
      A(5, 4, (-5 + 3 * s5) / 10);
      A(6, 0, 1. / 6.);
      A(6, 2, (-55 + 25 * s5) / 12);
      A(6, 3, (-25 - 7 * s5) / 12);
      A(6, 4, 5 - 2 * s5);
      A(6, 5, (5 + s5) / 2);
      t.b = {1. / 12., 0, 0, 0, 5. / 12., 5. / 12., 1. / 12.};
      t.c = {0, (5 - s5) / 10, (5 + s5) / 10, (5 - s5) / 10, (5 + s5) / 10, (5 - s5) / 10, 1};
      break;
    }
    case DynamicSolverType::ODE23:  // Bogacki-Shampine 3(2)
      t.stages = 4;
      t.a = {0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.75, 0, 0, 2. / 9., 1. / 3., 4. / 9., 0};
      t.b = {2. / 9., 1. / 3., 4. / 9., 0};
      t.bEmbedded = {7. / 24., 0.25, 1. / 3., 0.125};
      t.c = {0, 0.5, 0.75, 1};
      t.errorOrder = 3;
      break;
    case DynamicSolverType::DOPRI5:  // Dormand-Prince 5(4)
      t.stages = 7;
      t.a = {0,
             0,
             0,
             0,
             0,
             0,
             0,
             1. / 5.,
             0,
             0,
             0,
             0,
             0,
             0,
             3. / 40.,
             9. / 40.,
             0,
             0,
             0,
             0,
             0,
             44. / 45.,
             -56. / 15.,
             32. / 9.,
             0,
             0,
             0,
             0,
             19372. / 6561.,
             -25360. / 2187.,
             64448. / 6561.,
             -212. / 729.,
             0,
             0,
             0,
             9017. / 3168.,
             -355. / 33.,
             46732. / 5247.,
             49. / 176.,
             -5103. / 18656.,
             0,
             0,
             35. / 384.,
             0,
             500. / 1113.,
             125. / 192.,
             -2187. / 6784.,
             11. / 84.,
             0};
      t.b = {35. / 384., 0, 500. / 1113., 125. / 192., -2187. / 6784., 11. / 84., 0};
      t.bEmbedded = {5179. / 57600., 0, 7571. / 16695., 393. / 640., -92097. / 339200., 187. / 2100., 1. / 40.};
      t.c = {0, 0.2, 0.3, 0.8, 8. / 9., 1, 1};
      t.errorOrder = 5;
      break;
    default: break;
  }
  return t;
}

/// Evaluates the first-order right-hand side dY = [q_t, M^-1 f, f1] of one system.
class FirstOrderSystem {
 public:
  FirstOrderSystem(const LayoutView& L, const Real* theta, const SimulationSettings& s,
                   const std::vector<std::string>& nodeNames, SolverStatistics& stats)
      : L_(L), theta_(theta), stats_(stats), nodeNames_(nodeNames) {
    n2_ = L.nODE2;
    n1_ = L.nODE1;
    f_.resize(static_cast<size_t>(n2_));
    M_.Resize(n2_);
    constantMass_ = L.constantMassMatrix && s.timeIntegration.reuseConstantMassMatrix;
    massFactorized_ = false;
  }
  int Size() const { return 2 * n2_ + n1_; }

  void Eval(Real t, const Real* Y, Real* dY) {
    ++stats_.rhsEvaluations;
    const Real* q = Y;
    const Real* v = Y + n2_;
    const Real* y = Y + 2 * n2_;
    for (int i = 0; i < n2_; ++i) dY[i] = v[i];
    if (n2_ > 0) {
      ComputeODE2RHS(L_, theta_, t, q, v, 1., f_.data());
      Factorize(q);
      M_.Solve(f_.data(), dY + n2_);
    }
    if (n1_ > 0) ComputeODE1RHS(L_, theta_, t, y, dY + 2 * n2_);
  }

  /// Accelerations M^-1 f at the given q, v (for sensors and velocity Verlet).
  void Accelerations(Real t, const Real* q, const Real* v, Real* a) {
    if (n2_ == 0) return;
    ComputeODE2RHS(L_, theta_, t, q, v, 1., f_.data());
    Factorize(q);
    M_.Solve(f_.data(), a);
  }

 private:
  void Factorize(const Real* q) {
    if (constantMass_ && massFactorized_) return;
    M_.SetZero();
    ComputeMassMatrix(L_, theta_, q, M_);
    if (!M_.Factorize()) {
      // name the first coordinate without mass
      for (int i = 0; i < L_.nNodes; ++i) {
        const NodeRecord r = GetNodeRecord(L_, i);
        for (int k = 0; k < r.nODE2; ++k)
          if (M_.Matrix()(r.ode2Begin + k, r.ode2Begin + k) == 0)
            throw SolverError("explicit solver: the mass matrix is singular; coordinate " + std::to_string(k) +
                              " of node '" + nodeNames_[static_cast<size_t>(i)] +
                              "' has no mass (add a body with physicsMass > 0 on it)");
      }
      throw SolverError("explicit solver: the mass matrix is singular");
    }
    massFactorized_ = true;
  }

  const LayoutView& L_;
  const Real* theta_;
  SolverStatistics& stats_;
  const std::vector<std::string>& nodeNames_;
  int n2_ = 0, n1_ = 0;
  std::vector<Real> f_;
  EigenDenseLA M_;
  bool constantMass_ = true, massFactorized_ = false;
};

void Unpack(const std::vector<Real>& Y, int n2, int n1, SystemState& s) {
  for (int i = 0; i < n2; ++i) {
    s.q[static_cast<size_t>(i)] = Y[static_cast<size_t>(i)];
    s.v[static_cast<size_t>(i)] = Y[static_cast<size_t>(n2 + i)];
  }
  for (int i = 0; i < n1; ++i) s.y[static_cast<size_t>(i)] = Y[static_cast<size_t>(2 * n2 + i)];
}

}  // namespace

void SolveExplicit(const LayoutView& L, const Real* theta, const SimulationSettings& settings, DynamicSolverType type,
                   SystemState& state, SolverStatistics& stats, SensorRecorder* recorder,
                   const std::vector<std::string>& nodeNames) {
  for (int i = 0; i < L.nNodes; ++i)
    if (static_cast<NodeKind>(L.node[i].kind) == NodeKind::RigidBodyEP)
      throw ValidationError(std::string("DynamicSolverType ") + DynamicSolverTypeName(type) + ": NodeRigidBodyEP '" +
                            nodeNames[static_cast<size_t>(i)] + "' (node " + std::to_string(i) +
                            ") needs the algebraic Euler-parameter norm equation, which explicit solvers cannot "
                            "integrate; use NodeRigidBodyRxyz or the GeneralizedAlpha solver");
  if (L.nAE > 0)
    throw ValidationError(std::string("DynamicSolverType ") + DynamicSolverTypeName(type) +
                          ": explicit solvers cannot integrate models with algebraic equations (constraints); use "
                          "GeneralizedAlpha");
  const auto& ti = settings.timeIntegration;
  const int n2 = L.nODE2, n1 = L.nODE1;
  FirstOrderSystem sys(L, theta, settings, nodeNames, stats);
  const int N = sys.Size();
  const Real t0 = ti.startTime, tEnd = ti.endTime;
  const Real hMax = (tEnd - t0) / ti.numberOfSteps;
  const bool endAcc = settings.timeIntegration.explicitIntegration.computeEndOfStepAccelerations;

  std::vector<Real> Y(static_cast<size_t>(N)), Yn(static_cast<size_t>(N)), Ytmp(static_cast<size_t>(N));
  for (int i = 0; i < n2; ++i) {
    Y[static_cast<size_t>(i)] = state.q[static_cast<size_t>(i)];
    Y[static_cast<size_t>(n2 + i)] = state.v[static_cast<size_t>(i)];
  }
  for (int i = 0; i < n1; ++i) Y[static_cast<size_t>(2 * n2 + i)] = state.y[static_cast<size_t>(i)];
  std::fill(state.a.begin(), state.a.end(), 0.);  // explicit solvers start with a = 0
  std::fill(state.yt.begin(), state.yt.end(), 0.);
  state.t = t0;
  if (recorder) recorder->Start(L, theta, state);

  auto endOfStep = [&](Real t, bool final) {
    state.t = t;
    Unpack(Y, n2, n1, state);
    if (endAcc) {
      sys.Accelerations(t, state.q.data(), state.v.data(), state.a.data());
      if (n1 > 0) ComputeODE1RHS(L, theta, t, state.y.data(), state.yt.data());
    }
    for (Real x : Y)
      if (!std::isfinite(x))
        throw SolverError(std::string(DynamicSolverTypeName(type)) + ": solution diverged (not finite) at t = " +
                          FormatReal(t));
    if (recorder) recorder->Step(L, theta, state, final);
  };

  if (type == DynamicSolverType::VelocityVerlet) {
    // v += h/2 a; q += h v; a = M^-1 f(q, v); v += h/2 a; ODE1 by explicit Euler. The
    // accelerations start from M^-1 f at the initial state (as Exudyn's implementation does:
    // second order for position-dependent forces, first order with velocity-dependent ones,
    // since f is evaluated with the half-step velocity).
    std::vector<Real> a(static_cast<size_t>(n2), 0.), f1(static_cast<size_t>(n1));
    Real t = t0;
    sys.Accelerations(t, Y.data(), Y.data() + n2, a.data());
    for (int step = 0; step < ti.numberOfSteps; ++step) {
      const Real h = std::min(hMax, tEnd - t);
      Real* q = Y.data();
      Real* v = Y.data() + n2;
      Real* y = Y.data() + 2 * n2;
      if (n1 > 0) ComputeODE1RHS(L, theta, t, y, f1.data());
      for (int i = 0; i < n2; ++i) v[i] += 0.5 * h * a[static_cast<size_t>(i)];
      for (int i = 0; i < n2; ++i) q[i] += h * v[i];
      ++stats.rhsEvaluations;
      sys.Accelerations(t + h, q, v, a.data());
      for (int i = 0; i < n2; ++i) v[i] += 0.5 * h * a[static_cast<size_t>(i)];
      for (int i = 0; i < n1; ++i) y[i] += h * f1[static_cast<size_t>(i)];
      t = step + 1 == ti.numberOfSteps ? tEnd : t + h;
      ++stats.steps;
      endOfStep(t, step + 1 == ti.numberOfSteps);
    }
    return;
  }

  const Tableau tab = GetTableau(type);
  const int S = tab.stages;
  std::vector<std::vector<Real>> K(static_cast<size_t>(S), std::vector<Real>(static_cast<size_t>(N)));
  auto computeStages = [&](Real t, Real h) {
    for (int s = 0; s < S; ++s) {
      for (int i = 0; i < N; ++i) {
        Real x = Y[static_cast<size_t>(i)];
        for (int j = 0; j < s; ++j) {
          const Real aij = tab.a[static_cast<size_t>(s * S + j)];
          if (aij != 0) x += h * aij * K[static_cast<size_t>(j)][static_cast<size_t>(i)];
        }
        Ytmp[static_cast<size_t>(i)] = x;
      }
      sys.Eval(t + tab.c[static_cast<size_t>(s)] * h, Ytmp.data(), K[static_cast<size_t>(s)].data());
    }
  };
  auto combine = [&](const std::vector<Real>& b, Real h, std::vector<Real>& out) {
    for (int i = 0; i < N; ++i) {
      Real x = Y[static_cast<size_t>(i)];
      for (int s = 0; s < S; ++s)
        if (b[static_cast<size_t>(s)] != 0) x += h * b[static_cast<size_t>(s)] * K[static_cast<size_t>(s)][static_cast<size_t>(i)];
      out[static_cast<size_t>(i)] = x;
    }
  };

  const bool adaptive = !tab.bEmbedded.empty() && ti.automaticStepSize;
  if (!adaptive) {
    Real t = t0;
    for (int step = 0; step < ti.numberOfSteps; ++step) {
      const Real h = step + 1 == ti.numberOfSteps ? tEnd - t : hMax;
      computeStages(t, h);
      combine(tab.b, h, Yn);
      Y.swap(Yn);
      t = step + 1 == ti.numberOfSteps ? tEnd : t + h;
      ++stats.steps;
      endOfStep(t, step + 1 == ti.numberOfSteps);
    }
    return;
  }

  // embedded methods with Exudyn's step-size control
  std::vector<Real> Yemb(static_cast<size_t>(N));
  const Real hMin = ti.minimumStepSize;
  Real h = ti.initialStepSize > 0 ? std::min(ti.initialStepSize, hMax) : hMax;
  Real t = t0;
  const Real p = static_cast<Real>(tab.errorOrder);
  while (t < tEnd - 1e-10) {
    const bool last = t + h >= tEnd - 1e-10;
    const Real hStep = last ? tEnd - t : h;
    computeStages(t, hStep);
    combine(tab.b, hStep, Yn);
    combine(tab.bEmbedded, hStep, Yemb);
    Real sum = 0;
    for (int i = 0; i < N; ++i) {
      const Real sc = ti.absoluteTolerance +
                      std::max(Yemb[static_cast<size_t>(i)], Y[static_cast<size_t>(i)]) * ti.relativeTolerance;
      const Real e = (Yemb[static_cast<size_t>(i)] - Yn[static_cast<size_t>(i)]) / sc;
      sum += e * e;
    }
    Real err = N > 0 ? std::sqrt(sum / N) : 0;
    if (err == 0) err = 1e-12;
    const Real hOpt = hStep * std::pow(1. / err, 1. / p);
    const Real hNew = std::min(std::min(hMax, ti.stepSizeMaxIncrease * hStep), std::max(hMin, ti.stepSizeSafety * hOpt));
    if (hOpt < hStep && hStep > hMin) {
      ++stats.rejectedSteps;
      h = hNew;
      continue;
    }
    Y.swap(Yn);
    t = last ? tEnd : t + hStep;
    ++stats.steps;
    endOfStep(t, last);
    h = hNew;
  }
}

}  // namespace mbsweep
