/// @file objectives.h
/// Objectives reduced on the fly while a system integrates (the project's design rule): a batch
/// moves only parameters in and a few numbers out. Host/device code: no allocation, no
/// exceptions, no std containers.
///
/// An objective reduces one component of one sensor's output vector, sampled at Exudyn's
/// sensor write times (cpu/sensors.cpp SensorRecorder: written at t0, then when
/// t >= nextWrite - 1e-10 or at the final step, nextWrite = max(nextWrite + period, t);
/// period 0 = every step). With samples (t_k, v_k), k = 0..n-1, and, for the error kinds,
/// the measured signal m(t) (linear interpolation of a (times, values) series, clamped at
/// its ends), the reduced values are
///
///   FinalValue   v_{n-1}
///   Max, Min     max_k v_k, min_k v_k
///   MaxAbs       max_k |v_k|
///   Mean         (1/n) sum_k v_k                          (mean over the samples)
///   RMS          sqrt((1/n) sum_k v_k^2)
///   Integral     sum_{k>=1} (t_k - t_{k-1}) (v_k + v_{k-1}) / 2   (trapezoidal rule)
///   ErrorExudyn  sqrt(sum_k (v_k - m(t_k))^2) / errorDivisor * errorMultiplier
///   RMSError     sqrt((1/n) sum_k (v_k - m(t_k))^2)
///
/// ErrorExudyn is the error of Exudyn's processing examples, `np.sqrt(np.dot(diff,diff))
/// / steps * tEnd`: parameterVariationExample uses steps = 1000, tEnd = 1 (sensor written
/// every 5e-3 s, 201 samples); geneticOptimizationTest uses steps = 100, tEnd = 1 (one
/// sample per step, 101 samples), i.e. "/100". Set errorDivisor = numberOfSteps and
/// errorMultiplier = endTime to reproduce them.
///
/// An objective without samples, or with a non-finite sample, yields NaN. An objective set
/// holds up to kMaxObjectives objectives; Finalize writes each value and, if requested,
/// their weighted sum sum_i weight_i * value_i as one extra value.
///
/// The measured signals of all objectives live in one flat shared array `signalData`
/// (host or device memory, read-only): objective i's signal is
/// times = signalData[signalBegin .. signalBegin + signalLength),
/// values = signalData[signalBegin + signalLength .. signalBegin + 2 signalLength).
/// Host-side construction and validation: common/objectives_host.h.
#pragma once

#include <type_traits>

#include "common/outputs.h"

