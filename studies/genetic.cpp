#include "studies/genetic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <utility>

#include "common/rules.h"
#include "studies/checkpoint.h"
#include "studies/results_file.h"
#include "studies/study_sinks.h"

namespace mbsweep {

const char* ChildDistributionName(ChildDistribution d) {
  return d == ChildDistribution::Normal ? "normal" : "uniform";
}

ChildDistribution ParseChildDistribution(const std::string& name) {
  if (name == "uniform") return ChildDistribution::Uniform;
  if (name == "normal") return ChildDistribution::Normal;
  throw ValidationError("GeneticOptimization: childDistribution \"" + name +
                        "\" is invalid; expected \"uniform\" or \"normal\"");
}

const char* GeneticRandomStreamName(GeneticRandomStream s) {
  return s == GeneticRandomStream::Numpy ? "numpy" : "philox";
}

GeneticRandomStream ParseGeneticRandomStream(const std::string& name) {
  if (name == "numpy") return GeneticRandomStream::Numpy;
  if (name == "philox") return GeneticRandomStream::Philox;
  throw ValidationError("GeneticOptimization: randomStream \"" + name +
                        "\" is invalid; expected \"numpy\" or \"philox\"");
}

std::vector<double> GeneticResult::Column(std::size_t k) const {
  std::vector<double> c;
  c.reserve(parameterHistory.size());
  for (const auto& ind : parameterHistory) c.push_back(ind.at(k));
  return c;
}

namespace {

[[noreturn]] void Fail(const std::string& what) { throw ValidationError("GeneticOptimization: " + what); }

void CheckFinite(const char* field, double v) {
  if (!std::isfinite(v)) Fail(std::string(field) + " = " + FormatReal(v) + " must be finite");
}

/// Exudyn's RandomNumber: value = vMax+1, redrawn while outside [vMin, vMax].
template <class Draws>
double DrawChild(Draws& rng, ChildDistribution dist, double a, double b, double vMin, double vMax) {
  double value = vMax + 1;
  while (value < vMin || value > vMax) {
    if (dist == ChildDistribution::Uniform)
      value = rng.Uniform(a, b);
    else
      value = rng.Normal(0.5 * (a + b), 0.5 * (b - a));
  }
  return value;
}

/// Indices of `values` sorted like numpy's np.sort(order='value') of (value, index) records:
/// ascending value, NaN after every number, ties by index.
std::vector<std::size_t> SortedOrder(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    const double a = values[i], b = values[j];
    return a < b || (!std::isnan(a) && std::isnan(b));
  });
  return order;
}

/// The draws of the algorithm from numpy's legacy RandomState (Exudyn's calls).
struct NumpyDraws {
  NumpyRandomState& s;
  double Uniform(double a, double b) { return s.Uniform(a, b); }
  double Random() { return s.Random(); }
  std::size_t RandInt(std::size_t n) { return static_cast<std::size_t>(s.RandInt(static_cast<std::int64_t>(n))); }
  double Normal(double mean, double sigma) { return s.Normal(mean, sigma); }
};

/// The same draws from a Philox stream.
struct PhiloxDraws {
  PhiloxStream s;
  double Uniform(double a, double b) { return s.Uniform(a, b); }
  double Random() { return s.Uniform(); }
  /// An integer in [0, n) by masked rejection (unbiased): 32-bit words while n-1 fits.
  std::size_t RandInt(std::size_t n) {
    const std::uint64_t range = static_cast<std::uint64_t>(n) - 1;
    if (range == 0) return 0;
    std::uint64_t mask = range;
    for (int shift = 1; shift < 64; shift <<= 1) mask |= mask >> shift;
    std::uint64_t v;
    if (range <= 0xFFFFFFFFull) {
      do v = s.NextUInt32() & mask;
      while (v > range);
    } else {
      do v = s.NextUInt64() & mask;
      while (v > range);
    }
    return static_cast<std::size_t>(v);
  }
  double Normal(double mean, double sigma) { return s.Normal(mean, sigma); }
};

std::string RangeString(const GeneticParameter& p) {
  auto str = [](double x, bool isInt) { return isInt ? PyStr(static_cast<long long>(x)) : PyStr(x); };
  return "(" + str(p.min, p.minIsInt) + ", " + str(p.max, p.maxIsInt) + ")";
}

