// The C++ API over MPI ranks (studies/rank_evaluator.h): Exudyn's parameterVariationExample
// oscillator, a 40 x 40 ParameterVariation over mass and stiffness and a GeneticOptimization
// of the same two parameters, each batch spread over the ranks. Every rank builds the same
// model; rank 0 runs the studies and writes the results files, the other ranks serve batches.
//   ranks_oscillator OUTDIR                     (one rank)
//   mpirun -np 4 ranks_oscillator OUTDIR        (four ranks: the same files)
#include <cstdio>
#include <filesystem>
#include <string>

#include "cpu/simulation.h"
#include "studies/genetic.h"
#include "studies/parameter_variation.h"
#include "studies/rank_evaluator.h"

using namespace mbsweep;

int main(int argc, char** argv) {
  const std::string out = argc > 1 ? argv[1] : "ranks_out";
  Model m;
  NodePoint np;
  np.referenceCoordinates = {0.5, 0, 0};
  np.initialCoordinates = {-0.08, 0, 0};
  np.initialVelocities = {1, 0, 0};
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint mass;
  mass.name = "mass";
  mass.physicsMass = 1.6;
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
  const SensorIndex sensor = m.AddSensor(s);

  const Layout layout = m.Compile();
  ParameterMap map(layout, m.Theta0());
  map.SetParameters({"m", "k"});
  map.Bind("mass.physicsMass", "m");
  map.Bind("spring.stiffness", "k");
  SimulationSettings settings;
  settings.timeIntegration.numberOfSteps = 1000;
  settings.timeIntegration.generalizedAlpha.spectralRadius = 1;
  ObjectiveSetDescription d;
  ObjectiveDescription maxForce;
  maxForce.kind = "MaxAbs";
  maxForce.sensor = sensor.value;
  d.objectives = {maxForce};
  d.samplePeriod = 5e-3;
  const CompiledObjectives objectives = BuildObjectives(d, layout, m.Theta0());
  const DynamicSolverType solver = DynamicSolverType::GeneralizedAlpha;

  Ranks& ranks = Ranks::World();
  std::unique_ptr<Evaluator> local = CreateEvaluator("cpu", {ranks.DefaultThreads()});
  if (!ranks.IsRoot()) {  // serve rank 0's batches until it is done
    ServeBatches(ranks, *local, layout, solver, settings, objectives);
    ranks.Finalize();
    return 0;
  }
  RankEvaluator evaluator(std::move(local), ranks);
  std::filesystem::create_directories(out);

  const ParameterGrid grid({ParameterRange::Tuple("m", 1.0, 2.0, 40), ParameterRange::Tuple("k", 2000.0, 8000.0, 40)});
  ParameterVariationOptions pv;
  pv.chunkSize = 400;
  pv.resultsFile = out + "/variation.txt";
  const ParameterVariationResult v =
      ParameterVariation(grid, MakeGridObjective(evaluator, layout, map, grid, solver, settings, objectives), pv);

  GeneticOptions ga;
  ga.populationSize = 64;
  ga.numberOfGenerations = 8;
  ga.randomizerInitialization = 1;
  ga.resultsFile = out + "/genetic.txt";
  const std::vector<GeneticParameter> parameters{{"m", 1.0, 2.0}, {"k", 2000.0, 8000.0}};
  const GeneticResult g = GeneticOptimization(
      MakeBatchObjective(evaluator, layout, map, parameters, solver, settings, objectives), parameters, ga);

  ranks.Release();
  std::printf("%d ranks: %zu grid points, max |force| of the last %.10g; GA optimum m = %.10g, k = %.10g: %.10g\n",
              ranks.Size(), v.values.size(), v.values.back(), g.optimumParameters[0], g.optimumParameters[1],
              g.optimumValue);
  ranks.Finalize();
  return 0;
}
