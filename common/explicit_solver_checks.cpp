// Checks that a model suits the explicit solvers (common/explicit_solver_checks.h).
#include "common/explicit_solver_checks.h"

#include <vector>

#include "common/kinds.h"
#include "common/layout_records.h"
#include "common/rules.h"
#include "common/simulation_settings.h"

namespace mbsweep {

namespace {

/// "'name' (node 3)".
std::string Label(const Layout& layout, bool node, int i) {
  const std::vector<std::string>& names = node ? layout.nodeNames : layout.objectNames;
  return "'" + names[static_cast<size_t>(i)] + "' (" + (node ? "node " : "object ") + std::to_string(i) + ")";
}

}  // namespace

void CheckExplicitConstraints(const Layout& layout, const Real* theta, DynamicSolverType type, bool eliminateConstraints,
                              const std::string& context) {
  const LayoutView L = layout.View();
  const std::string prefix = context + "DynamicSolverType " + DynamicSolverTypeName(type) + ": ";
  for (int i = 0; i < L.nNodes; ++i)
    if (static_cast<NodeKind>(L.node[i].kind) == NodeKind::RigidBodyEP)
      throw ValidationError(prefix + "NodeRigidBodyEP " + Label(layout, true, i) +
                            " needs the algebraic Euler-parameter norm equation, which explicit solvers cannot "
                            "integrate; use NodeRigidBodyRxyz or the GeneralizedAlpha solver");
  if (L.nAE == 0 || !eliminateConstraints) return;
  if (!L.constraintsEliminable) throw ValidationError(prefix + layout.eliminationRefusal);
  if (!theta) return;
  const std::string msg = EliminatedConstraintError(layout, theta);
  if (!msg.empty()) throw ValidationError(msg);
}

std::string EliminatedConstraintError(const Layout& layout, const Real* theta, const std::function<bool(int)>& consider) {
  const LayoutView L = layout.View();
  for (int k = 0; k < L.nEliminated; ++k) {
    const int obj = EliminatedConstraint(L, k);
    const int slot = L.object[obj].theta;  // offset, factor1, ...
    const char* field = nullptr;
    const char* required = nullptr;
    Real value = 0;
    if (theta[slot] != 0 && (!consider || consider(slot))) {
      field = "offset";
      required = "0";
      value = theta[slot];
    } else if (theta[slot + 1] != 1 && (!consider || consider(slot + 1))) {
      field = "factor1";
      required = "1";
      value = theta[slot + 1];
    } else {
      continue;
    }
    return "ObjectConnectorCoordinate " + Label(layout, false, obj) + ": " + field + " = " + FormatReal(value) +
           " must be " + required +
           " when an explicit solver eliminates the constraint (eliminateConstraints sets the coordinate to 0); use "
           "GeneralizedAlpha";
  }
  return "";
}

}  // namespace mbsweep
