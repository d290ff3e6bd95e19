// Tests of the built-in time functions (common/time_function.h) against their closed forms, and of
// their use by loads through the compiled theta layout (common/system.h, outputs.h).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/model.h"
#include "common/outputs.h"
#include "common/system.h"
#include "common/time_function.h"

namespace mbsweep {
namespace {

constexpr Real kTol = 1e-14;
constexpr Real kTwoPi = 6.283185307179586476925286766559;
constexpr int kHarmonic = static_cast<int>(TimeFunctionType::Harmonic);
constexpr int kSweep = static_cast<int>(TimeFunctionType::Sweep);
constexpr int kRamp = static_cast<int>(TimeFunctionType::Ramp);
constexpr int kTable = static_cast<int>(TimeFunctionType::Table);

// Constant: f(t) = 1 for any t (no parameters are read).
TEST(TimeFunction, Constant) {
  for (Real t : {-3.0, 0.0, 0.5, 1e6}) EXPECT_EQ(EvalTimeFunction(0, 0, nullptr, t), 1.);
}

// Harmonic: f(t) = offset + a sin(w t + phi), parameters [a, w, phi, offset].
TEST(TimeFunction, Harmonic) {
  const Real a = 2.5, w = 7.0, phi = 0.3, off = -0.75;
  const Real p[] = {a, w, phi, off};
  for (Real t : {0.0, 0.1, 0.37, 1.0, 2.75}) EXPECT_NEAR(EvalTimeFunction(kHarmonic, 0, p, t), off + a * std::sin(w * t + phi), kTol) << t;
  EXPECT_NEAR(EvalTimeFunction(kHarmonic, 0, p, 0), off + a * std::sin(phi), kTol);
  const Real q[] = {1, kTwoPi, 0, 0};  // 1 Hz sine: quarter period gives the peak
  EXPECT_NEAR(EvalTimeFunction(kHarmonic, 0, q, 0.25), 1., kTol);
}

// Sweep: a sin(2 pi (f0 t + (f1 - f0) t^2 / (2T))) up to T, then frequency f1, continuous at T.
TEST(TimeFunction, Sweep) {
  const Real a = 1.5, f0 = 1, f1 = 3, T = 2;
  const Real p[] = {a, f0, f1, T};
  auto ref = [&](Real t) { return a * std::sin(kTwoPi * (f0 * t + (f1 - f0) * t * t / (2 * T))); };
  for (Real t : {0.0, 0.125, 0.25, 0.5, 1.0, 1.375, 1.5, 2.0}) EXPECT_NEAR(EvalTimeFunction(kSweep, 0, p, t), ref(t), kTol) << t;
  for (Real t : {0.1, 0.3}) EXPECT_NEAR(EvalTimeFunction(kSweep, 0, p, t), ref(t), kTol) << t;
  // after T: constant frequency f1 from the phase reached at T (f0 T + (f1 - f0) T / 2 = 4 cycles)
  const Real phaseT = f0 * T + (f1 - f0) * T / 2;
  for (Real t : {2.125, 2.25, 3.0, 3.0625})
    EXPECT_NEAR(EvalTimeFunction(kSweep, 0, p, t), a * std::sin(kTwoPi * (phaseT + f1 * (t - T))), kTol) << t;
  // continuity of value and slope at T (the instantaneous frequency reaches f1 at T)
  const Real h = 1e-7;
  const Real left = EvalTimeFunction(kSweep, 0, p, T - h), mid = EvalTimeFunction(kSweep, 0, p, T),
             right = EvalTimeFunction(kSweep, 0, p, T + h);
  const Real slopeLeft = (mid - left) / h, slopeRight = (right - mid) / h, slopeExact = a * kTwoPi * f1;  // cos(2 pi 4) = 1
  EXPECT_NEAR(mid, 0., kTol);
  EXPECT_NEAR(slopeLeft, slopeExact, 1e-4);
  EXPECT_NEAR(slopeRight, slopeExact, 1e-4);
}

// Ramp: startValue before startTime, endValue from endTime on, linear in between; a step if equal times.
TEST(TimeFunction, Ramp) {
  const Real p[] = {1.0, 3.0, -2.0, 6.0};  // t0, t1, v0, v1
  EXPECT_EQ(EvalTimeFunction(kRamp, 0, p, -5), -2.);
  EXPECT_EQ(EvalTimeFunction(kRamp, 0, p, 1), -2.);
  EXPECT_NEAR(EvalTimeFunction(kRamp, 0, p, 1.5), 0., kTol);
  EXPECT_NEAR(EvalTimeFunction(kRamp, 0, p, 2), 2., kTol);
  EXPECT_NEAR(EvalTimeFunction(kRamp, 0, p, 2.3), -2 + 8 * 1.3 / 2, kTol);
  EXPECT_EQ(EvalTimeFunction(kRamp, 0, p, 3), 6.);
  EXPECT_EQ(EvalTimeFunction(kRamp, 0, p, 100), 6.);
  const Real step[] = {0.5, 0.5, 1.0, 4.0};
  EXPECT_EQ(EvalTimeFunction(kRamp, 0, step, 0.4999999), 1.);
  EXPECT_EQ(EvalTimeFunction(kRamp, 0, step, 0.5), 4.);
  EXPECT_EQ(EvalTimeFunction(kRamp, 0, step, 0.6), 4.);
}

// Table: exact at knots, linear between, clamped beyond both ends.
TEST(TimeFunction, Table) {
  const Real p[] = {0.0, 1.0, 2.5, 4.0, /* values */ 1.0, 3.0, -1.5, 0.5};
  const Real ts[] = {0.0, 1.0, 2.5, 4.0}, vs[] = {1.0, 3.0, -1.5, 0.5};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(EvalTimeFunction(kTable, 4, p, ts[i]), vs[i]) << i;
  EXPECT_NEAR(EvalTimeFunction(kTable, 4, p, 0.25), 1.5, kTol);
  EXPECT_NEAR(EvalTimeFunction(kTable, 4, p, 2.0), 3 + (-4.5) * (1.0 / 1.5), kTol);
  EXPECT_NEAR(EvalTimeFunction(kTable, 4, p, 3.7), -1.5 + 2 * (1.2 / 1.5), kTol);
  EXPECT_EQ(EvalTimeFunction(kTable, 4, p, -1), 1.);
  EXPECT_EQ(EvalTimeFunction(kTable, 4, p, 4.5), 0.5);
  const Real one[] = {2.0, 7.0};  // single sample: constant
  EXPECT_EQ(EvalTimeFunction(kTable, 1, one, 0), 7.);
  EXPECT_EQ(EvalTimeFunction(kTable, 1, one, 5), 7.);
}

// Table binary search on many knots agrees with linear interpolation of f(t) = t^2 sampled at 0, 0.1, ..., 2.
TEST(TimeFunction, TableManyKnots) {
  const int n = 21;
  std::vector<Real> p(2 * n);
  for (int i = 0; i < n; ++i) {
    p[static_cast<size_t>(i)] = 0.1 * i;
    p[static_cast<size_t>(n + i)] = (0.1 * i) * (0.1 * i);
  }
  for (int i = 0; i + 1 < n; ++i) {
    const Real t0 = p[static_cast<size_t>(i)], t1 = p[static_cast<size_t>(i + 1)], tm = 0.5 * (t0 + t1);
    const Real expected = 0.5 * (t0 * t0 + t1 * t1);
    EXPECT_NEAR(EvalTimeFunction(kTable, n, p.data(), tm), expected, 1e-14) << "interval " << i;
  }
}

// A LoadCoordinate with a Harmonic time function contributes load * f(t) * loadFactor in ComputeODE2RHS,
// reading the time-function parameters from theta.
TEST(TimeFunctionLoads, LoadCoordinateHarmonicInRHS) {
  Model m;
  m.AddNode(NodePoint{});                   // ODE2 0..2
  const NodeIndex n = m.AddNode(Node1D{});  // ODE2 3
  MarkerNodeCoordinate mk;
  mk.nodeNumber = n;
  LoadCoordinate l;
  l.markerNumber = m.AddMarker(mk);
  l.load = 4;
  l.timeFunction = TimeFunction::Harmonic(0.5, 3, 0.2, 1);
  m.AddLoad(l);
  SensorLoad sl;
  sl.loadNumber = LoadIndex(0);
  m.AddSensor(sl);
  const Layout L = m.Compile();
  std::vector<Real> th = m.Theta0();
  EXPECT_EQ(GetLoadRecord(L.View(), 0).timeFunctionType, kHarmonic);
  std::vector<Real> q(4, 0.), v(4, 0.), f(4);
  for (Real t : {0.0, 0.4, 1.3}) {
    const Real ft = 1 + 0.5 * std::sin(3 * t + 0.2);
    ComputeODE2RHS(L.View(), th.data(), t, q.data(), v.data(), 1, f.data());
    EXPECT_EQ(f[0], 0.);
    EXPECT_EQ(f[2], 0.);
    EXPECT_NEAR(f[3], 4 * ft, kTol) << t;
    ComputeODE2RHS(L.View(), th.data(), t, q.data(), v.data(), 0.25, f.data());
    EXPECT_NEAR(f[3], 0.25 * 4 * ft, kTol) << t;
    StateView st;
    st.t = t;
    st.q = q.data();
    st.v = v.data();
    Real out[3];
    ASSERT_EQ(SensorOutput(L.View(), th.data(), st, 0, out, 3), 1);
    EXPECT_NEAR(out[0], 4 * ft, kTol) << t;
  }
  th[static_cast<size_t>(L.ThetaIndex("load0.timeFunction.amplitude"))] = 2;  // parameters come from theta
  ComputeODE2RHS(L.View(), th.data(), 0.4, q.data(), v.data(), 1, f.data());
  EXPECT_NEAR(f[3], 4 * (1 + 2 * std::sin(3 * 0.4 + 0.2)), kTol);
}

// Ramp and Table time functions on a force vector are laid out in theta as EvalTimeFunction expects.
TEST(TimeFunctionLoads, ForceVectorRampAndTable) {
  Model m;
  const NodeIndex n = m.AddNode(NodePoint{});
  MarkerNodePosition mk;
  mk.nodeNumber = n;
  const MarkerIndex mi = m.AddMarker(mk);
  LoadForceVector ramp;
  ramp.markerNumber = mi;
  ramp.loadVector = {1, -2, 0.5};
  ramp.timeFunction = TimeFunction::Ramp(1, 2, 0, 10);
  m.AddLoad(ramp);
  LoadForceVector table;
  table.markerNumber = mi;
  table.loadVector = {0, 0, 1};
  table.timeFunction = TimeFunction::Table({0, 1, 3}, {0, 2, -2});
  m.AddLoad(table);
  const Layout L = m.Compile();
  const std::vector<Real> th = m.Theta0();
  EXPECT_EQ(GetLoadRecord(L.View(), 1).timeFunctionData, 3);
  EXPECT_EQ(GetLoadRecord(L.View(), 1).timeFunctionType, kTable);
  std::vector<Real> q(3, 0.), v(3, 0.), f(3);
  ComputeODE2RHS(L.View(), th.data(), 1.5, q.data(), v.data(), 1, f.data());  // ramp 5, table 2 - 4 * 0.25 = 1
  EXPECT_NEAR(f[0], 5., kTol);
  EXPECT_NEAR(f[1], -10., kTol);
  EXPECT_NEAR(f[2], 2.5 + 1., kTol);
  ComputeODE2RHS(L.View(), th.data(), 0.5, q.data(), v.data(), 1, f.data());  // ramp 0, table 1
  EXPECT_EQ(f, (std::vector<Real>{0, 0, 1}));
  ComputeODE2RHS(L.View(), th.data(), 9, q.data(), v.data(), 1, f.data());  // ramp 10, table clamped at -2
  EXPECT_EQ(f, (std::vector<Real>{10, -20, 5 - 2}));
}

}  // namespace
}  // namespace mbsweep