/// Everything the stored generations depend on besides the caller's text and G.
std::string GeneticFingerprint(const std::vector<GeneticParameter>& parameters, const GeneticOptions& o) {
  std::string s = "GeneticOptimization v1\nparameters:";
  for (const auto& p : parameters) s += " " + p.name + "=" + RangeString(p) + ";";
  s += "\npopulationSize=" + std::to_string(o.populationSize);
  s += "\ninitialPopulationSize=" + std::to_string(o.initialPopulationSize);
  s += "\nelitistRatio=" + PyStr(o.elitistRatio);
  s += "\ncrossoverProbability=" + PyStr(o.crossoverProbability);
  s += "\ncrossoverAmount=" + PyStr(o.crossoverAmount);
  s += "\nrangeReductionFactor=" + PyStr(o.rangeReductionFactor);
  s += "\ndistanceFactor=" + PyStr(o.distanceFactor);
  s += "\nchildDistribution=" + std::string(ChildDistributionName(o.childDistribution));
  s += "\ndistanceFactorGenerations=" + std::to_string(o.distanceFactorGenerations);
  s += "\nrandomStream=" + std::string(GeneticRandomStreamName(o.randomStream));
  s += "\nrandomizerInitialization=" +
       (o.randomizerInitialization ? std::to_string(*o.randomizerInitialization) : std::string("None"));
  s += "\nresultsFile=" + o.resultsFile;
  s += "\nprocessingMode=" + o.processingMode;
  if (!o.fingerprint.empty()) s += "\n" + o.fingerprint;
  return s;
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string IndividualString(const std::vector<double>& ind) {
  std::vector<PyNumber> v;
  for (double x : ind) v.push_back(PyNumber::Float(x));
  return PyStrList(v);
}

/// The results file (a sink of the generations' rows, study_sinks.h) and the checkpoint of
/// one run.
struct GeneticCheckpoint {
  ChunkManifest manifest;
  ResultsFileSink results;
  std::vector<ResultsRow> stored;  ///< rows of the completed generations (resume)
  std::size_t next = 0;            ///< next stored row to replay
  int completed = 0;               ///< generations stored (replayed instead of evaluated)

  void Open(const std::vector<GeneticParameter>& parameters, const GeneticOptions& o) {
    if (o.resultsFile.empty()) return;
    manifest = ChunkManifest::Open(ChunkManifest::DefaultPath(o.resultsFile), GeneticFingerprint(parameters, o),
                                   {o.resultsFile}, o.resume);
    completed = static_cast<int>(std::min<std::uint64_t>(manifest.CompletedChunks(), 1u << 30));
    if (completed > o.numberOfGenerations)
      Fail("resume: the checkpoint '" + manifest.Path() + "' holds " + std::to_string(completed) +
           " generations, more than numberOfGenerations = " + std::to_string(o.numberOfGenerations));
    ResultsFileHeader h;
    h.fileType = "genetic optimization";
    h.resultsFile = o.resultsFile;
    h.versionLine = VersionPlatformString(o.processingMode);
    for (const auto& p : parameters) {
      h.parameterNames.push_back(p.name);
      h.parameterRanges.push_back(RangeString(p));
    }
    if (completed > 0) {
      ResultsFileContents c = ReadResultsFile(o.resultsFile);
      if (c.header.fileType != h.fileType || c.header.parameterNames != h.parameterNames)
        Fail("resume: results file '" + o.resultsFile + "' has a header of type '" + c.header.fileType +
             "' with other parameters; the study changed since the checkpoint");
      stored = std::move(c.rows);
    }
    results = ResultsFileSink(o.resultsFile, h);
    // the manifest kept every stored row of the completed generations (at least one each)
    results.Start(completed > 0 ? std::max<std::uint64_t>(stored.size(), 1) : 0);
  }

  /// Values of replayed generation g from the stored rows; checks the individuals.
  std::vector<double> Replay(int g, std::size_t first, const GeneticIndividuals& inds, const std::string& path) {
    const auto changed = [&](const std::string& what) {
      Fail("resume: the study changed since the checkpoint: " + what + " (results file '" + path +
           "'); run without resume to start again");
    };
    if (stored.size() - next < inds.size())
      changed("generation " + std::to_string(g) + " has " + std::to_string(inds.size()) +
              " individuals, the results file holds only " + std::to_string(stored.size() - next) + " more rows");
    std::vector<double> values(inds.size());
    for (std::size_t i = 0; i < inds.size(); ++i) {
      const ResultsRow& row = stored[next + i];
      bool same = row.globalIndex == static_cast<long long>(first + i) && row.parameters.size() == inds[i].size();
      for (std::size_t k = 0; same && k < inds[i].size(); ++k)
        same = !row.parameters[k].isInt && SameBits(row.parameters[k].value, inds[i][k]);
      if (!same) {
        std::vector<double> rowValues;
        for (const auto& p : row.parameters) rowValues.push_back(p.value);
        changed("generation " + std::to_string(g) + ", individual " + std::to_string(i) + " is regenerated as " +
                IndividualString(inds[i]) + " (globalIndex " + std::to_string(first + i) + ") but stored as " +
                IndividualString(rowValues) + " (globalIndex " + std::to_string(row.globalIndex) + ")");
      }
      if (row.value.isList || row.value.items.size() != 1)
        changed("globalIndex " + std::to_string(row.globalIndex) + " has the value " + row.value.ToPythonString() +
                ", not a number");
      values[i] = row.value.items[0].value;
    }
    next += inds.size();
    if (g == completed - 1 && next != stored.size())
      changed("the results file holds " + std::to_string(stored.size()) + " rows, the " + std::to_string(completed) +
              " completed generations have " + std::to_string(next));
    return values;
  }

  /// Appends and flushes an evaluated generation's rows.
  void Write(std::size_t first, const GeneticIndividuals& inds, const std::vector<double>& values) {
    if (!results.IsOpen()) return;
    StudyRowChunk rows(inds.size());
    for (std::size_t i = 0; i < inds.size(); ++i) {
      rows[i].index = first + i;
      rows[i].value = values[i];
      for (double x : inds[i]) rows[i].pyPoint.push_back(PyNumber::Float(x));
    }
    results.Append(rows);
  }

  void MarkCompleted(int g) {
    if (manifest.IsOpen()) manifest.MarkCompleted(static_cast<std::uint64_t>(g));
  }

  /// Closes the results file and the manifest, checked (IoError).
  void Close() {
    if (results.IsOpen()) results.Finish();
    if (manifest.IsOpen()) manifest.Close();
  }
};

}  // namespace

