/// @file rank_evaluator.h
/// Batches over the ranks of an MPI job (ranks.h): on rank 0 a RankEvaluator cuts each batch
/// into contiguous pieces of systems that Ranks::Map hands out dynamically; every rank
/// evaluates its pieces on its own evaluator (cpu threads, or the GPU of its local rank) and
/// rank 0 puts the results together in system order. Every system is integrated on its own,
/// so the result is bit for bit the one the local evaluator gives for the whole batch. The
/// other ranks serve the pieces with ServeBatches, built from the same study (the model, the
/// solver, its settings and the objectives travel with no piece: only theta rows do).
///
/// Under MPI (C++ API), every rank builds the same model and objectives, then:
///   Ranks& world = Ranks::World();
///   auto local = CreateEvaluator("cpu", {world.DefaultThreads()});
///   if (world.IsRoot()) {
///     RankEvaluator evaluator(std::move(local), world);
///     ... ParameterVariation / GeneticOptimization / Evaluate with `evaluator` ...
///     world.Release();
///   } else {
///     ServeBatches(world, *local, layout, solver, settings, objectives);
///   }
///   world.Finalize();
/// Host only.
#pragma once

#include <memory>
#include <string>

#include "common/batch.h"
#include "studies/ranks.h"

namespace mbsweep {

class RankEvaluator : public Evaluator {
 public:
  /// `local` evaluates rank 0's pieces; `ranks` is referenced. piecesPerRank (>= 1): a batch
  /// of n systems is cut into min(n, piecesPerRank * ranks) pieces.
  RankEvaluator(std::unique_ptr<Evaluator> local, Ranks& ranks, int piecesPerRank = 2);
  /// The local evaluator's name (results files do not depend on the number of ranks).
  std::string Name() const override { return local_->Name(); }
  /// Checks the problem (CheckBatchProblem), then evaluates it over the ranks; a batch of one
  /// system, a batch with signals, and a single rank run on the local evaluator. Throws what
  /// the local evaluator throws, and std::runtime_error "rank K: ..." for a failure on rank K.
  BatchResult Evaluate(const BatchProblem& problem) override;

 private:
  std::unique_ptr<Evaluator> local_;
  Ranks& ranks_;
  int piecesPerRank_;
};

/// Ranks other than 0: evaluates the pieces of rank 0's RankEvaluator as batches of `layout`
/// with `solver`, `settings` and `objectives` on `local`, until rank 0 calls Release. A piece
/// whose theta row size, value count or solver differ from these fails with a message
/// (every rank must run the same study).
void ServeBatches(Ranks& ranks, Evaluator& local, const Layout& layout, DynamicSolverType solver,
                  const SimulationSettings& settings, const CompiledObjectives& objectives);

}  // namespace mbsweep
