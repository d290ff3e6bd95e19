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

/// 2D rigid pendulum: ObjectRigidBody2D link (L = 1 m, m = 1 kg, J = m L^2/12 about its
/// centre, node at the centre) on a revolute joint to ground at the origin, gravity -9.81 y
/// (Exudyn's 2D rigid-pendulum performance model: generalized-alpha, rho = 0.7).
Model BuildPendulum2D();

/// Exudyn's geneticOptimizationSliderCrank model: crank (L1 = 0.1, m1 = 0.4), connecting rod
/// (L2 = 0.3, m2 = 0.2) and slider (m3 = 0.1) as ObjectRigidBody2D on a floating frame
/// (m = 2, J = 1) held by three coordinate spring-dampers (k = 5000, d = 50) and a
/// coordinate constraint on its rotation; revolute joints, a prismatic joint, crank torque
/// 0.1. s1, s2 place the crank and rod nodes (their centres of mass) along the links; the
/// marker positions follow (crankLeft at -s1, crankRight at L1 - s1, rodLeft at -s2,
/// rodRight at L2 - s2). Sensor "framePosition": the frame node's position.
/// 12 ODE2 coordinates + 9 algebraic equations.
Model BuildSliderCrank(Real s1 = 0.05, Real s2 = 0.15);

/// Spatial pendulum chain of rigid bodies with Euler parameters (NodeRigidBodyEP, 7
/// coordinates + 1 norm equation each) on spherical joints, gravity -9.81 y: 3 bodies give
/// 21 ODE2 coordinates + 12 algebraic equations.
Model BuildPendulumChain3D(int bodies = 3);

/// A named benchmark model.
struct BenchModel {
  const char* name;
  double defaultEndTime;  ///< end time used when none is given
};

/// The models known by name: "oscillator" (end time 1 s), "chain50" (10 s), "pendulum2d"
/// (1 s), "slidercrank" (3 s), "chain3d" (1 s).
const std::vector<BenchModel>& BenchModels();

/// Builds a model by name; throws std::invalid_argument listing the valid names.
Model BuildBenchModel(const std::string& name);

/// Default end time of a model by name; throws std::invalid_argument for unknown names.
double DefaultEndTime(const std::string& name);

/// The non-empty items of a comma-separated command-line list ("a,b,,c" -> a, b, c).
std::vector<std::string> SplitList(const std::string& s);

}  // namespace mbsweep::bench