void ValidateGeneticSetup(const std::vector<GeneticParameter>& parameters, const GeneticOptions& o) {
  if (parameters.empty()) Fail("no parameters given");
  std::set<std::string> seen;
  for (std::size_t k = 0; k < parameters.size(); ++k) {
    const GeneticParameter& p = parameters[k];
    const std::string who = "parameter " + std::to_string(k) + " '" + p.name + "'";
    if (p.name.empty()) Fail(who + ": name must not be empty");
    if (!seen.insert(p.name).second) Fail(who + ": duplicate name");
    if (!std::isfinite(p.min) || !std::isfinite(p.max))
      Fail(who + ": range (" + FormatReal(p.min) + ", " + FormatReal(p.max) + ") must be finite");
    if (!(p.max - p.min > 0))
      Fail(who + ": range (" + FormatReal(p.min) + ", " + FormatReal(p.max) +
           ") has negative or zero range (max - min must be > 0)");
  }
  if (o.populationSize < 1) Fail("populationSize = " + std::to_string(o.populationSize) + " must be >= 1");
  if (o.numberOfGenerations < 1)
    Fail("numberOfGenerations = " + std::to_string(o.numberOfGenerations) + " must be >= 1");
  if (o.initialPopulationSize == 0) Fail("initialPopulationSize = 0 must be >= 1 (or < 0: populationSize)");
  CheckFinite("elitistRatio", o.elitistRatio);
  CheckFinite("crossoverProbability", o.crossoverProbability);
  CheckFinite("crossoverAmount", o.crossoverAmount);
  CheckFinite("rangeReductionFactor", o.rangeReductionFactor);
  CheckFinite("distanceFactor", o.distanceFactor);
  if (o.randomizerInitialization &&
      (*o.randomizerInitialization < 0 || *o.randomizerInitialization > std::int64_t{0xFFFFFFFF}))
    Fail("randomizerInitialization = " + std::to_string(*o.randomizerInitialization) +
         " must lie in 0 .. 2^32-1");
  if (o.resume && o.resultsFile.empty())
    Fail("resume = true needs a resultsFile (the completed generations are read back from it); resultsFile is empty");
  if (o.resume && !o.randomizerInitialization)
    Fail("resume = true needs randomizerInitialization (a seed): the generations are replayed from the same "
         "random stream; randomizerInitialization is not set");
}

