// The Python module mbsweep._core (pybind11; the package is studies/python/mbsweep): a study
// (its file, or the same content as a dict) on an evaluator, Exudyn's ParameterVariation and
// GeneticOptimization on it with Exudyn's arguments and results as numpy arrays, and the
// command line in-process. Under an MPI launcher (mpirun -np N python3 script.py) every rank
// runs the script: rank 0 spreads each study's batches over the ranks and gets the results,
// the other ranks serve the batches and get None (studies/rank_evaluator.h).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/items.h"
#include "common/rules.h"
#include "cpu/simulation.h"
#include "studies/cli/cli.h"
#include "studies/genetic.h"
#include "studies/parameter_variation.h"
#include "studies/rank_evaluator.h"
#include "studies/results_file.h"
#include "studies/study_file.h"

namespace py = pybind11;

namespace mbsweep {
namespace {

using Points = std::vector<std::vector<double>>;

/// A study file (or dict) compiled, with its objectives and an evaluator (over the ranks on
/// rank 0 of an MPI job).
class PyStudy {
 public:
  PyStudy(const py::object& source, const std::string& backend, int threads, const py::dict& sets) {
    if (py::isinstance<py::dict>(source)) {  // JSON is YAML: the reader takes the dict as text
      const std::string text = py::module_::import("json").attr("dumps")(source).cast<std::string>();
      file_ = ParseStudyText(text, "<dict>", py::module_::import("os").attr("getcwd")().cast<std::string>());
    } else {
      file_ = LoadStudyFile(py::str(source).cast<std::string>());
    }
    if (!sets.empty()) {
      std::vector<std::string> overrides;
      for (const auto& [k, v] : sets) overrides.push_back(py::str(k).cast<std::string>() + "=" + py::repr(v).cast<std::string>());
      file_.parameters = WithOverrides(file_.parameters, overrides);
      file_.model = BuildModelAt(file_, file_.parameters);
    }
    for (const auto& w : file_.warnings)
      if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0) throw py::error_already_set();
    layout_ = file_.model.Compile();
    if (!file_.objectives.objectives.empty())  // a study to simulate only may have none
      objectives_ = BuildObjectives(file_.objectives, layout_, file_.model.Theta0());
    Ranks& ranks = Ranks::World();
    EvaluatorOptions eo;
    eo.threads = threads ? threads : ranks.DefaultThreads();
    if (ranks.Size() > 1 && backend != "cpu" && backend != "cpu-jit")
      eo.device = ranks.LocalRank() % std::max(1, CudaDeviceCount());
    std::unique_ptr<Evaluator> local = CreateEvaluator(backend, eo);
    if (ranks.IsRoot()) evaluator_ = std::make_unique<RankEvaluator>(std::move(local), ranks);
    else evaluator_ = std::move(local);
    processingMode_ = "mbsweep " + evaluator_->Name();
  }

  std::string Backend() const { return evaluator_->Name(); }  ///< what has run it (auto: may change)
  /// The processing mode its results files name and their resume fingerprint holds: the
  /// evaluator as created, so that a later call resumes a file an earlier one wrote however
  /// `auto` ran the batches in between.
  const std::string& ProcessingMode() const { return processingMode_; }
  std::vector<std::string> ParameterNames() const {
    std::vector<std::string> n;
    for (const auto& p : file_.parameters) n.push_back(p.name);
    return n;
  }
  const std::vector<std::string>& ObjectiveNames() const { return objectives_.valueNames; }
  int Column(const py::object& objective) const {
    if (objectives_.valueNames.empty())
      throw ValidationError("the study has no objectives: add them (objectives: {list: [...]}) to run ParameterVariation "
                            "or GeneticOptimization on it");
    const std::string name = objective.is_none() ? file_.study.objective : objective.cast<std::string>();
    if (name.empty()) return 0;
    for (size_t k = 0; k < objectives_.valueNames.size(); ++k)
      if (objectives_.valueNames[k] == name) return static_cast<int>(k);
    std::string valid;
    for (const auto& n : objectives_.valueNames) valid += (valid.empty() ? "" : ", ") + n;
    throw ValidationError("objective = '" + name + "' is not an objective value of the study; valid: " + valid);
  }

