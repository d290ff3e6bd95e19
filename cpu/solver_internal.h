/// @file solver_internal.h
/// Internal pieces shared by the CPU solver wrappers (not part of the public interface):
/// the observer that feeds a SensorRecorder from the host/device integrators, and the
/// conversion of SimulationSettings to the explicit integrators' plain parameters.
#pragma once

#include <algorithm>
#include <functional>
#include <string>

#include "common/explicit_rk.h"
#include "cpu/simulation.h"

namespace mbsweep {
namespace internal {

/// Integrator observer that copies each reported state into `state` and records sensors
/// (does nothing without a recorder).
struct RecorderObserver {
  const LayoutView& L;
  const Real* theta;
  SensorRecorder* rec;
  SystemState& state;
  void Copy(const StateView& s) {
    state.t = s.t;
    std::copy(s.q, s.q + L.nODE2, state.q.begin());
    std::copy(s.v, s.v + L.nODE2, state.v.begin());
    std::copy(s.a, s.a + L.nODE2, state.a.begin());
    std::copy(s.y, s.y + L.nODE1, state.y.begin());
    std::copy(s.yt, s.yt + L.nODE1, state.yt.begin());
    if (s.lambda) std::copy(s.lambda, s.lambda + L.nAE, state.lambda.begin());
  }
  void OnStart(const StateView& s) {
    if (!rec) return;
    Copy(s);
    rec->Start(L, theta, state);
  }
  bool Due(Real t, bool final) const { return rec && rec->Due(t, final); }
  void OnStep(const StateView& s, bool final) {
    if (!Due(s.t, final)) return;
    Copy(s);
    rec->Step(L, theta, state, final);
  }
};

}  // namespace internal

/// Plain parameters of the explicit integrators from the settings (timeIntegration) and type.
ExplicitParameters ToExplicitParameters(const SimulationSettings& s, DynamicSolverType type);

/// Checks, before anything runs, that an explicit solver of `type` can integrate the model's
/// algebraic equations as Exudyn's explicit solver does: never NodeRigidBodyEP nodes (their
/// Euler-parameter norm); with eliminateConstraints every constraint must be eliminable
/// (Layout::eliminationRefusal) and, if `theta` is given, each eliminated one must have
/// offset 0 and factorValue1 1 (EliminatedConstraintError). Without eliminateConstraints the
/// constraints are ignored (no check). Throws ValidationError, the message starting with
/// `context`, naming the item, field, value and rule.
void CheckExplicitConstraints(const Layout& layout, const Real* theta, DynamicSolverType type, bool eliminateConstraints,
                              const std::string& context);

/// The message for the first coordinate constraint of the elimination table whose offset is
/// not 0 or whose factorValue1 is not 1 in the theta row ("" if none): an explicit solver with
/// eliminateConstraints sets the coordinate to 0 and would silently drop these values. Only
/// the theta slots for which `consider` is true are checked (all if it is empty).
std::string EliminatedConstraintError(const Layout& layout, const Real* theta,
                                      const std::function<bool(int)>& consider = {});

}  // namespace mbsweep