namespace {

/// The values of generation g (its first history index `first`): replayed from the
/// checkpoint, or evaluated as one batch, written, reported and marked completed.
std::vector<double> GenerationValues(GeneticCheckpoint& checkpoint, int g, std::size_t first,
                                     const GeneticIndividuals& current, const GeneticObjective& objective,
                                     const GeneticOptions& options, GeneticResult& result) {
  if (g < checkpoint.completed) {
    std::vector<double> values = checkpoint.Replay(g, first, current, options.resultsFile);
    ++result.resumedGenerations;
    return values;
  }
  std::vector<double> values = objective(current);
  if (values.size() != current.size())
    Fail("the objective returned " + std::to_string(values.size()) + " values for " + std::to_string(current.size()) +
         " individuals (generation " + std::to_string(g) + ")");
  checkpoint.Write(first, current, values);
  if (options.onGeneration) options.onGeneration(g, first, current, values);
  checkpoint.MarkCompleted(g);
  return values;
}

/// Selection from the pool (sorted: its indices by value): the S best; with useDistance, each
/// survivor farther than distanceFactor (RMS distance over the ranges) from those chosen before.
void SelectSurvivors(const GeneticIndividuals& current, const std::vector<double>& values,
                     const std::vector<std::size_t>& sorted, std::size_t S, bool useDistance, double distanceFactor,
                     const std::vector<double>& ranges, GeneticIndividuals& survivors,
                     std::vector<double>& survivorValues) {
  const std::size_t dim = ranges.size();
  survivors.clear();
  survivorValues.clear();
  const std::size_t nSurviving = std::min(S, sorted.size());
  if (!useDistance) {
    for (std::size_t i = 0; i < nSurviving; ++i) {
      survivors.push_back(current[sorted[i]]);
      survivorValues.push_back(values[sorted[i]]);
    }
    return;
  }
  const std::size_t nGen = current.size();
  std::vector<double> distance(nGen, 1.0);
  for (std::size_t i = 0, j = 0; i < nSurviving && j < sorted.size();) {
    const std::size_t iInd = sorted[j++];
    if (!(distance[iInd] > distanceFactor)) continue;
    const std::vector<double>& ind = current[iInd];
    survivors.push_back(ind);
    survivorValues.push_back(values[iInd]);
    ++i;
    for (std::size_t k = 0; k < nGen; ++k) {
      double d = 0;
      for (std::size_t q = 0; q < dim; ++q) {
        const double dx = ind[q] - current[k][q];
        d += dx * dx / (ranges[q] * ranges[q]);
      }
      d = std::sqrt(d / static_cast<double>(dim));
      if (d < distance[k]) distance[k] = d;
    }
  }
}

/// The next generation: up to populationSize children of the survivors (one parent, or two
/// with crossover), each gene drawn in the parent's range shrunk by relativeRange.
template <class Draws>
GeneticIndividuals MakeChildren(Draws& rng, const GeneticIndividuals& survivors,
                                const std::vector<GeneticParameter>& parameters, const GeneticOptions& options,
                                const std::vector<double>& ranges, double relativeRange) {
  const std::size_t dim = parameters.size();
  const int populationSize = options.populationSize;
  GeneticIndividuals current;
  const std::size_t genSize = survivors.size();
  int p = 0;
  while (p < populationSize && genSize != 0) {
    for (std::size_t s = 0; s < genSize; ++s) {
      std::size_t parentIndex[2] = {s, s};
      int nParents = 1;
      if (options.crossoverProbability > 0) {
        if (rng.Random() < options.crossoverProbability) {
          nParents = 2;
          parentIndex[0] = rng.RandInt(genSize);
          parentIndex[1] = rng.RandInt(genSize);
          // the crossover decision per gene; its result is overwritten by the mutation below
          for (std::size_t k = 0; k < dim; ++k) (void)rng.Random();
        }
      }
      for (int pi = 0; pi < nParents; ++pi) {
        const std::vector<double>& parent = survivors[parentIndex[pi]];
        std::vector<double> child(dim);
        for (std::size_t k = 0; k < dim; ++k) {
          const double r = ranges[k] * relativeRange;
          double pBegin = parent[k] - 0.5 * r;
          double pEnd = parent[k] + 0.5 * r;
          if (pBegin < parameters[k].min) pBegin = parameters[k].min;
          if (pEnd > parameters[k].max) pEnd = parameters[k].max;
          child[k] = DrawChild(rng, options.childDistribution, pBegin, pEnd, parameters[k].min, parameters[k].max);
        }
        if (p < populationSize) {
          current.push_back(std::move(child));
          ++p;
        }
      }
    }
  }
  return current;
}

template <class Draws>
GeneticResult RunGenetic(Draws& rng, const GeneticObjective& objective, const std::vector<GeneticParameter>& parameters,
                         const GeneticOptions& options) {
  GeneticCheckpoint checkpoint;
  checkpoint.Open(parameters, options);

  const std::size_t dim = parameters.size();
  const int populationSize = options.populationSize;
  const int G = options.numberOfGenerations;
  const int initialPopulationSize =
      options.initialPopulationSize < 0 ? populationSize : options.initialPopulationSize;

  // survivors: int(elitistRatio*populationSize), at least 1
  const double sReal = std::trunc(options.elitistRatio * populationSize);
  const std::size_t S = sReal >= 1 ? static_cast<std::size_t>(std::min(sReal, 1e15)) : 1;
  double distanceFactor = options.distanceFactor;
  if (distanceFactor >= 1) distanceFactor = 0.5;
  const int distanceFactorGenerations =
      options.distanceFactorGenerations < 0 ? G + 1 : options.distanceFactorGenerations;

  std::vector<double> ranges(dim);
  for (std::size_t k = 0; k < dim; ++k) ranges[k] = parameters[k].max - parameters[k].min;

  GeneticResult result;
  result.survivingIndividuals = static_cast<int>(S);
  for (const auto& p : parameters) result.names.push_back(p.name);

  // 1. initial population
  GeneticIndividuals current(static_cast<std::size_t>(initialPopulationSize), std::vector<double>(dim));
  for (auto& ind : current)
    for (std::size_t k = 0; k < dim; ++k) ind[k] = rng.Uniform(parameters[k].min, parameters[k].max);

  GeneticIndividuals survivors;        // not re-evaluated
  std::vector<double> survivorValues;

  for (int g = 0; g < G; ++g) {
    // 2. evaluate the generation as one batch (or replay it from the checkpoint)
    const std::size_t first = result.valueHistory.size();
    std::vector<double> values = GenerationValues(checkpoint, g, first, current, objective, options, result);
    result.generationOffsets.push_back(first);
    result.parameterHistory.insert(result.parameterHistory.end(), current.begin(), current.end());
    result.valueHistory.insert(result.valueHistory.end(), values.begin(), values.end());

    // pool = this generation + previous survivors (with their stored values)
    current.insert(current.end(), survivors.begin(), survivors.end());
    values.insert(values.end(), survivorValues.begin(), survivorValues.end());
    const std::vector<std::size_t> sorted = SortedOrder(values);

    if (g == G - 1) {
      // 4. optimum
      result.optimumParameters = current[sorted[0]];
      result.optimumValue = values[sorted[0]];
      break;
    }

    // 3. selection, then the children
    const double relativeRange = std::pow(options.rangeReductionFactor, static_cast<double>(g + 1));
    SelectSurvivors(current, values, sorted, S, !(distanceFactor == 0 || g >= distanceFactorGenerations),
                    distanceFactor, ranges, survivors, survivorValues);
    current = MakeChildren(rng, survivors, parameters, options, ranges, relativeRange);
  }
  result.generationOffsets.push_back(result.valueHistory.size());
  checkpoint.Close();
  return result;
}

}  // namespace

