/// @file explicit_solver_checks.h
/// Checks, before anything runs, that a model suits the explicit solvers: used by the CPU
/// reference solver for one run and by the batch contract (MakeBatch, CheckBatchProblem) for
/// every backend. Host-only.
#pragma once

#include <functional>
#include <string>

#include "common/kinds.h"
#include "common/layout.h"

namespace mbsweep {

/// Checks, before anything runs, that an explicit solver of `type` can integrate the model's
/// algebraic equations as Exudyn's explicit solver does: never NodeRigidBodyEP nodes (their
/// Euler-parameter norm); with eliminateConstraints every constraint must be eliminable
/// (Layout::eliminationRefusal) and, if `theta` is given, each eliminated one must have
/// offset 0 and factor1 1 (EliminatedConstraintError). Without eliminateConstraints the
/// constraints are ignored (no check). Throws ValidationError, the message starting with
/// `context`, naming the item, field, value and rule.
void CheckExplicitConstraints(const Layout& layout, const Real* theta, DynamicSolverType type, bool eliminateConstraints,
                              const std::string& context);

/// The message for the first coordinate constraint of the elimination table whose offset is
/// not 0 or whose factor1 is not 1 in the theta row ("" if none): an explicit solver with
/// eliminateConstraints sets the coordinate to 0 and would silently drop these values. Only
/// the theta slots for which `consider` is true are checked (all if it is empty).
std::string EliminatedConstraintError(const Layout& layout, const Real* theta,
                                      const std::function<bool(int)>& consider = {});

}  // namespace mbsweep
