// Quick start (README): Exudyn's parameterVariationExample oscillator, one simulation with a
// sensor file, then a 16 x 16 batch over mass and stiffness on the best available evaluator.
//   quickstart_oscillator [OUTDIR]
#include <cstdio>
#include <string>

#include "common/batch.h"
#include "cpu/simulation.h"

using namespace mbsweep;

int main(int argc, char** argv) {
  const std::string out = argc > 1 ? argv[1] : "solution";
  Model m;
  NodePoint np;
  np.referenceCoordinates = {0.5, 0, 0};
  np.initialCoordinates = {-0.08, 0, 0};
  np.initialVelocities = {1, 0, 0};
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint mass;
  mass.name = "mass";
  mass.mass = 1.6;
  mass.nodeNumber = n;
  m.AddObject(mass);
  NodePointGround ground;
  MarkerNodeCoordinate c0, c1;
  c0.nodeNumber = m.AddNode(ground);
  c1.nodeNumber = n;
  ObjectConnectorCoordinateSpringDamper spring;
  spring.name = "spring";
  spring.markerNumbers = {m.AddMarker(c0), m.AddMarker(c1)};
  spring.stiffness = 4000;
  spring.damping = 8;
  const ObjectIndex springIndex = m.AddObject(spring);
  LoadCoordinate force;
  force.markerNumber = spring.markerNumbers[1];
  force.load = 80;
  m.AddLoad(force);
  SensorObject s;
  s.objectNumber = springIndex;
  s.outputVariableType = OutputVariableType::Force;
  s.fileName = out + "/springForce.txt";  // Exudyn's sensor-file format
  const SensorIndex sensor = m.AddSensor(s);

  // one run with the CPU reference solver
  Simulation sim(m);                           // validates and compiles
  SimulationSettings settings;                 // Exudyn's names and defaults
  settings.timeIntegration.numberOfSteps = 1000;
  settings.timeIntegration.generalizedAlpha.spectralRadius = 1;
  settings.solutionSettings.sensorsWritePeriod = 5e-3;
  sim.SolveDynamic(settings);                  // GeneralizedAlpha by default
  std::printf("spring force at t = 1: %.10g\n", sim.GetSensorValues(sensor)[0]);

  // a 16 x 16 batch over mass and stiffness: max |spring force| of every system
  const Layout layout = m.Compile();
  ParameterMap map(layout, m.Theta0());
  map.SetParameters({"m", "k"});
  map.Bind("mass.mass", "m");
  map.Bind("spring.stiffness", "k");
  std::vector<Real> params;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) params.insert(params.end(), {1 + i / 15.0, 2000 + 6000 * j / 15.0});
  ObjectiveSetDescription objectives;
  ObjectiveDescription maxForce;
  maxForce.kind = "MaxAbs";
  maxForce.sensor = sensor.value;
  objectives.objectives = {maxForce};
  objectives.samplePeriod = 5e-3;
  const BatchProblem batch = MakeBatch(layout, map, params, DynamicSolverType::GeneralizedAlpha, settings,
                                       BuildObjectives(objectives, layout, m.Theta0()));
  const BatchResult r = CreateEvaluator("auto")->Evaluate(batch);
  std::printf("%d systems on %s in %.3f s, %d ok; max |force| of the last system: %.10g\n", r.nSystems,
              r.backend.c_str(), r.seconds, r.CountStatus(SolveStatus::ok), r.Value(r.nSystems - 1, 0));
  return r.CountStatus(SolveStatus::ok) == r.nSystems ? 0 : 1;
}