GeneticResult GeneticOptimization(const GeneticObjective& objective, const std::vector<GeneticParameter>& parameters,
                                  const GeneticOptions& options, NumpyRandomState* random) {
  ValidateGeneticSetup(parameters, options);
  if (!objective) Fail("no objective function given");

  if (options.randomStream == GeneticRandomStream::Philox) {
    if (random)
      Fail("a NumpyRandomState was passed, but randomStream = philox draws from a Philox stream; set randomStream = "
           "numpy to draw from it");
    std::uint64_t seed;
    if (options.randomizerInitialization) {
      seed = static_cast<std::uint64_t>(*options.randomizerInitialization);
    } else {
      std::random_device device;
      seed = (static_cast<std::uint64_t>(device()) << 32) | device();
    }
    PhiloxDraws draws{PhiloxStream(seed, std::uint64_t{0})};
    return RunGenetic(draws, objective, parameters, options);
  }

  NumpyRandomState own;
  NumpyRandomState& rng = random ? *random : own;
  if (options.randomizerInitialization)
    rng.Seed(*options.randomizerInitialization);
  else if (!random)
    rng.Seed(static_cast<std::int64_t>(std::random_device{}()));
  NumpyDraws draws{rng};
  return RunGenetic(draws, objective, parameters, options);
}

