// Test fixture shared by the study tests: the oscillator of Exudyn's geneticOptimizationTest.
#pragma once

#include <vector>

#include "common/model.h"
#include "common/objectives_host.h"
#include "common/simulation_settings.h"

namespace mbsweep::test {

/// The oscillator of Exudyn's geneticOptimizationTest (see tests/cpu/test_objectives_cpu.cpp):
/// NodePoint (reference [0.5,0,0], u0 = -0.08, v0 = 1), MassPoint "mass", CoordinateSpringDamper
/// "spring" to ground (damping 8), LoadCoordinate "force"; sensor 0: spring Displacement.
inline Model Oscillator(double mass, double spring, double force) {
  Model m;
  NodePoint np;
  np.referenceCoordinates = {0.5, 0, 0};
  np.initialCoordinates = {-0.08, 0, 0};
  np.initialVelocities = {1, 0, 0};
  const NodeIndex n1 = m.AddNode(np);
  NodePointGround g;
  const NodeIndex ng = m.AddNode(g);
  ObjectMassPoint mp;
  mp.name = "mass";
  mp.mass = mass;
  mp.nodeNumber = n1;
  m.AddObject(mp);
  MarkerNodeCoordinate mg, mn;
  mg.nodeNumber = ng;
  mn.nodeNumber = n1;
  const MarkerIndex groundMarker = m.AddMarker(mg), nodeMarker = m.AddMarker(mn);
  ObjectConnectorCoordinateSpringDamper sd;
  sd.name = "spring";
  sd.markerNumbers = {groundMarker, nodeMarker};
  sd.stiffness = spring;
  sd.damping = 8;
  const ObjectIndex nC = m.AddObject(sd);
  LoadCoordinate lc;
  lc.name = "force";
  lc.markerNumber = nodeMarker;
  lc.load = force;
  m.AddLoad(lc);
  SensorObject sDisp;
  sDisp.objectNumber = nC;
  sDisp.outputVariableType = OutputVariableType::Displacement;
  sDisp.storeInternal = true;
  sDisp.writeToFile = false;
  m.AddSensor(sDisp);
  return m;
}

/// geneticOptimizationTest's settings: 100 steps, tEnd 1, rho 1, sensors every 2e-3 s.
inline SimulationSettings GeneticTestSettings() {
  SimulationSettings settings;
  settings.timeIntegration.numberOfSteps = 100;
  settings.timeIntegration.endTime = 1;
  settings.timeIntegration.generalizedAlpha.spectralRadius = 1;
  settings.solutionSettings.sensorsWritePeriod = 2e-3;
  return settings;
}

/// geneticOptimizationTest's error: sqrt(sum diff^2)/100 (ErrorExudyn, divisor = steps,
/// multiplier = tEnd) of sensor 0 sampled every 2e-3 s against `rows` [t, value] (the nominal
/// run's stored sensor data).
inline ObjectiveSetDescription GeneticTestObjective(const std::vector<std::vector<Real>>& rows) {
  ObjectiveSetDescription d;
  d.samplePeriod = 2e-3;
  ObjectiveDescription o;
  o.name = "errorNorm";
  o.kind = "ErrorExudyn";
  o.sensor = 0;
  o.errorDivisor = 100;   // steps
  o.errorMultiplier = 1;  // tEnd
  for (const auto& row : rows) {
    o.signalTimes.push_back(row[0]);
    o.signalValues.push_back(row[1]);
  }
  d.objectives.push_back(o);
  return d;
}

}  // namespace mbsweep::test