  /// One run of the CPU reference solver at the nominal parameters: every sensor's rows
  /// [t, values...] by sensor name (written every solution.sensors.writePeriod).
  py::dict Simulate() const {
    Model m = file_.model;
    for (size_t i = 0; i < m.Sensors().size(); ++i) m.SetSensorOutput(SensorIndex{static_cast<int>(i)}, "", false, true);
    Simulation sim(m);
    {
      py::gil_scoped_release free;
      sim.SolveDynamic(file_.settings, file_.solver);
    }
    py::dict out;
    for (size_t i = 0; i < m.Sensors().size(); ++i) {
      const auto& rows = sim.GetSensorStoredData(SensorIndex{static_cast<int>(i)});
      const size_t cols = rows.empty() ? 0 : rows.front().size();
      py::array_t<double> a({rows.size(), cols});
      auto w = a.mutable_unchecked<2>();
      for (size_t r = 0; r < rows.size(); ++r)
        for (size_t c = 0; c < cols; ++c) w(static_cast<py::ssize_t>(r), static_cast<py::ssize_t>(c)) = rows[r][c];
      out[py::str(layout_.sensorNames[i])] = a;
    }
    return out;
  }

  /// Batches over study parameters `names` (file parameters or theta paths).
  class Batches {
   public:
    Batches(PyStudy& s, const std::vector<std::string>& names)
        : s_(s), map_(s.layout_, s.file_.model.Theta0()), mapping_(MakeStudyMapping(s.file_, s.layout_, map_, &names)) {}
    BatchResult Evaluate(const Points& points) {
      return s_.evaluator_->Evaluate(MakeBatch(s_.layout_, map_, StudyRows(mapping_, points), s_.file_.solver,
                                               s_.file_.settings, s_.objectives_));
    }
    /// Value `column` of each system; NaN where it failed.
    std::vector<double> Values(const Points& points, int column) {
      const BatchResult r = Evaluate(points);
      std::vector<double> v(points.size());
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = r.status[i] == SolveStatus::ok ? r.Value(static_cast<int>(i), column) : std::nan("");
      return v;
    }

   private:
    PyStudy& s_;
    ParameterMap map_;
    StudyMapping mapping_;
  };

  /// Ranks other than 0: serves rank 0's batches until it is done with the study call.
  bool ServeOtherRanks() {
    Ranks& ranks = Ranks::World();
    if (ranks.IsRoot()) return false;
    ServeBatches(ranks, *evaluator_, layout_, file_.solver, file_.settings, objectives_);
    return true;
  }

