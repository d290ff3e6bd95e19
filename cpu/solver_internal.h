/// @file solver_internal.h
/// Internal piece shared by the CPU solver wrappers (not part of the public interface): the
/// observer that feeds a SensorRecorder from the host/device integrators. The settings
/// conversion is common/integrator_parameters.h, the explicit-solver model checks
/// common/explicit_solver_checks.h.
#pragma once

#include <algorithm>

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

}  // namespace mbsweep
