// ObjectConnectorSpringDamperCubic: a mass on a hardening spring (Duffing oscillator) from a
// ground marker at the origin, along x.
#include <cmath>

#include <gtest/gtest.h>

#include "cpu/simulation.h"

namespace mbsweep {
namespace {

constexpr double kMass = 2, kL0 = 1, kStiffness = 100, kCubic = 4e4;

struct Duffing {
  Model model;
  NodeIndex node;
  ObjectIndex spring;
};

// The mass starts at x = L0 + u0 with velocity v0; a force F pulls along +x.
Duffing MakeDuffing(double u0, double v0, double F, double damping) {
  Duffing d;
  Model& m = d.model;
  ObjectGround ground;
  const ObjectIndex g = m.AddObject(ground);
  NodePoint np;
  np.referenceCoordinates = {kL0 + u0, 0, 0};
  np.initialVelocities = {v0, 0, 0};
  d.node = m.AddNode(np);
  ObjectMassPoint mass;
  mass.mass = kMass;
  mass.nodeNumber = d.node;
  m.AddObject(mass);
  MarkerBodyPosition mg;
  mg.bodyNumber = g;
  MarkerNodePosition mn;
  mn.nodeNumber = d.node;
  const MarkerIndex mNode = m.AddMarker(mn);
  ObjectConnectorSpringDamperCubic spring;
  spring.markerNumbers = {m.AddMarker(mg), mNode};
  spring.referenceLength = kL0;
  spring.stiffness = kStiffness;
  spring.cubicStiffness = kCubic;
  spring.damping = damping;
  d.spring = m.AddObject(spring);
  // y and z held by a Cartesian spring without x stiffness (the static solver needs them fixed)
  ObjectConnectorCartesianSpringDamper lateral;
  lateral.markerNumbers = spring.markerNumbers;
  lateral.stiffness = {0, 1e3, 1e3};
  m.AddObject(lateral);
  LoadForceVector f;
  f.markerNumber = mNode;
  f.loadVector = {F, 0, 0};
  m.AddLoad(f);
  return d;
}

// Static equilibrium k u + k3 u^3 = F, whose one real root is Cardano's
// u = cbrt(q + sqrt(q^2 + p^3)) + cbrt(q - sqrt(q^2 + p^3)), p = k/(3 k3), q = F/(2 k3);
// the static solver meets it to 1e-10 relative.
TEST(ObjectConnectorSpringDamperCubic, StaticEquilibriumIsCardanosRoot) {
  const double F = 250;
  const double p = kStiffness / (3 * kCubic), q = F / (2 * kCubic), r = std::sqrt(q * q + p * p * p);
  const double u = std::cbrt(q + r) + std::cbrt(q - r);
  ASSERT_NEAR(kStiffness * u + kCubic * u * u * u, F, 1e-10 * F);  // the root itself
  Duffing d = MakeDuffing(0, 0, F, 0);
  Simulation sim(d.model);
  SimulationSettings s;
  s.staticSolver.numberOfLoadSteps = 5;
  sim.SolveStatic(s);
  EXPECT_NEAR(sim.GetNodeOutput(d.node, OutputVariableType::Position)[0], kL0 + u, 1e-10 * u);
}

// Undamped and unloaded, the energy m v^2/2 + k u^2/2 + k3 u^4/4 is conserved: RK67 over
// several periods of a strongly nonlinear swing keeps it to 1e-9 relative.
TEST(ObjectConnectorSpringDamperCubic, UndampedSwingConservesEnergy) {
  const double u0 = 0.1, v0 = 0.5;
  auto energy = [](double u, double v) {
    return 0.5 * kMass * v * v + 0.5 * kStiffness * u * u + 0.25 * kCubic * u * u * u * u;
  };
  Duffing d = MakeDuffing(u0, v0, 0, 0);
  Simulation sim(d.model);
  SimulationSettings s;
  s.timeIntegration.endTime = 1;
  s.timeIntegration.numberOfSteps = 4000;
  sim.SolveDynamic(s, DynamicSolverType::RK67);
  const double u = sim.GetNodeOutput(d.node, OutputVariableType::Position)[0] - kL0;
  const double v = sim.GetNodeOutput(d.node, OutputVariableType::Velocity)[0];
  EXPECT_NEAR(energy(u, v), energy(u0, v0), 1e-9 * energy(u0, v0));
  EXPECT_GT(std::abs(u), 1e-3);  // it moved: the check is not of a resting mass
}

// The sensor outputs: the scalar force is k u + k3 u^3 + d u_t, the force vector on marker 0
// points from it to the stretched spring's other end.
TEST(ObjectConnectorSpringDamperCubic, OutputsFollowTheForceLaw) {
  const double u0 = 0.05, v0 = -0.3, damping = 7;
  Duffing d = MakeDuffing(u0, v0, 0, damping);
  Simulation sim(d.model);
  const ObjectIndex spring = d.spring;
  const double f = kStiffness * u0 + kCubic * u0 * u0 * u0 + damping * v0;
  EXPECT_NEAR(sim.GetObjectOutput(spring, OutputVariableType::ForceLocal)[0], f, 1e-12 * std::abs(f));
  EXPECT_NEAR(sim.GetObjectOutput(spring, OutputVariableType::Force)[0], f, 1e-12 * std::abs(f));
  EXPECT_NEAR(sim.GetObjectOutput(spring, OutputVariableType::Distance)[0], kL0 + u0, 1e-15);
}

}  // namespace
}  // namespace mbsweep
