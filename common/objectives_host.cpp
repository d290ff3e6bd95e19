// Host-side builder/validator of objective sets and the CSV reader of measured signals.
#include "common/objectives_host.h"

#include <charconv>
#include <cmath>
#include <fstream>

#include "common/layout_records.h"
#include "common/rules.h"

namespace mbsweep {

namespace {

const char* const kKindNames[kNumObjectiveKinds] = {"FinalValue", "Max",      "Min",         "MaxAbs",  "Mean",
                                                    "RMS",        "Integral", "ErrorExudyn", "RMSError"};

std::vector<std::string> SplitFields(const std::string& line) {
  std::vector<std::string> f;
  size_t start = 0;
  for (;;) {
    const size_t c = line.find(',', start);
    f.push_back(Trim(line.substr(start, c == std::string::npos ? std::string::npos : c - start)));
    if (c == std::string::npos) break;
    start = c + 1;
  }
  return f;
}

/// Parses a whole field as a double (a leading '+' allowed).
bool ParseNumber(const std::string& field, double& v) {
  const char* b = field.data();
  const char* e = b + field.size();
  if (b != e && *b == '+') ++b;
  if (b == e) return false;
  const auto r = std::from_chars(b, e, v);
  return r.ec == std::errc() && r.ptr == e;
}

/// The CSV reader behind ReadSignalCsv; also returns the file line of each point.
MeasuredSignal ReadCsv(const std::string& file, int column, const std::string& columnName, std::vector<int>& lines) {
  const std::string where = "signal file '" + file + "'";
  if (columnName.empty() && column < 0)
    throw ValidationError(where + ": column = " + std::to_string(column) + " violates UInt (must be an integer >= 0)");
  std::ifstream in(file);
  if (!in) throw ValidationError(where + ": cannot open the file for reading");
  MeasuredSignal sig;
  lines.clear();
  bool first = true;
  int col = column, lineNo = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++lineNo;
    const std::string t = Trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::vector<std::string> f = SplitFields(t);
    const std::string at = where + " line " + std::to_string(lineNo);
    double tv = 0, vv = 0;
    if (first) {
      first = false;
      if (!ParseNumber(f[0], tv)) {  // header line
        if (!columnName.empty()) {
          col = -1;
          std::string all;
          for (size_t i = 0; i < f.size(); ++i) {
            if (f[i] == columnName) col = static_cast<int>(i);
            all += (i ? ", " : "") + f[i];
          }
          if (col < 0)
            throw ValidationError(at + ": no column named '" + columnName + "' in the header (columns: " + all + ")");
        }
        continue;
      }
      if (!columnName.empty())
        throw ValidationError(at + ": column '" + columnName +
                              "' requested by name, but the file has no header line (its first line holds numbers)");
    }
    if (static_cast<int>(f.size()) <= col)
      throw ValidationError(at + ": has " + std::to_string(f.size()) + " columns; column " + std::to_string(col) +
                            " (0 = time) requested");
    if (!ParseNumber(f[0], tv))
      throw ValidationError(at + ": field 0 (time) = '" + f[0] + "' is not a number");
    if (!ParseNumber(f[static_cast<size_t>(col)], vv))
      throw ValidationError(at + ": field " + std::to_string(col) + " = '" + f[static_cast<size_t>(col)] +
                            "' is not a number");
    sig.times.push_back(tv);
    sig.values.push_back(vv);
    lines.push_back(lineNo);
  }
  if (in.bad()) throw ValidationError(where + ": read error after line " + std::to_string(lineNo));
  if (sig.times.empty()) throw ValidationError(where + ": no data rows (only header, comment or blank lines)");
  return sig;
}

struct ObjectiveChecker {
  std::string desc;  // "objective 'name' (objective i)"