namespace mbsweep {

/// Largest number of objectives of one set.
constexpr int kMaxObjectives = 8;

/// The objectives an observer of code generated for a batch holds (common/codegen.h): the
/// smallest of 1, 2, 4 and 8 that is at least the batch's `count` objectives, so that a few
/// bounds serve every study and each observer's per-objective arrays stay short.
MBS_HD_INLINE constexpr int ObjectiveBound(int count) { return count <= 1 ? 1 : count <= 2 ? 2 : count <= 4 ? 4 : 8; }

/// The objectives an observer holds (the length of its per-objective arrays): kMaxObjectives,
/// or in generated code the bound the generator defines before any header
/// (MBSWEEP_MODEL_OBJECTIVES = ObjectiveBound of its batches' objective count).
#ifdef MBSWEEP_MODEL_OBJECTIVES
constexpr int kObserverObjectives = MBSWEEP_MODEL_OBJECTIVES;
static_assert(kObserverObjectives >= 1 && kObserverObjectives <= kMaxObjectives,
              "MBSWEEP_MODEL_OBJECTIVES must be 1..kMaxObjectives");
#else
constexpr int kObserverObjectives = kMaxObjectives;
#endif

/// How an objective reduces its sampled sensor component.
enum class ObjectiveKind : int {
  FinalValue = 0,
  Max,
  Min,
  MaxAbs,
  Mean,
  RMS,
  Integral,
  ErrorExudyn,
  RMSError,
};
/// Number of ObjectiveKind values.
constexpr int kNumObjectiveKinds = 9;

/// True for the kinds that compare against a measured signal.
MBS_HD_INLINE bool ObjectiveNeedsSignal(int kind) {
  return kind == static_cast<int>(ObjectiveKind::ErrorExudyn) || kind == static_cast<int>(ObjectiveKind::RMSError);
}

/// One objective: plain data, pointer-free, trivially copyable (kernel argument, device
/// constant memory). Trivial on purpose (no member initializers): value-initialize it
/// (`ObjectiveSpec o{}`) or use MakeObjective / the host builder (objectives_host.h).
struct ObjectiveSpec {
  int kind;              ///< ObjectiveKind as int
  int sensor;            ///< sensor index in the layout
  int component;         ///< index into the sensor's output vector
  Real weight;           ///< weight in the weighted sum
  int signalBegin;       ///< offset of the measured signal in signalData (-1: none)
  int signalLength;      ///< number of (time, value) points of the measured signal (0: none)
  Real errorDivisor;     ///< ErrorExudyn: divisor (Exudyn's examples: number of time steps)
  Real errorMultiplier;  ///< ErrorExudyn: multiplier (Exudyn's examples: end time)
};

/// An objective without measured signal; ErrorExudyn divisor and multiplier 1.
MBS_HD_INLINE ObjectiveSpec MakeObjective(ObjectiveKind kind, int sensor, int component, Real weight = 1) {
  ObjectiveSpec o;
  o.kind = static_cast<int>(kind);
  o.sensor = sensor;
  o.component = component;
  o.weight = weight;
  o.signalBegin = -1;
  o.signalLength = 0;
  o.errorDivisor = 1;
  o.errorMultiplier = 1;
  return o;
}

/// A set of objectives evaluated together on one system; plain data, pointer-free,
/// trivially copyable (value-initialize it: `ObjectiveSet s{}`).
struct ObjectiveSet {
  int count;          ///< number of objectives (0..kMaxObjectives)
  int weightedSum;    ///< 1: Finalize appends sum_i weight_i * value_i
  Real samplePeriod;  ///< sampling period (sensor write-period rule); 0 = every step
  ObjectiveSpec objective[kMaxObjectives];
  /// Number of values Finalize writes: count (+1 with the weighted sum).
  MBS_HD_INLINE int NumValues() const { return count + (weightedSum ? 1 : 0); }
};
static_assert(std::is_trivial<ObjectiveSpec>::value && std::is_standard_layout<ObjectiveSpec>::value,
              "ObjectiveSpec must stay plain data");
static_assert(std::is_trivial<ObjectiveSet>::value && std::is_standard_layout<ObjectiveSet>::value,
              "ObjectiveSet must stay plain data");

/// Value of the piecewise linear signal (times[i], values[i]), i < n, at t; clamped to the
/// first/last value outside [times[0], times[n-1]]. `cursor` (in/out, 0 initially) is the
/// interval found last time: for increasing t the search is amortized O(1). times must be
/// strictly increasing, n >= 1.
MBS_HD_INLINE Real InterpolateSignal(const Real* times, const Real* values, int n, Real t, int& cursor) {
  if (n <= 1 || t <= times[0]) return values[0];
  if (t >= times[n - 1]) return values[n - 1];
  // find k with times[k] <= t < times[k+1]
  int k = cursor;
  if (k < 0 || k >= n - 1 || times[k] > t) {  // restart: binary search
    int lo = 0, hi = n - 1;                    // invariant times[lo] <= t < times[hi]
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (times[mid] <= t) lo = mid;
      else hi = mid;
    }
    k = lo;
  } else {
    while (times[k + 1] <= t) ++k;  // terminates: t < times[n-1]
  }
  cursor = k;
  if (t == times[k]) return values[k];
  return values[k] + (values[k + 1] - values[k]) * ((t - times[k]) / (times[k + 1] - times[k]));
}

/// Same without a cursor (binary search).
MBS_HD_INLINE Real InterpolateSignal(const Real* times, const Real* values, int n, Real t) {
  int cursor = -1;
  return InterpolateSignal(times, values, n, t, cursor);
}

/// Running reductions of one system's objective set (fixed size). Bind it to a set and
/// the shared signal data with Reset, feed samples with Sample, read values with Finalize.
/// The set and the signal data must stay alive while it is used.
struct ObjectiveAccumulator {
  const ObjectiveSet* set = nullptr;
  const Real* signalData = nullptr;
  Real acc[kObserverObjectives];    ///< last value / extremum / sum / sum of squares / integral
  Real prevT[kObserverObjectives];  ///< time of the previous sample (Integral)
  Real prevV[kObserverObjectives];  ///< value of the previous sample (Integral)
  int n[kObserverObjectives];       ///< number of samples
  int cursor[kObserverObjectives];  ///< interpolation cursor into the measured signal
  int bad[kObserverObjectives];     ///< 1 if a sample was not finite (the objective becomes NaN)

  /// Binds to a set (at most kObserverObjectives objectives) and its signal data and clears all
  /// reductions.
  MBS_HD void Reset(const ObjectiveSet& s, const Real* data) {
    set = &s;
    signalData = data;
    MBS_UNROLL for (int i = 0; i < kObserverObjectives; ++i) {
      acc[i] = 0;
      prevT[i] = 0;
      prevV[i] = 0;
      n[i] = 0;
      cursor[i] = 0;
      bad[i] = 0;
    }
  }

