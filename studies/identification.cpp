// Identification: measured channels as RMSError objectives, the GA, and a bounded
// Nelder–Mead refinement evaluated in batches.
#include "studies/identification.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <utility>

#include "common/rules.h"

namespace mbsweep {

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Ordering value of an objective value: NaN (failed) is +infinity.
double Rank(double v) { return std::isnan(v) ? kInf : v; }

[[noreturn]] void FailOptions(const std::string& what) {
  throw ValidationError("identification options: " + what);
}

bool IsNelderMead(const std::string& name) { return name == "NelderMead" || name == "Nelder-Mead"; }

/// A simplex vertex: normalized coordinates, the exact parameter values evaluated, value.
struct Vertex {
  std::vector<double> u, x;
  double f = kInf;  // Rank of the value
  double raw = kNaN;
};

class BoundedNelderMead {
 public:
  BoundedNelderMead(const GeneticObjective& objective, const std::vector<GeneticParameter>& parameters,
                    const IdentificationOptions& options, NelderMeadResult& result)
      : objective_(objective), parameters_(parameters), options_(options), result_(result), n_(parameters.size()) {}

  /// Point in parameter space of normalized coordinates u, clipped into [0, 1].
  Vertex MakeVertex(std::vector<double> u) const {
    Vertex v;
    v.x.resize(n_);
    for (std::size_t k = 0; k < n_; ++k) {
      u[k] = std::min(1.0, std::max(0.0, u[k]));
      const GeneticParameter& p = parameters_[k];
      v.x[k] = u[k] == 1.0 ? p.max : std::min(p.max, std::max(p.min, p.min + u[k] * (p.max - p.min)));
    }
    v.u = std::move(u);
    return v;
  }

  /// Evaluates the vertices as one batch and fills their values.
  void Evaluate(std::vector<Vertex*> vertices) {
    if (vertices.empty()) return;
    GeneticIndividuals points;
    points.reserve(vertices.size());
    for (const Vertex* v : vertices) points.push_back(v->x);
    const std::vector<double> values = objective_(points);
    if (values.size() != points.size())
      throw ValidationError("Nelder-Mead refinement: the objective returned " + std::to_string(values.size()) +
                            " values for " + std::to_string(points.size()) + " points");
    ++result_.batches;
    result_.evaluations += static_cast<int>(points.size());
    for (std::size_t i = 0; i < vertices.size(); ++i) {
      vertices[i]->raw = values[i];
      vertices[i]->f = Rank(values[i]);
      result_.pointHistory.push_back(points[i]);
      result_.valueHistory.push_back(values[i]);
    }
  }

  /// a + t*(a - b) in normalized coordinates.
  std::vector<double> Along(const std::vector<double>& a, const std::vector<double>& b, double t) const {
    std::vector<double> u(n_);
    for (std::size_t k = 0; k < n_; ++k) u[k] = a[k] + t * (a[k] - b[k]);
    return u;
  }

  /// The simplex around vertex `base` (whose value is known): one vertex per parameter k at
  /// base + initialStep*e_k (minus where plus leaves [0, 1]; with initialStep > 0.5 and
  /// neither fitting, the bound with more room), evaluated as one batch (with base first
  /// if `evaluateBase`).
  std::vector<Vertex> Simplex(Vertex base, bool evaluateBase) {
    std::vector<Vertex> s(n_ + 1);
    s[0] = std::move(base);
    const double h = options_.initialStep;
    for (std::size_t k = 0; k < n_; ++k) {
      std::vector<double> u = s[0].u;
      if (u[k] + h <= 1.0)
        u[k] += h;
      else if (u[k] - h >= 0.0)
        u[k] -= h;
      else
        u[k] = u[k] <= 0.5 ? 1.0 : 0.0;
      s[k + 1] = MakeVertex(std::move(u));
    }
    std::vector<Vertex*> pending;
    for (std::size_t i = evaluateBase ? 0 : 1; i <= n_; ++i) pending.push_back(&s[i]);
    Evaluate(pending);
    return s;
  }

  /// The start vertex: exactly `start` (no round trip through u), with its value if known.
  Vertex StartVertex(const std::vector<double>& start, std::optional<double> startValue) {
    Vertex base;
    std::vector<double> u0(n_);
    for (std::size_t k = 0; k < n_; ++k)
      u0[k] = (start[k] - parameters_[k].min) / (parameters_[k].max - parameters_[k].min);
    base = MakeVertex(u0);
    base.x = start;  // evaluate exactly the start point (no round trip through u)
    if (startValue) {
      base.raw = *startValue;
      base.f = Rank(*startValue);
    }
    return base;
  }

