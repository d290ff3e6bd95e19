/// @file integrator_parameters.h
/// The one conversion of SimulationSettings (Exudyn's names) to the plain parameters the
/// host/device integrators take (common/generalized_alpha.h, common/explicit_rk.h). The CPU
/// reference solver, the CPU batch runner and the CUDA evaluators all convert here, so that a
/// setting means the same on every backend.
#pragma once

#include "common/explicit_rk.h"
#include "common/generalized_alpha.h"
#include "common/simulation_settings.h"

namespace mbsweep {

/// Parameters of the generalized-alpha integrator from the settings (timeIntegration) and
/// type: TrapezoidalIndex2 is the Newmark index-2 variant; the step-attempt budget is
/// StepAttemptBudget.
GeneralizedAlphaParameters ToGeneralizedAlphaParameters(const SimulationSettings& s, DynamicSolverType type);

/// Parameters of the explicit integrators from the settings (timeIntegration) and type.
ExplicitParameters ToExplicitParameters(const SimulationSettings& s, DynamicSolverType type);

}  // namespace mbsweep