  /// Measured signal of objective i at time t (0 if it has none).
  MBS_HD Real Measured(int i, Real t) {
    const ObjectiveSpec& o = set->objective[i];
    if (o.signalBegin < 0 || o.signalLength <= 0 || !signalData) return 0;
    const Real* times = signalData + o.signalBegin;
    return InterpolateSignal(times, times + o.signalLength, o.signalLength, t, cursor[i]);
  }

  /// Adds the sample (t, value) to objective i; samples come in increasing time.
  MBS_HD void Sample(int i, Real t, Real value) {
    const ObjectiveSpec& o = set->objective[i];
    if (!(value - value == 0)) bad[i] = 1;  // NaN or +-inf
    const int first = n[i] == 0;
    switch (static_cast<ObjectiveKind>(o.kind)) {
      case ObjectiveKind::FinalValue: acc[i] = value; break;
      case ObjectiveKind::Max:
        if (first || value > acc[i]) acc[i] = value;
        break;
      case ObjectiveKind::Min:
        if (first || value < acc[i]) acc[i] = value;
        break;
      case ObjectiveKind::MaxAbs: {
        const Real a = value < 0 ? -value : value;
        if (first || a > acc[i]) acc[i] = a;
        break;
      }
      case ObjectiveKind::Mean: acc[i] += value; break;
      case ObjectiveKind::RMS: acc[i] += value * value; break;
      case ObjectiveKind::Integral:
        if (!first) acc[i] += Real(0.5) * (t - prevT[i]) * (value + prevV[i]);
        break;
      case ObjectiveKind::ErrorExudyn:
      case ObjectiveKind::RMSError: {
        const Real d = value - Measured(i, t);
        acc[i] += d * d;
        break;
      }
      default: bad[i] = 1; break;
    }
    prevT[i] = t;
    prevV[i] = value;
    ++n[i];
  }

  /// Value of objective i (NaN without samples or after a non-finite sample).
  MBS_HD Real Value(int i) const {
    const ObjectiveSpec& o = set->objective[i];
    if (n[i] == 0 || bad[i]) return Real(NAN);
    switch (static_cast<ObjectiveKind>(o.kind)) {
      case ObjectiveKind::FinalValue:
      case ObjectiveKind::Max:
      case ObjectiveKind::Min:
      case ObjectiveKind::MaxAbs:
      case ObjectiveKind::Integral: return acc[i];
      case ObjectiveKind::Mean: return acc[i] / n[i];
      case ObjectiveKind::RMS:
      case ObjectiveKind::RMSError: return sqrt(acc[i] / n[i]);
      case ObjectiveKind::ErrorExudyn: return sqrt(acc[i]) / o.errorDivisor * o.errorMultiplier;
      default: return Real(NAN);
    }
  }

  /// Writes the objective values (then the weighted sum if the set asks for it) to out;
  /// returns the number of values written (set->NumValues()).
  MBS_HD int Finalize(Real* out) const {
    Real sum = 0;
    MBS_UNROLL for (int i = 0; i < kObserverObjectives; ++i) {
      if (i >= set->count) break;
      out[i] = Value(i);
      sum += set->objective[i].weight * out[i];
    }
    if (set->weightedSum) out[set->count] = sum;
    return set->NumValues();
  }
};

/// Observer that ignores everything (the default inner observer of ObjectiveObserver).
struct NoObserver {
  MBS_HD_INLINE void OnStart(const StateView&) {}
  MBS_HD_INLINE void OnStep(const StateView&, bool) {}
};

/// Integrator observer (OnStart/OnStep, see common/generalized_alpha.h) that samples the
/// sensors used by an objective set with the sensor write-period rule and reduces them in
/// its accumulator; other observer calls are forwarded to `inner` (if not null) first.
/// Only the sensors the objectives use are evaluated, each once per sample.
template <class Inner = NoObserver>
struct ObjectiveObserver {
#ifdef MBSWEEP_MODEL_LAYOUT
  MBS_LAYOUT_MEMBER(L);
#else
  LayoutView L;  // a copy: on the device, the kernel argument's view
#endif
  const Real* theta = nullptr;
  Inner* inner = nullptr;
  ObjectiveAccumulator acc;
  WriteSchedule schedule;  ///< sampling times (the sensors' write-period rule)
  int samples = 0;         ///< number of sample times so far
  /// Optional decimated signals (small batches, CPU-vs-GPU comparison): at every
  /// signalStride-th sample time, while fewer than signalCapacity rows are written, a row
  /// [t, value sampled for objective 0, 1, ...] (1 + set.count Reals) goes to signalOut;
  /// signalRows counts the rows written. signalOut null: nothing is recorded.
  Real* signalOut = nullptr;
  int signalStride = 1;
  int signalCapacity = 0;
  int signalRows = 0;