  /// One iteration on the sorted simplex: reflection, expansion, contraction or shrink.
  void Iterate(std::vector<Vertex>& s) {
    std::vector<double> c(n_, 0.0);  // centroid of all but the worst
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t k = 0; k < n_; ++k) c[k] += s[i].u[k];
    for (std::size_t k = 0; k < n_; ++k) c[k] /= static_cast<double>(n_);
    const Vertex& worst = s[n_];
    Vertex r = MakeVertex(Along(c, worst.u, 1.0));    // reflection
    Vertex e = MakeVertex(Along(c, worst.u, 2.0));    // expansion
    Vertex oc = MakeVertex(Along(c, worst.u, 0.5));   // outside contraction
    Vertex ic = MakeVertex(Along(c, worst.u, -0.5));  // inside contraction
    if (options_.speculativeBatch)
      Evaluate({&r, &e, &oc, &ic});
    else
      Evaluate({&r});

    const double f0 = s[0].f, fSecondWorst = s[n_ - 1].f, fWorst = s[n_].f;
    bool shrink = false;
    if (r.f < f0) {
      if (!options_.speculativeBatch) Evaluate({&e});
      s[n_] = e.f < r.f ? std::move(e) : std::move(r);
    } else if (r.f < fSecondWorst) {
      s[n_] = std::move(r);
    } else if (r.f < fWorst) {
      if (!options_.speculativeBatch) Evaluate({&oc});
      if (oc.f <= r.f)
        s[n_] = std::move(oc);
      else
        shrink = true;
    } else {
      if (!options_.speculativeBatch) Evaluate({&ic});
      if (ic.f < fWorst)
        s[n_] = std::move(ic);
      else
        shrink = true;
    }
    if (shrink) {
      ++result_.shrinks;
      std::vector<Vertex*> pending;
      for (std::size_t i = 1; i <= n_; ++i) {
        std::vector<double> u(n_);
        for (std::size_t k = 0; k < n_; ++k) u[k] = s[0].u[k] + 0.5 * (s[i].u[k] - s[0].u[k]);
        s[i] = MakeVertex(std::move(u));
        pending.push_back(&s[i]);
      }
      Evaluate(pending);
    }
  }

  void Run(const std::vector<double>& start, std::optional<double> startValue) {
    Vertex base = StartVertex(start, startValue);
    std::vector<Vertex> s = Simplex(std::move(base), !startValue);
    // the start vertex first among equal values: ties never replace it
    auto order = [&] {
      std::stable_sort(s.begin(), s.end(), [](const Vertex& a, const Vertex& b) { return a.f < b.f; });
    };
    order();
    result_.bestValueHistory.push_back(s[0].raw);
    double lastConverged = kInf;  // best value at the last convergence

    for (;;) {
      // convergence
      const double spread = s[n_].f - s[0].f;  // inf - inf = NaN: not converged
      double diameter = 0;
      for (std::size_t i = 1; i <= n_; ++i)
        for (std::size_t k = 0; k < n_; ++k) diameter = std::max(diameter, std::abs(s[i].u[k] - s[0].u[k]));
      const double tol = options_.tolerance;
      if (spread <= tol * (std::abs(s[0].f) + tol) && diameter <= options_.parameterTolerance) {
        // restart around the best point unless the last restart found nothing better
        const bool improved = result_.restarts == 0 || s[0].f < lastConverged;
        if (!improved || result_.restarts >= options_.restarts || LimitReached()) {
          result_.converged = true;
          result_.reason = "tolerance";
          break;
        }
        lastConverged = s[0].f;
        ++result_.restarts;
        s = Simplex(std::move(s[0]), false);
        order();
        continue;
      }
      if (LimitReached()) break;
      ++result_.iterations;

      Iterate(s);
      order();
      result_.bestValueHistory.push_back(s[0].raw);
    }
    result_.parameters = s[0].x;
    result_.value = s[0].raw;
  }

 private:
  /// True (and the reason set) if no further iteration may start.
  bool LimitReached() {
    if (result_.iterations >= options_.maxIterations) {
      result_.reason = "maxIterations";
      return true;
    }
    if (options_.maxEvaluations > 0 && result_.evaluations >= options_.maxEvaluations) {
      result_.reason = "maxEvaluations";
      return true;
    }
    return false;
  }

  const GeneticObjective& objective_;
  const std::vector<GeneticParameter>& parameters_;
  const IdentificationOptions& options_;
  NelderMeadResult& result_;
  std::size_t n_;
};

}  // namespace