  [[noreturn]] void Fail(const std::string& field, const std::string& msg) const {
    throw ValidationError(desc + ": " + field + " " + msg);
  }
  void CheckReal(const std::string& field, Real x, Rule r) const {
    if (!SatisfiesRule(x, r))
      Fail(field, "= " + FormatReal(x) + " violates " + RuleName(r) + " (" + RuleCondition(r) + ")");
  }
};

/// Checks an objective set's number of objectives (1..kMaxObjectives) and samplePeriod;
/// returns the number of objectives.
int CheckedObjectiveCount(const ObjectiveSetDescription& d) {
  const int count = static_cast<int>(d.objectives.size());
  if (count < 1 || count > kMaxObjectives)
    throw ValidationError("objective set: " + std::to_string(count) + " objectives given; must be 1.." +
                          std::to_string(kMaxObjectives) + " (kMaxObjectives)");
  if (!SatisfiesRule(d.samplePeriod, Rule::UReal))
    throw ValidationError("objective set: samplePeriod = " + FormatReal(d.samplePeriod) + " violates UReal (" +
                          RuleCondition(Rule::UReal) + ")");
  return count;
}

/// The kind of objective od, parsed from its kind name (an unknown name fails, listing the
/// valid ones).
ObjectiveKind CheckedObjectiveKind(const ObjectiveChecker& c, const ObjectiveDescription& od) {
  try {
    return ParseObjectiveKind(od.kind);
  } catch (const ValidationError&) {
    c.Fail("kind", "= '" + od.kind + "' is not an objective kind; valid: " + ObjectiveKindNames());
  }
}

/// Checks that objective od's sensor exists (sizes: the output size of each sensor) and that
/// its component is one of that sensor's output values and below kMaxSensorValues.
void CheckSensorComponent(const ObjectiveChecker& c, const ObjectiveDescription& od, const std::vector<int>& sizes,
                          const std::vector<std::string>& sensorNames) {
  const int nSensors = static_cast<int>(sizes.size());
  if (od.sensor < 0) c.Fail("sensor", "= " + std::to_string(od.sensor) + " violates UInt (must be an integer >= 0)");
  if (od.sensor >= nSensors)
    c.Fail("sensor", "= " + std::to_string(od.sensor) + " does not exist (the model has " + std::to_string(nSensors) +
                         " sensor" + (nSensors == 1 ? "" : "s") + ")");
  const size_t si = static_cast<size_t>(od.sensor);
  const std::string sensorDesc =
      "sensor " + (si < sensorNames.size() ? "'" + sensorNames[si] + "' (sensor " + std::to_string(od.sensor) + ")"
                                           : std::to_string(od.sensor));
  const int nv = sizes[si];
  if (od.component < 0)
    c.Fail("component", "= " + std::to_string(od.component) + " violates UInt (must be an integer >= 0)");
  if (od.component >= nv)
    c.Fail("component", "= " + std::to_string(od.component) + " is out of range for " + sensorDesc + ", which has " +
                            std::to_string(nv) + " output value" + (nv == 1 ? "" : "s") +
                            (nv > 0 ? " (must be in 0.." + std::to_string(nv - 1) + ")" : ""));
  if (od.component >= kMaxSensorValues)
    c.Fail("component", "= " + std::to_string(od.component) + " exceeds the largest component objectives support (" +
                            std::to_string(kMaxSensorValues - 1) + ", kMaxSensorValues - 1)");
}

/// Checks where objective od's measured signal comes from: nowhere for a kind that uses none,
/// else from exactly one of signalFile and signalTimes/signalValues.
void CheckSignalSource(const ObjectiveChecker& c, const ObjectiveDescription& od, ObjectiveKind kind) {
  const bool fromVectors = !od.signalTimes.empty() || !od.signalValues.empty();
  const bool fromFile = !od.signalFile.empty();
  if (!ObjectiveNeedsSignal(static_cast<int>(kind))) {
    if (fromVectors || fromFile)
      c.Fail(fromFile ? "signalFile" : "signalTimes/signalValues",
             std::string("is given, but kind = ") + ObjectiveKindName(kind) +
                 " does not use a measured signal (only ErrorExudyn and RMSError do)");
    return;
  }
  if (fromVectors && fromFile)
    c.Fail("signalFile", "= '" + od.signalFile + "' and signalTimes/signalValues are both given; give one of them");
  if (!fromVectors && !fromFile)
    c.Fail("signalTimes", std::string("is empty: kind = ") + ObjectiveKindName(kind) +
                              " needs a measured signal (signalTimes/signalValues or signalFile)");
}

/// Objective od's measured signal, read from its signalFile (`lines`: the file line of each
/// point) or taken from signalTimes/signalValues (non-empty and of equal length).
MeasuredSignal ObjectiveSignal(const ObjectiveChecker& c, const ObjectiveDescription& od, std::vector<int>& lines) {
  MeasuredSignal sig;
  if (!od.signalFile.empty()) {
    try {
      sig = ReadCsv(od.signalFile, od.signalColumn, od.signalColumnName, lines);
    } catch (const ValidationError& e) {
      c.Fail("signalFile", std::string("(") + e.what() + ")");
    }
  } else {
    sig.times = od.signalTimes;
    sig.values = od.signalValues;
    if (sig.times.empty())
      c.Fail("signalTimes", "is empty (signalValues has " + std::to_string(sig.values.size()) + " values)");
    if (sig.times.size() != sig.values.size())
      c.Fail("signalValues", "has " + std::to_string(sig.values.size()) + " values, but signalTimes has " +
                                 std::to_string(sig.times.size()) + " (must be equal)");
  }
  return sig;
}

/// Checks objective od's signal points: real times and values, times strictly increasing
/// (a point named by its file line, `lines`, or by its signalTimes/signalValues index).
void CheckSignalPoints(const ObjectiveChecker& c, const ObjectiveDescription& od, const MeasuredSignal& sig,
                       const std::vector<int>& lines) {
  const bool fromFile = !od.signalFile.empty();
  auto point = [&](const char* what, size_t k) {
    return fromFile ? std::string(what) + " in signal file '" + od.signalFile + "' line " + std::to_string(lines[k])
                    : std::string(what[0] == 't' ? "signalTimes[" : "signalValues[") + std::to_string(k) + "]";
  };
  for (size_t k = 0; k < sig.times.size(); ++k) {
    c.CheckReal(point("time", k), sig.times[k], Rule::Real);
    c.CheckReal(point("value", k), sig.values[k], Rule::Real);
    if (k > 0 && !(sig.times[k] > sig.times[k - 1]))
      c.Fail(point("time", k), "= " + FormatReal(sig.times[k]) + " is not greater than " + point("time", k - 1) +
                                   " = " + FormatReal(sig.times[k - 1]) + " (times must be strictly increasing)");
  }
}

/// Compiles objective i, od, into out: its spec (with its measured signal, checked, appended
/// to out.signalData) and its value name.
void CompileObjective(const ObjectiveDescription& od, int i, const std::vector<int>& sizes,
                      const std::vector<std::string>& sensorNames, CompiledObjectives& out) {
  const std::string name = od.name.empty() ? "objective" + std::to_string(i) : od.name;
  const ObjectiveChecker c{"objective '" + name + "' (objective " + std::to_string(i) + ")"};
  const ObjectiveKind kind = CheckedObjectiveKind(c, od);
  CheckSensorComponent(c, od, sizes, sensorNames);
  c.CheckReal("weight", od.weight, Rule::Real);
  ObjectiveSpec& s = out.set.objective[i];
  s = MakeObjective(kind, od.sensor, od.component, od.weight);
  if (kind == ObjectiveKind::ErrorExudyn) {
    c.CheckReal("errorDivisor", od.errorDivisor, Rule::PReal);
    c.CheckReal("errorMultiplier", od.errorMultiplier, Rule::Real);
    s.errorDivisor = od.errorDivisor;
    s.errorMultiplier = od.errorMultiplier;
  }
  CheckSignalSource(c, od, kind);
  if (ObjectiveNeedsSignal(static_cast<int>(kind))) {
    std::vector<int> lines;
    const MeasuredSignal sig = ObjectiveSignal(c, od, lines);
    CheckSignalPoints(c, od, sig, lines);
    s.signalBegin = static_cast<int>(out.signalData.size());
    s.signalLength = static_cast<int>(sig.times.size());
    out.signalData.insert(out.signalData.end(), sig.times.begin(), sig.times.end());
    out.signalData.insert(out.signalData.end(), sig.values.begin(), sig.values.end());
  }
  out.valueNames.push_back(name);
}

}  // namespace