  MBS_HD ObjectiveObserver(const LayoutView& layout, const Real* thetaRow, const ObjectiveSet& set,
                           const Real* signalData, Inner* innerObserver = nullptr)
      : MBS_LAYOUT_INIT(L, layout) theta(thetaRow), inner(innerObserver) {
    acc.Reset(set, signalData);
    MakePlans(set);
  }

  MBS_HD void OnStart(const StateView& s) {
    if (inner) inner->OnStart(s);
    acc.Reset(*acc.set, acc.signalData);
    samples = 0;
    signalRows = 0;
    SampleAll(s);
    schedule.period = acc.set->samplePeriod;
    schedule.Start(s.t);
  }

  /// True if OnStep at time t samples the objectives (or the inner observer may need it).
  MBS_HD bool Due(Real t, bool final) const { return inner || schedule.Due(t, final); }

  MBS_HD void OnStep(const StateView& s, bool final) {
    if (inner) inner->OnStep(s, final);
    if (schedule.Due(s.t, final)) {
      SampleAll(s);
      schedule.Advance(s.t);
    }
  }

  /// Writes the objective values (see ObjectiveAccumulator::Finalize).
  MBS_HD int Finalize(Real* out) const { return acc.Finalize(out); }

  /// Samples every objective at state s: sensors evaluated once each, by their plans. Where
  /// every call is inlined (MBSWEEP_INLINE_ALL: a small model's generated kernel) each objective
  /// reads its sensor through a dispatch over the model's sensors instead (SensorValue): with
  /// constant indices throughout, the state, theta and the accumulators stay in registers; a
  /// sensor that two objectives share is then evaluated for each.
  MBS_HD void SampleAll(const StateView& s) {
    const ObjectiveSet& set = *acc.set;
    Real* row = signalOut && signalRows < signalCapacity && samples % signalStride == 0
                    ? signalOut + static_cast<long>(signalRows) * (1 + set.count)
                    : nullptr;
    if (row) row[0] = s.t;
#if defined(MBSWEEP_INLINE_ALL)
    MBS_UNROLL for (int j = 0; j < kObserverObjectives; ++j) {
      if (j >= set.count) break;
      const Real value = SensorValue(s, set.objective[j].sensor, set.objective[j].component);
      acc.Sample(j, s.t, value);
      if (row) row[1 + j] = value;
    }
#else
    Real buf[kMaxSensorValues];
    for (int k = 0; k < nPlans; ++k) {
      const int nv = EvaluateSensorPlan(plan[k], L, theta, s, buf, planValues[k]);
      for (int j = 0; j < set.count; ++j) {
        if (planOf[j] != k) continue;
        const ObjectiveSpec& o = set.objective[j];
        const bool ok = o.component >= 0 && o.component < nv && o.component < planValues[k];
        const Real value = ok ? buf[o.component] : Real(NAN);
        acc.Sample(j, s.t, value);
        if (row) row[1 + j] = value;
      }
    }
#endif
    if (row) ++signalRows;
    ++samples;
  }

 private:
#if defined(MBSWEEP_INLINE_ALL)
  /// Value `component` of sensor `sensor` at state s (NaN if the sensor has no such value).
  MBS_HD Real SensorValue(const StateView& s, int sensor, int component) const {
    const LayoutView& layout = L;
    Real value = Real(NAN);
    MBS_UNROLL for (int k = 0; k < layout.nSensors; ++k)
      if (k == sensor) {
        Real buf[kMaxSensorValues];
        const int nv = SensorOutput(layout, theta, s, k, buf, kMaxSensorValues);
        MBS_UNROLL for (int c = 0; c < kMaxSensorValues; ++c)
          if (c == component && c < nv) value = buf[c];
      }
    return value;
  }
  MBS_HD void MakePlans(const ObjectiveSet&) {}
#else
  /// One plan per distinct sensor of the set, in the order of first use; planValues[k]: the
  /// values needed (up to the largest component its objectives read); planOf[j]: objective j's.
  SensorPlan plan[kObserverObjectives];
  int planValues[kObserverObjectives];
  int planOf[kObserverObjectives];
  int nPlans = 0;

  MBS_HD void MakePlans(const ObjectiveSet& set) {
    for (int j = 0; j < set.count; ++j) {
      const int sensor = set.objective[j].sensor;
      int k = 0;
      while (k < nPlans && plan[k].sensor != sensor) ++k;
      if (k == nPlans) {
        plan[nPlans] = MakeSensorPlan(L, theta, sensor);
        planValues[nPlans++] = 0;
      }
      planOf[j] = k;
      if (set.objective[j].component + 1 > planValues[k]) planValues[k] = set.objective[j].component + 1;
      if (planValues[k] > kMaxSensorValues) planValues[k] = kMaxSensorValues;
    }
  }
#endif
};

}  // namespace mbsweep
