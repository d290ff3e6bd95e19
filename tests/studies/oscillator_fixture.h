// Test fixture shared by the study tests: the oscillator of Exudyn's geneticOptimizationTest.
#pragma once

#include "common/model.h"

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
  mp.physicsMass = mass;
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

}  // namespace mbsweep::test