const char* ObjectiveKindName(ObjectiveKind k) {
  const int i = static_cast<int>(k);
  return i >= 0 && i < kNumObjectiveKinds ? kKindNames[i] : "?";
}

std::string ObjectiveKindNames() {
  std::string all;
  for (int i = 0; i < kNumObjectiveKinds; ++i) all += std::string(i ? ", " : "") + kKindNames[i];
  return all;
}

ObjectiveKind ParseObjectiveKind(const std::string& name) {
  for (int i = 0; i < kNumObjectiveKinds; ++i)
    if (name == kKindNames[i]) return static_cast<ObjectiveKind>(i);
  throw ValidationError("unknown objective kind '" + name + "'; valid: " + ObjectiveKindNames());
}

MeasuredSignal ReadSignalCsv(const std::string& fileName, int column, const std::string& columnName) {
  std::vector<int> lines;
  return ReadCsv(fileName, column, columnName, lines);
}

std::vector<int> SensorOutputSizes(const Layout& layout, const std::vector<Real>& theta) {
  if (static_cast<int>(theta.size()) != layout.ThetaSize())
    throw ValidationError("SensorOutputSizes: theta has " + std::to_string(theta.size()) +
                          " values, the layout needs " + std::to_string(layout.ThetaSize()));
  const LayoutView L = layout.View();
  const size_t n2 = static_cast<size_t>(L.nODE2) + 1, n1 = static_cast<size_t>(L.nODE1) + 1,
               nA = static_cast<size_t>(L.nAE) + 1;
  std::vector<Real> q(n2, 0.), v(n2, 0.), a(n2, 0.), y(n1, 0.), yt(n1, 0.), lambda(nA, 0.);
  const StateView s{0, q.data(), v.data(), a.data(), y.data(), yt.data(), lambda.data()};
  std::vector<int> sizes(static_cast<size_t>(L.nSensors));
  Real dummy[1];
  for (int i = 0; i < L.nSensors; ++i) sizes[static_cast<size_t>(i)] = SensorOutput(L, theta.data(), s, i, dummy, 0);
  return sizes;
}

