// CPU instantiation of the generalized-alpha integrator (Eigen dense or sparse LU), with
// sensor recording, failure messages and the redundant-constraint check at the start.
#include <Eigen/Dense>
#include <sstream>

#include "common/batch.h"
#include "common/expression_compiler.h"
#include "common/generalized_alpha.h"
#include "common/integrator_parameters.h"
#include "common/rules.h"
#include "common/system_runner.h"
#include "cpu/linear_algebra.h"
#include "cpu/simulation.h"
#include "cpu/solver_internal.h"

namespace mbsweep {

namespace {

/// Dense C_q of all constraints at the initial state (for the redundancy check).
struct DenseCq {
  Eigen::MatrixXd& m;
  void add(int i, int j, Real v) { m(i, j) += v; }
};
struct NullSink {
  void add(int, int, Real) {}
};

}  // namespace

void CheckRedundantConstraints(const Layout& layout, const Real* theta, const SystemState& s) {
  const LayoutView L = layout.View();
  if (L.nAE == 0) return;
  Eigen::MatrixXd Cq = Eigen::MatrixXd::Zero(L.nAE, L.nODE2);
  DenseCq sink{Cq};
  NullSink none;
  ComputeAEJacobian(L, theta, s.t, s.q.data(), s.v.data(), false, 1, 1, 0, sink, none, none);
  // add rows one by one; a row that does not raise the rank depends on the earlier ones
  Eigen::MatrixXd rows(0, L.nODE2);
  int rank = 0;
  for (int r = 0; r < L.nAE; ++r) {
    if (Cq.row(r).squaredNorm() == 0) continue;  // inactive constraints (lambda = 0) or no coordinates
    Eigen::MatrixXd next(rows.rows() + 1, L.nODE2);
    next << rows, Cq.row(r);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(next);
    lu.setThreshold(1e-10);
    if (lu.rank() == rank) {
      // owner of an equation: an object, or a node (the Euler-parameter norm of NodeRigidBodyEP)
      auto ownerOf = [&](int row) {
        const int obj = layout.aeOwnerObject[static_cast<size_t>(row)];
        return obj >= 0 ? obj : -1 - layout.aeOwnerNode[static_cast<size_t>(row)];
      };
      auto ownerName = [&](int owner) {
        return "'" + (owner >= 0 ? layout.objectNames[static_cast<size_t>(owner)]
                                 : layout.nodeNames[static_cast<size_t>(-1 - owner)]) + "'";
      };
      const int owner = ownerOf(r);
      const int first = owner >= 0 ? GetObjectRecord(L, owner).aeBegin : GetNodeRecord(L, -1 - owner).aeBegin;
      std::ostringstream msg;
      msg << "redundant constraints: equation " << (r - first) << " of " << (owner >= 0 ? "object " : "node ")
          << ownerName(owner) << " (" << (owner >= 0 ? "object " : "node ") << (owner >= 0 ? owner : -1 - owner)
          << ") is linearly dependent on the equations of";
      std::vector<int> owners;
      for (int k = 0; k < r; ++k)
        if (Cq.row(k).squaredNorm() > 0) {
          const int o = ownerOf(k);
          if (owners.empty() || owners.back() != o) owners.push_back(o);
        }
      for (size_t k = 0; k < owners.size(); ++k)
        msg << (k ? ", " : " ") << (owners[k] >= 0 ? "" : "node ") << ownerName(owners[k]);
      msg << " at the initial configuration; remove or relax one of them";
      throw ValidationError(msg.str());
    }
    rows = next;
    rank = static_cast<int>(lu.rank());
  }
}

template <class LA>
static SolveInfo RunGeneralizedAlpha(const LayoutView& L, const Real* theta, const GeneralizedAlphaParameters& P,
                                     SystemState& state, SensorRecorder* recorder) {
  const int n2 = L.nODE2, n1 = L.nODE1, nA = L.nAE, N = n2 + n1 + nA;
  std::vector<Real> buf(static_cast<size_t>(GeneralizedAlphaWorkSize(L)) + 1, 0.);
  GeneralizedAlphaWork w;
  MakeGeneralizedAlphaWork(L, buf.data(), w);
  std::copy(state.q.begin(), state.q.end(), w.q);
  std::copy(state.v.begin(), state.v.end(), w.v);
  std::copy(state.y.begin(), state.y.end(), w.y);
  LA la;
  la.Resize(N);
  internal::RecorderObserver obs{L, theta, recorder, state};
  GeneralizedAlpha<LA, internal::RecorderObserver> ga(L, theta, P, w, la, obs);
  SolveInfo info = ga.Run();
  state.t = info.t;
  std::copy(w.q, w.q + n2, state.q.begin());
  std::copy(w.v, w.v + n2, state.v.begin());
  std::copy(w.a, w.a + n2, state.a.begin());
  std::copy(w.y, w.y + n1, state.y.begin());
  std::copy(w.yt, w.yt + n1, state.yt.begin());
  std::copy(w.lambda, w.lambda + nA, state.lambda.begin());
  return info;
}

void SolveImplicit(const Layout& layout, const Real* theta, const SimulationSettings& settings, DynamicSolverType type,
                   SystemState& state, SolverStatistics& stats, SensorRecorder* recorder) {
  const MuParserLayoutView reference(layout);  // the reference evaluates expressions with muParser
  const LayoutView& L = reference.view;
  CheckRedundantConstraints(layout, theta, state);
  const GeneralizedAlphaParameters P = ToGeneralizedAlphaParameters(settings, type);
  SolveInfo info;
  switch (settings.linearSolverType) {
    case LinearSolverType::EigenSparse: info = RunGeneralizedAlpha<EigenSparseLA>(L, theta, P, state, recorder); break;
    case LinearSolverType::EigenDense: info = RunGeneralizedAlpha<EigenDenseLA>(L, theta, P, state, recorder); break;
    default: info = RunGeneralizedAlpha<DenseLA>(L, theta, P, state, recorder); break;
  }
  stats.steps = info.steps;
  stats.rejectedSteps = info.rejectedSteps;
  stats.newtonIterations = info.newtonIterations;
  stats.jacobianUpdates = info.jacobianUpdates;
  stats.rhsEvaluations = info.rhsEvaluations;
  if (info.status != SolveStatus::ok)
    throw SolverError(std::string(DynamicSolverTypeName(type)) + ": " + DescribeSolveFailure(info, settings, type));
}

}  // namespace mbsweep
