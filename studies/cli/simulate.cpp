// mbsweep simulate: one run of the CPU reference solver at the nominal parameters (commands.h).
#include "studies/cli/session.h"

#include <cstdio>
#include <stdexcept>

#include "common/output_file.h"
#include "cpu/evaluator_cpu.h"
#include "cpu/simulation.h"
#include "studies/results_file.h"

namespace mbsweep::cli {

namespace {

/// The objectives at the nominal parameters, on the batch path (the same reduction a study
/// uses), one system. A model the batch path cannot take (over its capacity) gets a warning.
Json NominalObjectives(const Options& o, const StudyFile& f, const Layout& layout, const Model& m, Json& warnings) {
  Json objectives = Json::object();
  if (f.objectives.objectives.empty()) return objectives;
  const CompiledObjectives co = BuildObjectives(f.objectives, layout, m.Theta0());
  for (const auto& w : SignalWarnings(f, f.objectives, co)) AddWarning(warnings, w);
  try {
    const BatchProblem one = SingleSystem(layout, m.Theta0(), f.solver, f.settings, co);
    const BatchResult r = CreateCpuEvaluator({1})->Evaluate(one);
    for (size_t k = 0; k < co.valueNames.size(); ++k)
      objectives[co.valueNames[k]] = Number(r.Value(0, static_cast<int>(k)));
    if (!o.quiet)
      for (size_t k = 0; k < co.valueNames.size(); ++k)
        std::printf("%s = %.12g\n", co.valueNames[k].c_str(), r.Value(0, static_cast<int>(k)));
  } catch (const ValidationError& e) {
    std::fprintf(stderr, "warning: objectives not evaluated: %s\n", e.what());
  }
  return objectives;
}

}  // namespace

int RunSimulate(const Options& o) {
  const auto start = std::chrono::steady_clock::now();
  // a simulation may write the very reference file an objective of the study compares with
  StudyFile f = LoadStudy(o, false);
  Json warnings = Json::array();
  for (const auto& w : f.warnings) AddWarning(warnings, w);
  std::vector<ObjectiveDescription>& listed = f.objectives.objectives;
  for (auto it = listed.begin(); it != listed.end();)
    if (!it->signalFile.empty() && !fs::exists(it->signalFile)) {
      AddWarning(warnings, "objective '" + it->name + "' not evaluated: its signal file " + it->signalFile +
                               " does not exist (yet)");
      it = listed.erase(it);
    } else {
      ++it;
    }
  Model m = f.model;
  const Layout layout = m.Compile();
  std::vector<std::string> outputs{"summary.json"};
  for (const auto& name : layout.sensorNames) outputs.push_back(name + ".txt");
  const OutputFolder folder = OpenOutput(o, "simulate", outputs);
  for (const auto& w : folder.Warnings()) warnings.push_back(w);
  const std::string& out = folder.Path();
  Json sensors = Json::array();
  for (size_t i = 0; i < m.Sensors().size(); ++i) {
    const std::string file = folder.File(layout.sensorNames[i] + ".txt");
    m.SetSensorOutput(SensorIndex{static_cast<int>(i)}, file, true, true);
    sensors.push_back(file);
  }
  Simulation sim(m);
  sim.SolveDynamic(f.settings, f.solver);
  const SolverStatistics& st = sim.Statistics();

  Json parameters = Json::object();
  for (const auto& p : f.parameters) parameters[p.name] = p.value;
  Json finals = Json::object();
  for (size_t i = 0; i < m.Sensors().size(); ++i) {
    Json v = Json::array();
    for (Real x : sim.GetSensorValues(SensorIndex{static_cast<int>(i)})) v.push_back(Number(x));
    finals[layout.sensorNames[i]] = v;
  }
  const Json objectives = NominalObjectives(o, f, layout, m, warnings);
  Json summary{{"mbsweep", kMbsweepVersion},
               {"command", "simulate"},
               {"study", f.path},
               {"studyType", "Simulation"},
               {"backend", "cpu reference solver"},
               {"settings", SettingsJson(f)},
               {"parameters", parameters},
               {"sensorFiles", sensors},
               {"finalSensorValues", finals},
               {"objectives", objectives},
               {"warnings", warnings},
               {"statistics",
                {{"steps", st.steps},
                 {"rejectedSteps", st.rejectedSteps},
                 {"newtonIterations", st.newtonIterations},
                 {"jacobianUpdates", st.jacobianUpdates}}},
               {"timings", {{"totalSeconds", Seconds(start)}}}};
  WriteJson(folder.File("summary.json"), summary);
  if (!o.quiet)
    std::printf("simulated t = %g .. %g in %d steps; %zu sensor files and summary.json in %s\n",
                f.settings.timeIntegration.startTime, sim.State().t, st.steps, m.Sensors().size(), out.c_str());
  return 0;
}

}  // namespace mbsweep::cli
