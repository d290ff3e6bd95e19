// The C++ API over MPI ranks (studies/rank_evaluator.h): Exudyn's parameterVariationExample
// oscillator (the model of studies/examples/oscillator_variation.yaml), a 40 x 40
// ParameterVariation over mass and stiffness and a GeneticOptimization of the same two
// parameters, both minimizing the largest spring force, each batch spread over the ranks.
// Every rank builds the same model; rank 0 runs the studies and writes the results files, the
// other ranks serve batches.
//   ranks_oscillator STUDY.yaml OUTDIR                  (one rank)
//   mpirun -np 4 ranks_oscillator STUDY.yaml OUTDIR     (four ranks: the same files)
#include <cstdio>
#include <filesystem>
#include <string>

#include "studies/genetic.h"
#include "studies/parameter_variation.h"
#include "studies/rank_evaluator.h"
#include "studies/study_file.h"

using namespace mbsweep;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ranks_oscillator STUDY.yaml [OUTDIR]   (studies/examples/oscillator_variation.yaml)\n");
    return 1;
  }
  const std::string out = argc > 2 ? argv[2] : "ranks_out";
  // the model, settings and objectives of the study file (its study section is not used here)
  const StudyFile file = LoadStudyFile(argv[1]);
  const Layout layout = file.model.Compile();
  ParameterMap map(layout, file.model.Theta0());
  map.SetParameters({"m", "k"});
  map.Bind("massPoint.mass", "m");
  map.Bind("springDamper.stiffness", "k");
  const CompiledObjectives objectives = BuildObjectives(file.objectives, layout, file.model.Theta0());
  const int maxForce = 1;  // the file's objectives: error, maxForce
  const DynamicSolverType solver = file.solver;
  const SimulationSettings& settings = file.settings;

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
      ParameterVariation(grid, MakeGridObjective(evaluator, layout, map, grid, solver, settings, objectives, maxForce), pv);

  GeneticOptions ga;
  ga.populationSize = 64;
  ga.numberOfGenerations = 8;
  ga.randomizerInitialization = 1;
  ga.resultsFile = out + "/genetic.txt";
  const std::vector<GeneticParameter> parameters{{"m", 1.0, 2.0}, {"k", 2000.0, 8000.0}};
  const GeneticResult g = GeneticOptimization(
      MakeBatchObjective(evaluator, layout, map, parameters, solver, settings, objectives, maxForce), parameters, ga);

  ranks.Release();
  std::printf("%d ranks: %zu grid points, max |force| of the last %.10g; GA optimum m = %.10g, k = %.10g: %.10g\n",
              ranks.Size(), v.values.size(), v.values.back(), g.optimumParameters[0], g.optimumParameters[1],
              g.optimumValue);
  ranks.Finalize();
  return 0;
}
