/// @file models.h
/// Benchmark models shared by bench_single, mbsweep_bench_models and (through the CLI)
/// bench/compare_exudyn.py, which builds the same items in Exudyn.
#pragma once

#include <string>
#include <vector>

#include "common/model.h"

namespace mbsweep::bench {

/// Exudyn's parameterVariationExample 1-DOF oscillator: NodePoint (reference [0.5,0,0],
/// initial displacement [-0.08,0,0], initial velocity [1,0,0]), ObjectMassPoint m = 1.6,
/// ObjectConnectorCoordinateSpringDamper (k = 4000, d = 8) from a NodePointGround
/// coordinate to the node's x coordinate, LoadCoordinate 80 on that coordinate.
/// ODE2 coordinate 0 is the node's x displacement.
Model BuildOscillator();

/// Number of masses of the chain50 model.
inline constexpr int kChainMasses = 50;

/// Chain of kChainMasses NodePoint masses (m = 1) at x = 1, 2, ..., 50 m, connected in
/// series by ObjectConnectorSpringDamper (k = 1000, d = 1, referenceLength 1), the first one
/// to a MarkerBodyPosition on an ObjectGround at the origin; LoadMassProportional gravity
/// [0,-9.81,0] on each mass through MarkerBodyMass; the first mass starts with velocity
/// [0,1,0]. ODE2 coordinate 0 is the first mass's x displacement.
Model BuildChain(int masses = kChainMasses);

/// A named benchmark model.
struct BenchModel {
  const char* name;
  double defaultEndTime;  ///< end time used when none is given
};

/// The models known by name: "oscillator" (end time 1 s), "chain50" (end time 10 s).
const std::vector<BenchModel>& BenchModels();

/// Builds a model by name; throws std::invalid_argument listing the valid names.
Model BuildBenchModel(const std::string& name);

/// Default end time of a model by name; throws std::invalid_argument for unknown names.
double DefaultEndTime(const std::string& name);

}  // namespace mbsweep::bench