CompiledObjectives BuildObjectives(const ObjectiveSetDescription& d, const Layout& layout,
                                   const std::vector<Real>& theta) {
  return BuildObjectivesFromSizes(d, SensorOutputSizes(layout, theta), layout.sensorNames);
}

CompiledObjectives BuildObjectivesFromSizes(const ObjectiveSetDescription& d, const std::vector<int>& sizes,
                                            const std::vector<std::string>& sensorNames) {
  const int count = CheckedObjectiveCount(d);
  CompiledObjectives out;
  out.set.count = count;
  out.set.weightedSum = d.weightedSum ? 1 : 0;
  out.set.samplePeriod = d.samplePeriod;
  for (int i = 0; i < count; ++i) CompileObjective(d.objectives[static_cast<size_t>(i)], i, sizes, sensorNames, out);
  if (d.weightedSum) out.valueNames.push_back("weightedSum");
  return out;
}

std::vector<std::string> SignalCoverageWarnings(const CompiledObjectives& objectives,
                                                const std::vector<std::string>& names, Real startTime, Real endTime) {
  std::vector<std::string> warnings;
  const Real tol = 1e-9 * (std::fabs(endTime - startTime) > 0 ? std::fabs(endTime - startTime) : 1);
  for (int k = 0; k < objectives.set.count; ++k) {
    const ObjectiveSpec& o = objectives.set.objective[k];
    if (o.signalBegin < 0 || o.signalLength <= 0) continue;
    const Real* times = objectives.signalData.data() + o.signalBegin;
    const Real first = times[0], last = times[o.signalLength - 1];
    if (first <= startTime + tol && last >= endTime - tol) continue;
    warnings.push_back("objective '" + (static_cast<size_t>(k) < names.size() ? names[static_cast<size_t>(k)] : std::to_string(k)) +
                       "': its measured signal covers t = " + FormatReal(first) + " .. " + FormatReal(last) +
                       ", the simulation runs t = " + FormatReal(startTime) + " .. " + FormatReal(endTime) +
                       "; outside its span the signal is held at its first or last value");
  }
  return warnings;
}

}  // namespace mbsweep