void ValidateIdentificationOptions(const IdentificationOptions& o) {
  if (!IsNelderMead(o.refinement) && o.refinement != "none")
    FailOptions("refinement = '" + o.refinement + "' is invalid; valid: NelderMead (or Nelder-Mead), none");
  if (o.maxIterations < 0)
    FailOptions("maxIterations = " + std::to_string(o.maxIterations) + " violates UInt (must be an integer >= 0)");
  if (o.maxEvaluations < 0)
    FailOptions("maxEvaluations = " + std::to_string(o.maxEvaluations) + " violates UInt (must be an integer >= 0)");
  if (!SatisfiesRule(o.tolerance, Rule::UReal))
    FailOptions("tolerance = " + FormatReal(o.tolerance) + " violates UReal (" + RuleCondition(Rule::UReal) + ")");
  if (!SatisfiesRule(o.parameterTolerance, Rule::UReal))
    FailOptions("parameterTolerance = " + FormatReal(o.parameterTolerance) + " violates UReal (" +
                RuleCondition(Rule::UReal) + ")");
  if (o.restarts < 0)
    FailOptions("restarts = " + std::to_string(o.restarts) + " violates UInt (must be an integer >= 0)");
  if (!(o.initialStep > 0 && o.initialStep <= 1))
    FailOptions("initialStep = " + FormatReal(o.initialStep) + " must be in (0, 1] (a fraction of each range)");
}

NelderMeadResult NelderMeadMinimize(const GeneticObjective& objective, const std::vector<GeneticParameter>& parameters,
                                    const std::vector<double>& start, const IdentificationOptions& options,
                                    std::optional<double> startValue) {
  ValidateGeneticSetup(parameters, GeneticOptions{});
  IdentificationOptions o = options;
  o.refinement = "NelderMead";
  ValidateIdentificationOptions(o);
  if (start.size() != parameters.size())
    throw ValidationError("Nelder-Mead refinement: the start point has " + std::to_string(start.size()) +
                          " values, there are " + std::to_string(parameters.size()) + " parameters");
  for (std::size_t k = 0; k < start.size(); ++k) {
    const GeneticParameter& p = parameters[k];
    if (!(start[k] >= p.min && start[k] <= p.max))
      throw ValidationError("Nelder-Mead refinement: start value of parameter " + std::to_string(k) + " '" + p.name +
                            "' = " + FormatReal(start[k]) + " is outside its range (" + FormatReal(p.min) + ", " +
                            FormatReal(p.max) + ")");
  }
  NelderMeadResult result;
  BoundedNelderMead nm(objective, parameters, o, result);
  nm.Run(start, startValue);
  return result;
}

IdentificationResult Identify(const GeneticObjective& objective, const std::vector<GeneticParameter>& parameters,
                              const GeneticOptions& geneticOptions, const IdentificationOptions& options,
                              NumpyRandomState* random) {
  ValidateGeneticSetup(parameters, geneticOptions);
  ValidateIdentificationOptions(options);
  IdentificationResult r;
  r.genetic = GeneticOptimization(objective, parameters, geneticOptions, random);
  r.names = r.genetic.names;
  r.geneticParameters = r.genetic.optimumParameters;
  r.geneticValue = r.genetic.optimumValue;
  r.parameters = r.geneticParameters;
  r.value = r.geneticValue;
  r.evaluations = r.genetic.NumberOfEvaluations();
  r.reason = "none";
  if (options.refinement == "none") return r;
  r.refinement = NelderMeadMinimize(objective, parameters, r.geneticParameters, options, r.geneticValue);
  r.refined = true;
  r.iterations = r.refinement.iterations;
  r.evaluations += static_cast<std::size_t>(r.refinement.evaluations);
  r.converged = r.refinement.converged;
  r.reason = r.refinement.reason;
  if (Rank(r.refinement.value) < Rank(r.geneticValue)) {
    r.parameters = r.refinement.parameters;
    r.value = r.refinement.value;
  }
  return r;
}

// ----------------------------------------------------------------------------------------
// Measured channels as objectives
// ----------------------------------------------------------------------------------------

int ResolveSensor(const std::string& sensor, const std::vector<std::string>& sensorNames) {
  for (std::size_t i = 0; i < sensorNames.size(); ++i)
    if (sensorNames[i] == sensor) return static_cast<int>(i);
  if (sensor.empty() || sensor.size() > 9 || !std::all_of(sensor.begin(), sensor.end(), [](char ch) {
        return ch >= '0' && ch <= '9';
      }))
    return -1;
  const int index = std::stoi(sensor);
  return index < static_cast<int>(sensorNames.size()) ? index : -1;
}

