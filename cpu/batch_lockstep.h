/// @file batch_lockstep.h
/// The lockstep batch (common/lockstep.h) on the host: generalized-alpha systems advancing
/// phase by phase, their factorizations and solves done per phase for the whole batch. This
/// is the scheduling of the "cuda-cublas" evaluator with the host's LU in place of cuBLAS;
/// its results equal the CPU batch runner's bit for bit, which tests the phase split of the
/// integrator and the driver without a GPU.
#pragma once

#include "common/batch.h"
#include "common/lockstep.h"

namespace mbsweep {

/// Evaluates a generalized-alpha batch in lockstep on the host (one thread). Values,
/// statuses, counters and signals are filled in as by the CPU evaluator (backend name
/// "cpu-lockstep"). Throws ValidationError for an explicit solver (the lockstep batch is
/// generalized-alpha only) and for what CheckBatchProblem refuses. `stats` (optional)
/// receives the number of rounds and batched operations.
BatchResult EvaluateLockstepOnHost(const BatchProblem& p, LockstepStatistics* stats = nullptr);

/// Evaluates a generalized-alpha batch with the CUDA warp-per-system kernel's driver on the
/// host: each valid system, one after the other, runs RunLockstepSystemWithTeam with an
/// EmulatedTeam of `teamSize` lanes (row-major slot, team LU). Filled in as by the CPU
/// evaluator (backend name "cpu-team"); its results equal the CPU batch runner's bit for
/// bit. Throws ValidationError for an explicit solver and for what CheckBatchProblem refuses.
BatchResult EvaluateTeamOnHost(const BatchProblem& p, int teamSize);

}  // namespace mbsweep
