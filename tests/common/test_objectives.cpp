// Objectives reduced on the fly: each reducer against hand-computed values on a synthetic
// sample stream, interpolation of measured signals, the ErrorExudyn and RMSError formulas,
// the observer's write-period sampling, and the host builder/validator with its messages.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "common/model.h"
#include "common/objectives.h"
#include "common/objectives_host.h"
#include "common/rules.h"

namespace mbsweep {
namespace {

// Synthetic stream: t = 0, 0.5, 1.5, 2 (non-uniform), v = 1, -3, 2, 0.5.
const double kT[] = {0, 0.5, 1.5, 2};
const double kV[] = {1, -3, 2, 0.5};

ObjectiveSet AllPlainKinds() {
  ObjectiveSet set{};
  const ObjectiveKind kinds[] = {ObjectiveKind::FinalValue, ObjectiveKind::Max,  ObjectiveKind::Min,
                                 ObjectiveKind::MaxAbs,     ObjectiveKind::Mean, ObjectiveKind::RMS,
                                 ObjectiveKind::Integral};
  set.count = 7;
  for (int i = 0; i < 7; ++i) set.objective[i] = MakeObjective(kinds[i], 0, 0, i + 1.0);
  return set;
}

TEST(Objectives, ReducersOnSyntheticStream) {
  ObjectiveSet set = AllPlainKinds();
  set.weightedSum = 1;
  ObjectiveAccumulator acc;
  acc.Reset(set, nullptr);
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < set.count; ++i) acc.Sample(i, kT[k], kV[k]);
  double out[kMaxObjectives + 1];
  ASSERT_EQ(acc.Finalize(out), 8);
  const double want[] = {
      0.5,                                  // FinalValue
      2,                                    // Max
      -3,                                   // Min
      3,                                    // MaxAbs
      0.125,                                // Mean (1 - 3 + 2 + 0.5) / 4
      std::sqrt(14.25 / 4),                 // RMS: (1 + 9 + 4 + 0.25) / 4
      0.25 * (1 - 3) + 0.5 * (-3 + 2) + 0.25 * (2 + 0.5),  // Integral (trapezoid) = -0.375
  };
  double sum = 0;
  for (int i = 0; i < 7; ++i) {
    EXPECT_NEAR(out[i], want[i], 1e-15) << i;
    sum += (i + 1.0) * want[i];
  }
  EXPECT_NEAR(want[6], -0.375, 1e-15);
  EXPECT_NEAR(out[7], sum, 1e-14);
}

TEST(Objectives, ResetClearsAndSingleSample) {
  ObjectiveSet set = AllPlainKinds();
  ObjectiveAccumulator acc;
  acc.Reset(set, nullptr);
  for (int i = 0; i < set.count; ++i) acc.Sample(i, 0.3, 7);
  acc.Reset(set, nullptr);
  for (int i = 0; i < set.count; ++i) acc.Sample(i, 0.5, -2);
  double out[kMaxObjectives];
  ASSERT_EQ(acc.Finalize(out), 7);
  const double want[] = {-2, -2, -2, 2, -2, 2, 0};  // one sample: integral over a zero interval
  for (int i = 0; i < 7; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(Objectives, NoSamplesOrNonFiniteSampleGiveNaN) {
  ObjectiveSet set = AllPlainKinds();
  set.weightedSum = 1;
  ObjectiveAccumulator acc;
  acc.Reset(set, nullptr);
  double out[kMaxObjectives + 1];
  acc.Finalize(out);
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(std::isnan(out[i])) << i;
  // a NaN in the middle of the stream poisons Max (which a plain comparison would skip)
  acc.Reset(set, nullptr);
  const double v[] = {1, NAN, 3};
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < set.count; ++i) acc.Sample(i, k, i == 1 ? v[k] : 1.0);
  acc.Finalize(out);
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_EQ(out[0], 1);
  EXPECT_TRUE(std::isnan(out[7]));  // the weighted sum includes it
  acc.Reset(set, nullptr);
  for (int i = 0; i < set.count; ++i) acc.Sample(i, 0, INFINITY);
  acc.Finalize(out);
  EXPECT_TRUE(std::isnan(out[1]));
}

TEST(Objectives, SignalInterpolationIsLinearAndClamped) {
  const double t[] = {0, 1, 3}, v[] = {0, 2, -2};
  EXPECT_EQ(InterpolateSignal(t, v, 3, -1), 0);
  EXPECT_EQ(InterpolateSignal(t, v, 3, 0), 0);
  EXPECT_NEAR(InterpolateSignal(t, v, 3, 0.25), 0.5, 1e-15);
  EXPECT_EQ(InterpolateSignal(t, v, 3, 1), 2);
  EXPECT_NEAR(InterpolateSignal(t, v, 3, 2), 0, 1e-15);
  EXPECT_NEAR(InterpolateSignal(t, v, 3, 2.5), -1, 1e-15);
  EXPECT_EQ(InterpolateSignal(t, v, 3, 3), -2);
  EXPECT_EQ(InterpolateSignal(t, v, 3, 10), -2);
  // the cursor walks forward and restarts (binary search) when time goes back
  int cursor = 0;
  const double ts[] = {0.5, 1.5, 2.9, 0.1, 1.0, 2.0, 5};
  const double want[] = {1, 1, -1.8, 0.2, 2, 0, -2};
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(InterpolateSignal(t, v, 3, ts[i], cursor), want[i], 1e-14) << ts[i];
  // a single point is a constant signal
  const double t1[] = {0.5}, v1[] = {4};
  EXPECT_EQ(InterpolateSignal(t1, v1, 1, 0), 4);
  EXPECT_EQ(InterpolateSignal(t1, v1, 1, 7), 4);
  // many points: the cursor result equals the binary search result
  std::vector<double> tt, vv;
  for (int i = 0; i < 101; ++i) {
    tt.push_back(i * 0.01 + 0.001 * (i % 3));
    vv.push_back(std::sin(7.0 * i));
  }
  cursor = 0;
  for (int k = 0; k <= 1000; ++k) {
    const double tk = k * 0.00103;
    EXPECT_EQ(InterpolateSignal(tt.data(), vv.data(), 101, tk, cursor),
              InterpolateSignal(tt.data(), vv.data(), 101, tk));
  }
}

// sim v_k = 2 t_k + d_k at t = 0, 0.25, ..., 1; measured 2t given at t = 0, 0.5, 1 (so the
// interpolated signal at the quarter points is exact); sum d^2 = 0.15.
TEST(Objectives, ErrorFormulas) {
  const std::vector<double> signal = {0, 0.5, 1, 0, 1, 2};  // times, then values
  ObjectiveSet set{};
  set.count = 3;
  set.weightedSum = 1;
  set.objective[0] = MakeObjective(ObjectiveKind::ErrorExudyn, 0, 0, 1);
  set.objective[0].errorDivisor = 4;  // 4 steps, tEnd = 1
  set.objective[0].errorMultiplier = 1;
  set.objective[1] = set.objective[0];
  set.objective[1].errorDivisor = 100;
  set.objective[1].errorMultiplier = 2;
  set.objective[1].weight = 10;
  set.objective[2] = MakeObjective(ObjectiveKind::RMSError, 0, 0, -1);
  for (int i = 0; i < 3; ++i) {
    set.objective[i].signalBegin = 0;
    set.objective[i].signalLength = 3;
  }
  const double d[] = {0.1, -0.2, 0, 0.3, 0.1};
  ObjectiveAccumulator acc;
  acc.Reset(set, signal.data());
  for (int k = 0; k < 5; ++k)
    for (int i = 0; i < 3; ++i) acc.Sample(i, 0.25 * k, 0.5 * k + d[k]);
  double out[4];
  ASSERT_EQ(acc.Finalize(out), 4);
  EXPECT_NEAR(out[0], std::sqrt(0.15) / 4, 1e-15);
  EXPECT_NEAR(out[1], std::sqrt(0.15) / 100 * 2, 1e-15);
  EXPECT_NEAR(out[2], std::sqrt(0.15 / 5), 1e-15);
  EXPECT_NEAR(out[3], out[0] + 10 * out[1] - out[2], 1e-15);
}

// Two signals in one shared array: the second objective's signal starts after the first.
TEST(Objectives, SharedSignalArrayOffsets) {
  const std::vector<double> signal = {0, 1, 5, 5,  // signal A: t = 0,1; v = 5,5
                                      0, 2, 0, 4}; // signal B: t = 0,2; v = 0,4
  ObjectiveSet set{};
  set.count = 2;
  for (int i = 0; i < 2; ++i) {
    set.objective[i] = MakeObjective(ObjectiveKind::RMSError, 0, 0);
    set.objective[i].signalBegin = 4 * i;
    set.objective[i].signalLength = 2;
  }
  ObjectiveAccumulator acc;
  acc.Reset(set, signal.data());
  for (int i = 0; i < 2; ++i) acc.Sample(i, 1.0, 3.0);
  double out[2];
  acc.Finalize(out);
  EXPECT_NEAR(out[0], 2, 1e-15);  // |3 - 5|
  EXPECT_NEAR(out[1], 1, 1e-15);  // |3 - 2|
}

// The observer on hand-made states: a free NodePoint whose coordinates are set to
// q = (10 t, -t^2, 3) before each call; integrator steps every 0.02 s up to 0.2 s.
TEST(Objectives, ObserverSamplesWithWritePeriodRule) {
  Model m;
  NodePoint np;
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint mp;
  mp.mass = 1;
  mp.nodeNumber = n;
  m.AddObject(mp);
  SensorNode s0;
  s0.nodeNumber = n;
  s0.outputVariableType = OutputVariableType::Coordinates;
  m.AddSensor(s0);
  SensorNode s1 = s0;
  s1.outputVariableType = OutputVariableType::Coordinates_t;
  m.AddSensor(s1);
  const Layout layout = m.Compile();
  const std::vector<double> theta = m.Theta0();
  ObjectiveSet set{};
  set.count = 4;
  set.samplePeriod = 0.05;
  set.objective[0] = MakeObjective(ObjectiveKind::Integral, 0, 0);  // component x of sensor 0
  set.objective[1] = MakeObjective(ObjectiveKind::Min, 0, 1);       // component y of sensor 0
  set.objective[2] = MakeObjective(ObjectiveKind::FinalValue, 1, 0);
  set.objective[3] = MakeObjective(ObjectiveKind::Mean, 0, 2);

  struct Counter {
    int starts = 0, steps = 0, finals = 0;
    void OnStart(const StateView&) { ++starts; }
    void OnStep(const StateView&, bool final) {
      ++steps;
      finals += final;
    }
  } inner;
  ObjectiveObserver<Counter> obs(layout.View(), theta.data(), set, nullptr, &inner);
  double q[3], v[3] = {-7, 0, 0}, a[3] = {0, 0, 0};
  StateView sv{0, q, v, a, nullptr, nullptr, nullptr};
  std::vector<double> sampled;
  auto put = [&](double t) {
    sv.t = t;
    q[0] = 10 * t;
    q[1] = -t * t;
    q[2] = 3;
    v[0] = -7 + t;
  };
  put(0);
  obs.OnStart(sv);
  for (int k = 1; k <= 10; ++k) {
    put(0.02 * k);
    const int before = obs.samples;
    obs.OnStep(sv, k == 10);
    if (obs.samples > before) sampled.push_back(sv.t);
  }
  EXPECT_EQ(inner.starts, 1);
  EXPECT_EQ(inner.steps, 10);
  EXPECT_EQ(inner.finals, 1);
  // Exudyn's write times for this rule (see tests/cpu/test_sensors.cpp): 0, 0.06, 0.1, 0.16, 0.2
  const std::vector<double> want{0.06, 0.1, 0.16, 0.2};
  ASSERT_EQ(sampled.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(sampled[i], want[i], 1e-12);
  EXPECT_EQ(obs.samples, 5);
  double out[4];
  ASSERT_EQ(obs.Finalize(out), 4);
  EXPECT_NEAR(out[0], 10 * 0.2 * 0.2 / 2, 1e-14);  // trapezoid of a linear function is exact
  EXPECT_NEAR(out[1], -0.04, 1e-15);
  EXPECT_NEAR(out[2], -7 + 0.2, 1e-15);
  EXPECT_NEAR(out[3], 3, 1e-15);

  // period 0: every step; a second run of the same observer starts over
  set.samplePeriod = 0;
  put(0);
  obs.OnStart(sv);
  for (int k = 1; k <= 10; ++k) {
    put(0.02 * k);
    obs.OnStep(sv, k == 10);
  }
  EXPECT_EQ(obs.samples, 11);
  obs.Finalize(out);
  EXPECT_NEAR(out[0], 0.2, 1e-14);
}

// ------------------------------------------------------------------------------------
// host builder / validator
// ------------------------------------------------------------------------------------
std::string ErrorOf(const ObjectiveSetDescription& d, const std::vector<int>& sizes = {3, 1},
                    const std::vector<std::string>& names = {"pos", "force"}) {
  try {
    BuildObjectivesFromSizes(d, sizes, names);
  } catch (const ValidationError& e) {
    return e.what();
  }
  return "(no error)";
}

ObjectiveSetDescription One(const std::string& kind, int sensor = 0, int component = 0) {
  ObjectiveSetDescription d;
  ObjectiveDescription o;
  o.name = "obj";
  o.kind = kind;
  o.sensor = sensor;
  o.component = component;
  d.objectives.push_back(o);
  return d;
}

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ObjectivesHost, KindNames) {
  for (int i = 0; i < kNumObjectiveKinds; ++i)
    EXPECT_EQ(static_cast<int>(ParseObjectiveKind(ObjectiveKindName(static_cast<ObjectiveKind>(i)))), i);
  EXPECT_EQ(ObjectiveKindNames(), "FinalValue, Max, Min, MaxAbs, Mean, RMS, Integral, ErrorExudyn, RMSError");
}

TEST(ObjectivesHost, BuildsPlainDataSet) {
  ObjectiveSetDescription d;
  d.samplePeriod = 0.002;
  d.weightedSum = true;
  ObjectiveDescription a;
  a.kind = "MaxAbs";
  a.sensor = 0;
  a.component = 2;
  a.weight = 0.5;
  ObjectiveDescription b;
  b.name = "fit";
  b.kind = "ErrorExudyn";
  b.sensor = 1;
  b.signalTimes = {0, 0.5, 1};
  b.signalValues = {1, 2, 3};
  b.errorDivisor = 100;
  b.errorMultiplier = 2;
  ObjectiveDescription c = b;
  c.name = "rms";
  c.kind = "RMSError";
  c.signalTimes = {0, 1};
  c.signalValues = {7, 8};
  d.objectives = {a, b, c};
  const CompiledObjectives co = BuildObjectivesFromSizes(d, {3, 1}, {"pos", "force"});
  EXPECT_EQ(co.set.count, 3);
  EXPECT_EQ(co.set.weightedSum, 1);
  EXPECT_EQ(co.set.NumValues(), 4);
  EXPECT_EQ(co.set.samplePeriod, 0.002);
  EXPECT_EQ(co.set.objective[0].kind, static_cast<int>(ObjectiveKind::MaxAbs));
  EXPECT_EQ(co.set.objective[0].component, 2);
  EXPECT_EQ(co.set.objective[0].weight, 0.5);
  EXPECT_EQ(co.set.objective[0].signalBegin, -1);
  EXPECT_EQ(co.set.objective[1].signalBegin, 0);
  EXPECT_EQ(co.set.objective[1].signalLength, 3);
  EXPECT_EQ(co.set.objective[1].errorDivisor, 100);
  EXPECT_EQ(co.set.objective[1].errorMultiplier, 2);
  EXPECT_EQ(co.set.objective[2].signalBegin, 6);
  EXPECT_EQ(co.set.objective[2].signalLength, 2);
  EXPECT_EQ(co.signalData, (std::vector<double>{0, 0.5, 1, 1, 2, 3, 0, 1, 7, 8}));
  EXPECT_EQ(co.valueNames, (std::vector<std::string>{"objective0", "fit", "rms", "weightedSum"}));
}

TEST(ObjectivesHost, Messages) {
  EXPECT_EQ(ErrorOf(One("Maximum")),
            "objective 'obj' (objective 0): kind = 'Maximum' is not an objective kind; valid: FinalValue, Max, Min, "
            "MaxAbs, Mean, RMS, Integral, ErrorExudyn, RMSError");
  EXPECT_EQ(ErrorOf(One("Max", 0, 3)),
            "objective 'obj' (objective 0): component = 3 is out of range for sensor 'pos' (sensor 0), which has 3 "
            "output values (must be in 0..2)");
  EXPECT_EQ(ErrorOf(One("Max", 1, 1)),
            "objective 'obj' (objective 0): component = 1 is out of range for sensor 'force' (sensor 1), which has 1 "
            "output value (must be in 0..0)");
  EXPECT_EQ(ErrorOf(One("Max", 0, -1)),
            "objective 'obj' (objective 0): component = -1 violates UInt (must be an integer >= 0)");
  EXPECT_EQ(ErrorOf(One("Max", 2)),
            "objective 'obj' (objective 0): sensor = 2 does not exist (the model has 2 sensors)");
  EXPECT_EQ(ErrorOf(One("Max", -1)), "objective 'obj' (objective 0): sensor = -1 violates UInt (must be an integer >= 0)");
  EXPECT_EQ(ErrorOf(One("Max", 0, 64), {100}, {}),
            "objective 'obj' (objective 0): component = 64 exceeds the largest component objectives support (63, "
            "kMaxSensorValues - 1)");
  auto d = One("Max");
  d.objectives[0].weight = NAN;
  EXPECT_EQ(ErrorOf(d), "objective 'obj' (objective 0): weight = nan violates Real (must be finite)");
  d = One("Min");
  d.samplePeriod = -0.1;
  EXPECT_EQ(ErrorOf(d), "objective set: samplePeriod = -0.1 violates UReal (must be >= 0)");
  d = ObjectiveSetDescription{};
  EXPECT_EQ(ErrorOf(d), "objective set: 0 objectives given; must be 1..8 (kMaxObjectives)");
  d = One("Min");
  d.objectives.resize(9, d.objectives[0]);
  EXPECT_EQ(ErrorOf(d), "objective set: 9 objectives given; must be 1..8 (kMaxObjectives)");
  // the second objective is named by its index
  d = One("Min");
  d.objectives.push_back(d.objectives[0]);
  d.objectives[1].name.clear();
  d.objectives[1].kind = "";
  EXPECT_EQ(ErrorOf(d).substr(0, 51), "objective 'objective1' (objective 1): kind = '' is ");
}

TEST(ObjectivesHost, SignalMessages) {
  auto d = One("RMSError", 1);
  EXPECT_EQ(ErrorOf(d),
            "objective 'obj' (objective 0): signalTimes is empty: kind = RMSError needs a measured signal "
            "(signalTimes/signalValues or signalFile)");
  d.objectives[0].signalValues = {1, 2};
  EXPECT_EQ(ErrorOf(d), "objective 'obj' (objective 0): signalTimes is empty (signalValues has 2 values)");
  d.objectives[0].signalTimes = {0, 1, 2};
  EXPECT_EQ(ErrorOf(d),
            "objective 'obj' (objective 0): signalValues has 2 values, but signalTimes has 3 (must be equal)");
  d.objectives[0].signalValues = {1, 2, 3};
  d.objectives[0].signalTimes = {0, 0.5, 0.5};
  EXPECT_EQ(ErrorOf(d),
            "objective 'obj' (objective 0): signalTimes[2] = 0.5 is not greater than signalTimes[1] = 0.5 (times "
            "must be strictly increasing)");
  d.objectives[0].signalTimes = {0, 0.5, 0.2};
  EXPECT_NE(ErrorOf(d).find("signalTimes[2] = 0.2 is not greater than signalTimes[1] = 0.5"), std::string::npos);
  d.objectives[0].signalTimes = {0, 0.5, 1};
  d.objectives[0].signalValues = {0, INFINITY, 1};
  EXPECT_EQ(ErrorOf(d), "objective 'obj' (objective 0): signalValues[1] = inf violates Real (must be finite)");
  d.objectives[0].signalValues = {0, 1, 1};
  d.objectives[0].signalFile = "x.csv";
  EXPECT_EQ(ErrorOf(d),
            "objective 'obj' (objective 0): signalFile = 'x.csv' and signalTimes/signalValues are both given; give "
            "one of them");
  d.objectives[0].signalFile.clear();
  d.objectives[0].kind = "ErrorExudyn";
  d.objectives[0].errorDivisor = 0;
  EXPECT_EQ(ErrorOf(d), "objective 'obj' (objective 0): errorDivisor = 0 violates PReal (must be > 0)");
  d.objectives[0].kind = "Mean";
  EXPECT_EQ(ErrorOf(d),
            "objective 'obj' (objective 0): signalTimes/signalValues is given, but kind = Mean does not use a "
            "measured signal (only ErrorExudyn and RMSError do)");
}

TEST(ObjectivesHost, CsvSignals) {
  // header line, several value columns, spaces, CRLF, comments and blank lines
  const std::string f = WriteFile("obj_signal.csv",
                                  "# measured\ntime, x, force\r\n0, 1, 10\r\n\n0.5 ,2,20\n1,+3,3e1\n# end\n");
  MeasuredSignal s = ReadSignalCsv(f);
  EXPECT_EQ(s.times, (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(s.values, (std::vector<double>{1, 2, 3}));
  s = ReadSignalCsv(f, 2);
  EXPECT_EQ(s.values, (std::vector<double>{10, 20, 30}));
  s = ReadSignalCsv(f, 1, "force");
  EXPECT_EQ(s.values, (std::vector<double>{10, 20, 30}));
  // an Exudyn sensor file: '#' header only
  const std::string ex = WriteFile("obj_exudyn.txt",
                                   "#Exudyn generalized alpha sensor output file\n#columns contain: time, x\n"
                                   "0,0.1,7\n0.01,0.2,8\n");
  s = ReadSignalCsv(ex, 2);
  EXPECT_EQ(s.times, (std::vector<double>{0, 0.01}));
  EXPECT_EQ(s.values, (std::vector<double>{7, 8}));

  auto err = [](const std::string& file, int column, const std::string& name) {
    try {
      ReadSignalCsv(file, column, name);
    } catch (const ValidationError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(err(f, 1, "torque"),
            "signal file '" + f + "' line 2: no column named 'torque' in the header (columns: time, x, force)");
  EXPECT_EQ(err(f, 3, ""), "signal file '" + f + "' line 3: has 3 columns; column 3 (0 = time) requested");
  EXPECT_EQ(err(ex, 1, "x"), "signal file '" + ex +
                                 "' line 3: column 'x' requested by name, but the file has no header line (its first "
                                 "line holds numbers)");
  const std::string bad = WriteFile("obj_bad.csv", "t,v\n0,1\n0.1,abc\n");
  EXPECT_EQ(err(bad, 1, ""), "signal file '" + bad + "' line 3: field 1 = 'abc' is not a number");
  const std::string badT = WriteFile("obj_badt.csv", "t,v\n0,1\n0.1x,2\n");
  EXPECT_EQ(err(badT, 1, ""), "signal file '" + badT + "' line 3: field 0 (time) = '0.1x' is not a number");
  const std::string empty = WriteFile("obj_empty.csv", "t,v\n# nothing\n");
  EXPECT_EQ(err(empty, 1, ""), "signal file '" + empty + "': no data rows (only header, comment or blank lines)");
  EXPECT_EQ(err("/nonexistent/dir/s.csv", 1, ""), "signal file '/nonexistent/dir/s.csv': cannot open the file for reading");
  EXPECT_EQ(err(f, -1, ""), "signal file '" + f + "': column = -1 violates UInt (must be an integer >= 0)");

  // through the builder: the objective is named, and times are checked with file lines
  auto d = One("RMSError", 1);
  d.objectives[0].signalFile = f;
  d.objectives[0].signalColumnName = "force";
  const CompiledObjectives co = BuildObjectivesFromSizes(d, {3, 1}, {});
  EXPECT_EQ(co.signalData, (std::vector<double>{0, 0.5, 1, 10, 20, 30}));
  d.objectives[0].signalFile = bad;
  d.objectives[0].signalColumnName.clear();
  EXPECT_EQ(ErrorOf(d), "objective 'obj' (objective 0): signalFile (signal file '" + bad +
                            "' line 3: field 1 = 'abc' is not a number)");
  d.objectives[0].signalFile = WriteFile("obj_order.csv", "t,v\n0,1\n\n0.2,1\n0.2,3\n");
  EXPECT_EQ(ErrorOf(d), "objective 'obj' (objective 0): time in signal file '" + d.objectives[0].signalFile +
                            "' line 5 = 0.2 is not greater than time in signal file '" + d.objectives[0].signalFile +
                            "' line 4 = 0.2 (times must be strictly increasing)");
  d.objectives[0].kind = "Max";
  EXPECT_EQ(ErrorOf(d),
            "objective 'obj' (objective 0): signalFile is given, but kind = Max does not use a measured signal (only "
            "ErrorExudyn and RMSError do)");
}

TEST(ObjectivesHost, SensorOutputSizesFromLayout) {
  Model m;
  NodePoint np;
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint mp;
  mp.mass = 1;
  mp.nodeNumber = n;
  m.AddObject(mp);
  NodePointGround g;
  const NodeIndex ng = m.AddNode(g);
  MarkerNodeCoordinate c0, c1;
  c0.nodeNumber = ng;
  c1.nodeNumber = n;
  ObjectConnectorCoordinateSpringDamper sd;
  sd.markerNumbers = {m.AddMarker(c0), m.AddMarker(c1)};
  sd.stiffness = 100;
  const ObjectIndex spring = m.AddObject(sd);
  SensorNode sn;
  sn.nodeNumber = n;
  sn.outputVariableType = OutputVariableType::Position;
  sn.name = "nodePos";
  m.AddSensor(sn);
  SensorObject so;
  so.objectNumber = spring;
  so.outputVariableType = OutputVariableType::Force;
  m.AddSensor(so);
  const Layout layout = m.Compile();
  EXPECT_EQ(SensorOutputSizes(layout, m.Theta0()), (std::vector<int>{3, 1}));
  auto d = One("Max", 0, 3);
  try {
    BuildObjectives(d, layout, m.Theta0());
    FAIL() << "no error";
  } catch (const ValidationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "objective 'obj' (objective 0): component = 3 is out of range for sensor 'nodePos' (sensor 0), which "
              "has 3 output values (must be in 0..2)");
  }
  d.objectives[0].component = 2;
  EXPECT_EQ(BuildObjectives(d, layout, m.Theta0()).set.objective[0].component, 2);
}

}  // namespace
}  // namespace mbsweep