ObjectiveSetDescription BuildIdentificationObjectives(const std::vector<MeasuredChannel>& channels,
                                                      const std::vector<std::string>& sensorNames,
                                                      const std::string& baseDirectory, Real samplePeriod) {
  const std::size_t nChannels = channels.size();
  if (nChannels < 1 || nChannels > static_cast<std::size_t>(kMaxObjectives))
    throw ValidationError("identification: " + std::to_string(nChannels) + " measured channels given; must be 1.." +
                          std::to_string(kMaxObjectives) + " (kMaxObjectives)");
  if (!SatisfiesRule(samplePeriod, Rule::UReal))
    throw ValidationError("identification: samplePeriod = " + FormatReal(samplePeriod) + " violates UReal (" +
                          RuleCondition(Rule::UReal) + ")");
  ObjectiveSetDescription d;
  d.samplePeriod = samplePeriod;
  d.weightedSum = true;
  for (std::size_t i = 0; i < nChannels; ++i) {
    const MeasuredChannel& ch = channels[i];
    const std::string who = "measured channel " + std::to_string(i) + " (sensor '" + ch.sensor + "', component " +
                            std::to_string(ch.component) + ")";
    auto fail = [&](const std::string& field, const std::string& msg) {
      throw ValidationError(who + ": " + field + " " + msg);
    };
    const int sensor = ResolveSensor(ch.sensor, sensorNames);
    if (sensor < 0) {
      std::string valid;
      for (const auto& s : sensorNames) valid += (valid.empty() ? "" : ", ") + s;
      fail("sensor", "= '" + ch.sensor + "' is not a sensor of the model; valid: " +
                         (sensorNames.empty() ? std::string("(the model has no sensors)")
                                              : valid + " (or an index 0.." + std::to_string(sensorNames.size() - 1) +
                                                    ")"));
    }
    if (ch.component < 0)
      fail("component", "= " + std::to_string(ch.component) + " violates UInt (must be an integer >= 0)");
    if (!SatisfiesRule(ch.weight, Rule::PReal))
      fail("weight", "= " + FormatReal(ch.weight) + " violates PReal (" + RuleCondition(Rule::PReal) + ")");
    if (ch.columnName.empty() && ch.column < 1)
      fail("column", "= " + std::to_string(ch.column) +
                         " is invalid: must be >= 1 (column 0 is the time), or give columnName");
    if (ch.file.empty()) fail("file", "is empty: each measured channel needs a CSV file");
    std::filesystem::path path(ch.file);
    if (path.is_relative() && !baseDirectory.empty()) path = std::filesystem::path(baseDirectory) / path;
    const std::string file = path.lexically_normal().string();
    try {
      (void)ReadSignalCsv(file, ch.column, ch.columnName);
    } catch (const ValidationError& e) {
      fail("file", "= '" + ch.file + "': " + e.what());
    }

    ObjectiveDescription o;
    const std::string& sensorName = sensorNames[static_cast<std::size_t>(sensor)];  // ResolveSensor checked it
    o.name = "rms_" + sensorName + "_" + std::to_string(ch.component);
    for (const auto& other : d.objectives)
      if (other.name == o.name) {
        o.name += "_" + std::to_string(i);
        break;
      }
    o.kind = "RMSError";
    o.sensor = sensor;
    o.component = ch.component;
    o.weight = ch.weight;
    o.signalFile = file;
    o.signalColumn = ch.column;
    o.signalColumnName = ch.columnName;
    d.objectives.push_back(std::move(o));
  }
  return d;
}

int IdentificationColumn(const CompiledObjectives& objectives) {
  if (objectives.set.weightedSum) return objectives.set.count;
  if (objectives.set.count == 1) return 0;
  throw ValidationError("identification: the objective set has " + std::to_string(objectives.set.count) +
                        " objectives and no weighted sum; enable weightedSum (BuildIdentificationObjectives does)");
}

GeneticObjective MakeIdentificationObjective(Evaluator& evaluator, const Layout& layout, const ParameterMap& map,
                                             const std::vector<GeneticParameter>& parameters, DynamicSolverType solver,
                                             const SimulationSettings& settings, const CompiledObjectives& objectives) {
  return MakeBatchObjective(evaluator, layout, map, parameters, solver, settings, objectives,
                            IdentificationColumn(objectives));
}

std::vector<double> EvaluateIdentificationResiduals(Evaluator& evaluator, const Layout& layout,
                                                    const ParameterMap& map, const std::vector<double>& point,
                                                    DynamicSolverType solver, const SimulationSettings& settings,
                                                    const CompiledObjectives& objectives) {
  BatchResult full;
  (void)EvaluateGenerationBatch(evaluator, layout, map, {point}, solver, settings, objectives, 0, &full);
  const int nValues = objectives.set.NumValues();
  std::vector<double> out(static_cast<std::size_t>(nValues), kNaN);
  if (full.nSystems == 1 && full.status[0] == SolveStatus::ok)
    for (int k = 0; k < nValues; ++k) out[static_cast<std::size_t>(k)] = full.Value(0, k);
  return out;
}

}  // namespace mbsweep
