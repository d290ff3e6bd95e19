// CPU instantiation of the explicit integrators of common/explicit_rk.h (Eigen dense LU for
// the mass matrix), with sensor recording and the failure messages of the reference solver.
#include <cstdio>
#include <string>
#include <vector>

#include "common/batch.h"
#include "common/expression_compiler.h"
#include "common/explicit_rk.h"
#include "common/explicit_solver_checks.h"
#include "common/integrator_parameters.h"
#include "common/rules.h"
#include "cpu/linear_algebra.h"
#include "cpu/simulation.h"
#include "cpu/solver_internal.h"

namespace mbsweep {

namespace {

/// Message for a singular mass matrix: names the first coordinate with a zero diagonal
/// entry of the matrix that failed to factorize (M, as assembled at the failure).
std::string SingularMassMessage(const LayoutView& L, const Eigen::MatrixXd& M, const std::vector<std::string>& nodeNames) {
  for (int i = 0; i < L.nNodes; ++i) {
    const NodeRecord r = GetNodeRecord(L, i);
    for (int k = 0; k < r.nODE2; ++k)
      if (M(r.ode2Begin + k, r.ode2Begin + k) == 0)
        return "explicit solver: the mass matrix is singular; coordinate " + std::to_string(k) + " of node '" +
               nodeNames[static_cast<size_t>(i)] + "' has no mass (add a body with mass > 0 on it)";
  }
  return "explicit solver: the mass matrix is singular";
}

}  // namespace

void SolveExplicit(const Layout& layout, const Real* theta, const SimulationSettings& settings, DynamicSolverType type,
                   SystemState& state, SolverStatistics& stats, SensorRecorder* recorder) {
  const MuParserLayoutView reference(layout);  // the reference evaluates expressions with muParser
  const LayoutView& L = reference.view;
  if (!IsExplicitSolverType(type))
    throw ValidationError(std::string("DynamicSolverType ") + DynamicSolverTypeName(type) +
                          " is not an explicit solver type");
  const bool eliminate = settings.timeIntegration.explicitIntegration.eliminateConstraints;
  CheckExplicitConstraints(layout, theta, type, eliminate, "");
  if (L.nAE > 0 && !eliminate)  // as Exudyn: a warning, then the constraints are absent
    std::fprintf(stderr,
                 "Warning: DynamicSolverType %s with timeIntegration.explicit.eliminateConstraints = false: the explicit "
                 "solver ignores the constraints (%d algebraic equation%s) and integrates the system as if they were "
                 "absent (Lagrange multipliers 0)\n",
                 DynamicSolverTypeName(type), L.nAE, L.nAE == 1 ? "" : "s");
  const int n2 = L.nODE2, n1 = L.nODE1;
  const ExplicitParameters P = ToExplicitParameters(settings, type);
  std::vector<Real> buf(static_cast<size_t>(ExplicitWorkSize(type, n2, n1)), 0.);
  ExplicitWork w = MakeExplicitWork(type, n2, n1, buf.data());
  std::copy(state.q.begin(), state.q.end(), w.Y);
  std::copy(state.v.begin(), state.v.end(), w.Y + n2);
  std::copy(state.y.begin(), state.y.end(), w.Y + 2 * n2);
  DenseLA la;
  la.Resize(n2);
  internal::RecorderObserver obs{L, theta, recorder, state};
  state.t = P.startTime;
  ExplicitIntegrator<DenseLA, internal::RecorderObserver> integrator(L, theta, P, w, la, obs);
  const SolveInfo info = integrator.Run();

  stats.steps += info.steps;
  stats.rejectedSteps += info.rejectedSteps;
  stats.rhsEvaluations += info.rhsEvaluations;
  state.t = info.t;
  std::copy(w.Y, w.Y + n2, state.q.begin());
  std::copy(w.Y + n2, w.Y + 2 * n2, state.v.begin());
  std::copy(w.Y + 2 * n2, w.Y + 2 * n2 + n1, state.y.begin());
  std::copy(w.a, w.a + n2, state.a.begin());
  std::copy(w.yt, w.yt + n1, state.yt.begin());

  const std::string name = DynamicSolverTypeName(type);
  switch (info.status) {
    case SolveStatus::ok: return;
    case SolveStatus::singular_matrix: {  // name the massless coordinate from the mass matrix at the failure
      EigenDenseLA M;
      M.Resize(n2);
      ComputeMassMatrix(L, theta, state.q.data(), M);
      throw SolverError(SingularMassMessage(L, M.Matrix(), layout.nodeNames));
    }
    default: throw SolverError(name + ": " + DescribeSolveFailure(info, settings, type));
  }
}

}  // namespace mbsweep