 private:
  StudyFile file_;
  Layout layout_;
  CompiledObjectives objectives_;
  std::unique_ptr<Evaluator> evaluator_;
  std::string processingMode_;
};

/// Runs rank 0's part of a study call (without the GIL), then releases the other ranks. Under
/// MPI a failure there ends the job (the other ranks wait for batches): printed, then Abort.
template <typename F>
void OnRoot(F&& run) {
  py::gil_scoped_release free;
  Ranks& ranks = Ranks::World();
  try {
    run();
  } catch (const std::exception& e) {
    if (ranks.Size() == 1) throw;
    std::fprintf(stderr, "error: %s\n", e.what());
    std::fflush(nullptr);
    ranks.Abort(1);
  }
  ranks.Release();
}

/// A Python number as the results files write it (an int stays an int).
PyNumber ToPyNumber(const py::handle& h) {
  if (py::isinstance<py::bool_>(h)) throw ValidationError("a parameter value is a bool; give a number");
  if (py::isinstance<py::int_>(h)) return PyNumber::Int(h.cast<long long>());
  return PyNumber::Float(h.cast<double>());
}

/// Exudyn's ranges: {name: (begin, end, n)} or {name: [v0, v1, ...]}, in dict order.
std::vector<ParameterRange> Ranges(const py::dict& parameters) {
  std::vector<ParameterRange> ranges;
  for (const auto& [k, v] : parameters) {
    const std::string name = py::str(k).cast<std::string>();
    if (py::isinstance<py::tuple>(v)) {
      const py::tuple t = v.cast<py::tuple>();
      if (t.size() != 3)
        throw ValidationError("parameters['" + name + "'] = " + py::repr(v).cast<std::string>() +
                              ": a tuple must be (begin, end, numberOfValues)");
      ranges.push_back(ParameterRange::Tuple(name, ToPyNumber(t[0]), ToPyNumber(t[1]), t[2].cast<double>()));
    } else if (py::isinstance<py::list>(v)) {
      std::vector<PyNumber> values;
      for (const auto& x : v.cast<py::list>()) values.push_back(ToPyNumber(x));
      ranges.push_back(ParameterRange::List(name, values));
    } else {
      throw ValidationError("parameters['" + name + "'] = " + py::repr(v).cast<std::string>() +
                            ": give (begin, end, numberOfValues) or a list of values");
    }
  }
  return ranges;
}

py::array_t<double> Array(const std::vector<double>& v) { return py::array_t<double>(v.size(), v.data()); }

py::object ParameterVariationPy(PyStudy& study, const py::dict& parameters, bool useLogSpace,
                                bool addComputationIndex, const std::string& resultsFile, std::uint64_t chunkSize,
                                const py::object& objective, bool resume) {
  const ParameterGrid grid(Ranges(parameters), useLogSpace);
  PyStudy::Batches batches(study, grid.Names());
  const int column = study.Column(objective);
  if (study.ServeOtherRanks()) return py::none();
  ParameterVariationOptions o;
  o.chunkSize = chunkSize;
  o.resultsFile = resultsFile;
  o.addComputationIndex = addComputationIndex;
  o.resume = resume;
  o.processingMode = study.ProcessingMode();
  std::optional<ParameterVariationResult> result;
  OnRoot([&] {
    result = ParameterVariation(grid, [&](const Points& points) { return batches.Values(points, column); }, o);
  });
  const ParameterVariationResult& r = *result;
  py::dict d;
  const std::vector<std::string> names = r.Names();
  const std::vector<std::vector<double>> columns = r.Columns();
  for (size_t k = 0; k < names.size(); ++k) d[py::str(names[k])] = Array(columns[k]);
  if (addComputationIndex) {
    const std::vector<long long> idx = r.ComputationIndices();
    d["computationIndex"] = py::array_t<long long>(idx.size(), idx.data());
  }
  py::list out;
  out.append(d);
  out.append(Array(r.values));
  return out;
}

py::object GeneticOptimizationPy(PyStudy& study, const py::dict& parameters, const py::kwargs& kw) {
  std::vector<GeneticParameter> ps;
  for (const auto& [k, v] : parameters) {
    const py::tuple t = v.cast<py::tuple>();
    if (t.size() != 2)
      throw ValidationError("parameters['" + py::str(k).cast<std::string>() + "'] = " + py::repr(v).cast<std::string>() +
                            ": give (min, max)");
    ps.push_back({py::str(k).cast<std::string>(), t[0].cast<double>(), t[1].cast<double>(),
                  py::isinstance<py::int_>(t[0]), py::isinstance<py::int_>(t[1])});
  }
  GeneticOptions g;
  py::object objective = py::none();
  bool resume = false;
  for (const auto& [k, v] : kw) {
    const std::string key = py::str(k).cast<std::string>();
    if (key == "populationSize") g.populationSize = v.cast<int>();
    else if (key == "numberOfGenerations") g.numberOfGenerations = v.cast<int>();
    else if (key == "elitistRatio") g.elitistRatio = v.cast<double>();
    else if (key == "crossoverProbability") g.crossoverProbability = v.cast<double>();
    else if (key == "crossoverAmount") g.crossoverAmount = v.cast<double>();
    else if (key == "rangeReductionFactor") g.rangeReductionFactor = v.cast<double>();
    else if (key == "distanceFactor") g.distanceFactor = v.cast<double>();
    else if (key == "childDistribution") g.childDistribution = ParseChildDistribution(v.cast<std::string>());
    else if (key == "distanceFactorGenerations") g.distanceFactorGenerations = v.cast<int>();
    else if (key == "initialPopulationSize") g.initialPopulationSize = v.cast<int>();
    else if (key == "randomizerInitialization") {
      if (!v.is_none()) g.randomizerInitialization = v.cast<std::int64_t>();
    } else if (key == "randomStream") g.randomStream = ParseGeneticRandomStream(v.cast<std::string>());
    else if (key == "resultsFile") g.resultsFile = v.cast<std::string>();
    else if (key == "objective") objective = py::reinterpret_borrow<py::object>(v);
    else if (key == "resume") resume = v.cast<bool>();
    else
      throw ValidationError("GeneticOptimization: unknown argument '" + key +
                            "' (a Python objective function is not taken: the objective is the study's)");
  }
  g.resume = resume;
  ValidateGeneticSetup(ps, g);
  std::vector<std::string> names;
  for (const auto& p : ps) names.push_back(p.name);
  PyStudy::Batches batches(study, names);
  const int column = study.Column(objective);
  if (study.ServeOtherRanks()) return py::none();
  GeneticResult r;
  OnRoot([&] { r = GeneticOptimization([&](const GeneticIndividuals& ind) { return batches.Values(ind, column); }, ps, g); });
  py::dict optimum, history;
  for (size_t k = 0; k < r.names.size(); ++k) {
    optimum[py::str(r.names[k])] = r.optimumParameters[k];
    history[py::str(r.names[k])] = Array(r.Column(k));
  }
  py::list out;
  out.append(optimum);
  out.append(r.optimumValue);
  out.append(history);
  out.append(Array(r.valueHistory));
  return out;
}

/// Every item type with its field names (the study reader's and the Exudyn converter's list).
py::dict ItemTypes() {
  py::dict d;
  ForEachItemType([&d](auto item, const char*) {
    using T = decltype(item);
    d[py::str(T::typeName)] = FieldNamesOf<T>();
  });
  return d;
}

}  // namespace
}  // namespace mbsweep

