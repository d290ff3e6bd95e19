/// @file time_function.h
/// Host/device evaluation of the time functions (see TimeFunctionType): the built-in ones and
/// expressions of t (common/expression.h).
#pragma once

#include "common/expression.h"
#include "common/kinds.h"
#include "common/layout.h"
#include "common/types.h"

namespace mbsweep {

/// Value f(t) of a time function whose parameters start at p (theta slots). `data` is the
/// table length of a Table, the offset of its program in L->ints of an Expression (which
/// needs the layout; the built-in types do not).
MBS_HD_INLINE Real EvalTimeFunction(int type, int data, const Real* p, Real t, const LayoutView* L = nullptr) {
  constexpr Real kTwoPi = 6.283185307179586476925286766559;
  switch (static_cast<TimeFunctionType>(type)) {
    case TimeFunctionType::Constant: return 1;
    case TimeFunctionType::Harmonic: return p[3] + p[0] * sin(p[1] * t + p[2]);
    case TimeFunctionType::Sweep: {
      const Real a = p[0], f0 = p[1], f1 = p[2], T = p[3];
      if (t <= T) return a * sin(kTwoPi * (f0 * t + 0.5 * (f1 - f0) * t * t / T));
      const Real phaseT = f0 * T + 0.5 * (f1 - f0) * T;  // phase (in cycles) reached at t = T
      return a * sin(kTwoPi * (phaseT + f1 * (t - T)));
    }
    case TimeFunctionType::Ramp: {
      const Real t0 = p[0], t1 = p[1], v0 = p[2], v1 = p[3];
      if (t < t0) return v0;
      if (t >= t1) return v1;
      return v0 + (v1 - v0) * (t - t0) / (t1 - t0);
    }
    case TimeFunctionType::Table: {
      const int n = data;
      const Real* ts = p;
      const Real* vs = p + n;
      if (t <= ts[0]) return vs[0];
      if (t >= ts[n - 1]) return vs[n - 1];
      int lo = 0, hi = n - 1;  // binary search: ts[lo] <= t < ts[hi]
      while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (ts[mid] <= t) lo = mid;
        else hi = mid;
      }
      return vs[lo] + (vs[hi] - vs[lo]) * (t - ts[lo]) / (ts[hi] - ts[lo]);
    }
    case TimeFunctionType::Expression: return EvalExpression(L->ints + data, &t, p, L->expressionHost);
  }
  return 1;
}

/// Time-function values of the first kSize loads at one time t. The integrators evaluate the
/// loads at the same time in every residual of a step attempt (generalized-alpha: every Newton
/// iteration); with a cache they evaluate each time function once per step attempt and reuse
/// the value (the same value: a time function depends on t and theta only).
struct TimeFunctionCache {
  static constexpr int kSize = 16;
  Real t = Real(NAN);   ///< the time of the cached values (NaN: none)
  unsigned valid = 0;   ///< bit i: value[i] holds load i's time function at t
  Real value[kSize];

  /// Load `load`'s time function at t: from the cache, or evaluated and kept.
  MBS_HD_INLINE Real Get(int load, int type, int data, const Real* p, Real time, const LayoutView& L) {
    if (load >= kSize) return EvalTimeFunction(type, data, p, time, &L);
    if (!(time == t)) {
      t = time;
      valid = 0;
    }
    const unsigned bit = 1u << load;
    if (!(valid & bit)) {
      value[load] = EvalTimeFunction(type, data, p, time, &L);
      valid |= bit;
    }
    return value[load];
  }
};

}  // namespace mbsweep