// ----------------------------------------------------------------------------------------
// Generations as mbsweep batches
// ----------------------------------------------------------------------------------------

std::vector<double> EvaluateGenerationBatch(Evaluator& evaluator, const Layout& layout, const ParameterMap& map,
                                            const GeneticIndividuals& individuals, DynamicSolverType solver,
                                            const SimulationSettings& settings, const CompiledObjectives& objectives,
                                            int column, BatchResult* result) {
  const int nValues = objectives.set.NumValues();
  if (column < 0 || column >= nValues)
    throw ValidationError("EvaluateGenerationBatch: column " + std::to_string(column) +
                          " is out of range; the objective set has " + std::to_string(nValues) + " values");
  const std::size_t np = static_cast<std::size_t>(map.NumParameters());
  std::vector<Real> rows;
  rows.reserve(individuals.size() * np);
  for (std::size_t i = 0; i < individuals.size(); ++i) {
    if (individuals[i].size() != np)
      throw ValidationError("EvaluateGenerationBatch: individual " + std::to_string(i) + " has " +
                            std::to_string(individuals[i].size()) + " values, the parameter map has " +
                            std::to_string(np) + " parameters");
    rows.insert(rows.end(), individuals[i].begin(), individuals[i].end());
  }
  std::vector<double> out(individuals.size(), std::numeric_limits<double>::quiet_NaN());
  if (individuals.empty()) return out;
  const BatchProblem problem = MakeBatch(layout, map, rows, solver, settings, objectives);
  BatchResult r = evaluator.Evaluate(problem);
  for (int i = 0; i < r.nSystems && static_cast<std::size_t>(i) < out.size(); ++i)
    if (r.status[static_cast<std::size_t>(i)] == SolveStatus::ok) out[static_cast<std::size_t>(i)] = r.Value(i, column);
  if (result) *result = std::move(r);
  return out;
}

GeneticObjective MakeBatchObjective(Evaluator& evaluator, const Layout& layout, const ParameterMap& map,
                                    const std::vector<GeneticParameter>& parameters, DynamicSolverType solver,
                                    const SimulationSettings& settings, const CompiledObjectives& objectives,
                                    int column) {
  const std::vector<std::string>& names = map.ParameterNames();
  bool same = names.size() == parameters.size();
  for (std::size_t k = 0; same && k < names.size(); ++k) same = names[k] == parameters[k].name;
  if (!same) {
    std::string a, b;
    for (const auto& n : names) a += (a.empty() ? "" : ", ") + n;
    for (const auto& p : parameters) b += (b.empty() ? "" : ", ") + p.name;
    throw ValidationError("MakeBatchObjective: the parameter map's parameters (" + a +
                          ") differ from the optimized parameters (" + b + "); they must be the same, in order");
  }
  const int nValues = objectives.set.NumValues();
  if (column < 0 || column >= nValues)
    throw ValidationError("MakeBatchObjective: column " + std::to_string(column) +
                          " is out of range; the objective set has " + std::to_string(nValues) + " values");
  return [&evaluator, &layout, &map, solver, settings, objectives, column](const GeneticIndividuals& individuals) {
    return EvaluateGenerationBatch(evaluator, layout, map, individuals, solver, settings, objectives, column);
  };
}

}  // namespace mbsweep