PYBIND11_MODULE(_core, m) {
  using namespace mbsweep;
  m.doc() = "mbsweep: multibody dynamics for massive parameter sweeps (the C++ core)";
  m.attr("__version__") = kMbsweepVersion;
  // input errors (naming item, field, value and rule) are ValueErrors; a study file's carry its position
  const auto& invalid = py::register_exception<ValidationError>(m, "ValidationError", PyExc_ValueError);
  py::register_exception<StudyFileError>(m, "StudyFileError", invalid.ptr());

  py::class_<PyStudy>(m, "Study", "A study file (path) or the same content as a dict, compiled, on an evaluator")
      .def(py::init<const py::object&, const std::string&, int, const py::dict&>(), py::arg("study"),
           py::arg("backend") = "auto", py::arg("threads") = 0, py::arg("sets") = py::dict())
      .def_property_readonly("backend", &PyStudy::Backend)
      .def_property_readonly("parameterNames", &PyStudy::ParameterNames)
      .def_property_readonly("objectiveNames", &PyStudy::ObjectiveNames)
      .def("simulate", &PyStudy::Simulate,
           "One run of the CPU reference solver at the nominal parameters: {sensor name: rows [t, values...]}");
  m.def("itemTypes", &ItemTypes, "{item type: [field names]} of every item the study files take");

  m.def("ParameterVariation", &ParameterVariationPy, py::arg("study"), py::arg("parameters"),
        py::arg("useLogSpace") = false, py::arg("addComputationIndex") = false, py::arg("resultsFile") = "",
        py::arg("chunkSize") = 4096, py::arg("objective") = py::none(), py::arg("resume") = false,
        "Exudyn's ParameterVariation on a study: [parameterDict, values] (numpy arrays); None on ranks other than 0");
  m.def("GeneticOptimization", &GeneticOptimizationPy, py::arg("study"), py::arg("parameters"),
        "Exudyn's GeneticOptimization on a study: [optimumParameter, optimumValue, parameterList, valueList]; "
        "None on ranks other than 0");
  m.def(
      "run",
      [](const std::vector<std::string>& args) {
        std::vector<std::string> argv{"mbsweep"};
        argv.insert(argv.end(), args.begin(), args.end());
        py::gil_scoped_release free;
        return cli::RunCli(argv);
      },
      py::arg("args"), "The mbsweep command line in-process: run(['sweep', 'study.yaml', '--out', 'x']) -> exit code");
  m.def("rank", [] { return Ranks::World().Rank(); }, "This process's MPI rank (0 without MPI)");
  m.def("ranks", [] { return Ranks::World().Size(); }, "The number of MPI ranks (1 without MPI)");
  py::module_::import("atexit").attr("register")(py::cpp_function([] { Ranks::World().Finalize(); }));
}
