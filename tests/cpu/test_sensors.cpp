// Sensors: Exudyn's write-period rule, internal storage, the sensor-file format, and
// outputs of bodies, connectors and loads against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cpu/simulation.h"
#include "test_util.h"

namespace mbsweep {
namespace {

// Free mass point (v0 = 1 in x) with a stored Position sensor.
std::vector<double> WriteTimes(int steps, double tEnd, double period) {
  Model m;
  NodePoint np;
  np.initialVelocities = {1, 0, 0};
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint mp;
  mp.mass = 2;
  mp.nodeNumber = n;
  m.AddObject(mp);
  SensorNode s;
  s.nodeNumber = n;
  s.outputVariableType = OutputVariableType::Position;
  s.storeInternal = true;
  s.writeToFile = false;
  const SensorIndex si = m.AddSensor(s);
  Simulation sim(m);
  SimulationSettings ss;
  ss.timeIntegration.numberOfSteps = steps;
  ss.timeIntegration.endTime = tEnd;
  ss.solutionSettings.sensorsWritePeriod = period;
  sim.SolveDynamic(ss, DynamicSolverType::RK44);
  std::vector<double> t;
  for (const auto& row : sim.GetSensorStoredData(si)) t.push_back(row[0]);
  return t;
}

// Write times measured with Exudyn 1.13.6 for the same settings (RK44, storeInternal).
TEST(Sensors, WritePeriodRuleMatchesExudyn) {
  auto expect = [](const std::vector<double>& got, const std::vector<double>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << i;
  };
  expect(WriteTimes(10, 0.2, 0.05), {0, 0.06, 0.1, 0.16, 0.2});
  expect(WriteTimes(7, 0.2, 0.05), {0, 0.057143, 0.114286, 0.171429, 0.2});
  expect(WriteTimes(10, 0.3, 0.02), {0, 0.03, 0.06, 0.09, 0.12, 0.15, 0.18, 0.21, 0.24, 0.27, 0.3});
  expect(WriteTimes(10, 0.2, 0.0), {0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.14, 0.16, 0.18, 0.2});
  expect(WriteTimes(3, 1, 10), {0, 1});
}

// Sensor file: '#' header lines, then "t,v1,v2,..." rows with 10 significant digits. A mass
// point at x=1 with v=[0.5,0,0] under gravity [0,0,-9.81]: rows as written by Exudyn for the
// same model (0.02,1.01,0,-0.001962 ...).
TEST(Sensors, FileFormat) {
  const std::string file = ::testing::TempDir() + "mbsweep_sensor_test/pos.txt";
  Model m;
  NodePoint np;
  np.referenceCoordinates = {1, 0, 0};
  np.initialVelocities = {0.5, 0, 0};
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint mp;
  mp.mass = 2;
  mp.nodeNumber = n;
  const ObjectIndex o = m.AddObject(mp);
  MarkerBodyMass bm;
  bm.bodyNumber = o;
  LoadMassProportional g;
  g.markerNumber = m.AddMarker(bm);
  g.loadVector = {0, 0, -9.81};
  m.AddLoad(g);
  SensorNode s;
  s.nodeNumber = n;
  s.outputVariableType = OutputVariableType::Position;
  s.fileName = file;
  m.AddSensor(s);
  Simulation sim(m);
  SimulationSettings ss;
  ss.timeIntegration.numberOfSteps = 10;
  ss.timeIntegration.endTime = 0.1;
  ss.solutionSettings.sensorsWritePeriod = 0.02;
  sim.SolveDynamic(ss, DynamicSolverType::RK44);
  std::ifstream in(file);
  ASSERT_TRUE(in.good());
  std::vector<std::string> header, rows;
  for (std::string line; std::getline(in, line);) (line[0] == '#' ? header : rows).push_back(line);
  ASSERT_GE(header.size(), 5u);
  EXPECT_EQ(header[1], "#measure Node number = 0");
  EXPECT_EQ(header[2], "#OutputVariableType = Position");
  EXPECT_NE(std::find(header.begin(), header.end(), "#number of sensor values = 3"), header.end());
  const std::vector<std::string> want{"0,1,0,0",          "0.02,1.01,0,-0.001962", "0.04,1.02,0,-0.007848",
                                      "0.06,1.03,0,-0.017658", "0.08,1.04,0,-0.031392", "0.1,1.05,0,-0.04905"};
  ASSERT_EQ(rows.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(rows[i], want[i]);
}

// Body outputs against hand-computed kinematics: a RigidBody2D at reference [1,2,pi/6] with
// coordinates [0.1,-0.2,0.3] and velocities [0.5,0.25,2]; point at local [0.4,0.1,0].
TEST(Sensors, RigidBody2DBodyOutputs) {
  Model m;
  NodeRigidBody2D nd;
  nd.referenceCoordinates = {1, 2, M_PI / 6};
  nd.initialCoordinates = {0.1, -0.2, 0.3};
  nd.initialVelocities = {0.5, 0.25, 2};
  const NodeIndex n = m.AddNode(nd);
  ObjectRigidBody2D rb;
  rb.mass = 3;
  rb.inertia = 0.5;
  rb.nodeNumber = n;
  const ObjectIndex o = m.AddObject(rb);
  Simulation sim(m);
  const double phi = M_PI / 6 + 0.3, c = std::cos(phi), s = std::sin(phi);
  const double rx = c * 0.4 - s * 0.1, ry = s * 0.4 + c * 0.1;
  const auto p = sim.GetObjectOutputBody(o, OutputVariableType::Position, {0.4, 0.1, 0});
  EXPECT_NEAR(p[0], 1.1 + rx, 1e-14);
  EXPECT_NEAR(p[1], 1.8 + ry, 1e-14);
  const auto v = sim.GetObjectOutputBody(o, OutputVariableType::Velocity, {0.4, 0.1, 0});
  EXPECT_NEAR(v[0], 0.5 - 2 * ry, 1e-14);
  EXPECT_NEAR(v[1], 0.25 + 2 * rx, 1e-14);
  const auto d = sim.GetObjectOutputBody(o, OutputVariableType::Displacement, {0.4, 0.1, 0});
  const double c0 = std::cos(M_PI / 6), s0 = std::sin(M_PI / 6);
  EXPECT_NEAR(d[0], 0.1 + rx - (c0 * 0.4 - s0 * 0.1), 1e-14);
  EXPECT_NEAR(sim.GetObjectOutputBody(o, OutputVariableType::Rotation)[2], phi, 1e-15);
  EXPECT_NEAR(sim.GetObjectOutputBody(o, OutputVariableType::AngularVelocity)[2], 2, 1e-15);
  const auto A = sim.GetObjectOutputBody(o, OutputVariableType::RotationMatrix);
  EXPECT_NEAR(A[1], -s, 1e-15);
  EXPECT_NEAR(A[3], s, 1e-15);
}

// Mass1D and RotationalMass1D outputs as Exudyn 1.13.6 reports them: Mass1D at
// referencePosition [0,1,2] with node reference 1 and coordinate 0.5, local [0.1,0.2,0.3]
// → Position [1.6,1.2,2.3]; Rotor1D angle 1.5 and angular velocity [0,0,0.5].
TEST(Sensors, OneDimensionalBodies) {
  Model m;
  Node1D n1;
  n1.referenceCoordinates = {1};
  n1.initialCoordinates = {0.5};
  n1.initialVelocities = {0.5};
  const NodeIndex a = m.AddNode(n1), b = m.AddNode(n1);
  ObjectRotationalMass1D rot;
  rot.inertia = 1;
  rot.nodeNumber = a;
  const ObjectIndex orot = m.AddObject(rot);
  ObjectMass1D mass;
  mass.mass = 1;
  mass.nodeNumber = b;
  mass.referencePosition = {0, 1, 2};
  const ObjectIndex omass = m.AddObject(mass);
  Simulation sim(m);
  const auto p = sim.GetObjectOutputBody(omass, OutputVariableType::Position, {0.1, 0.2, 0.3});
  EXPECT_NEAR(p[0], 1.6, 1e-15);
  EXPECT_NEAR(p[1], 1.2, 1e-15);
  EXPECT_NEAR(p[2], 2.3, 1e-15);
  EXPECT_NEAR(sim.GetObjectOutputBody(orot, OutputVariableType::Rotation)[0], 1.5, 1e-15);
  EXPECT_NEAR(sim.GetObjectOutputBody(orot, OutputVariableType::AngularVelocity)[2], 0.5, 1e-15);
  // Exudyn: Position of local [0.1,0.2,0.3] on the rotor = [-0.19242528, 0.11389694, 0.3]
  const auto pr = sim.GetObjectOutputBody(orot, OutputVariableType::Position, {0.1, 0.2, 0.3});
  EXPECT_NEAR(pr[0], -0.19242528, 1e-8);
  EXPECT_NEAR(pr[1], 0.11389694, 1e-8);
}

// SensorLoad records load * timeFunction(t): a harmonic LoadCoordinate 2*sin(3t + 0.1) + 0.5.
TEST(Sensors, LoadSensorWithTimeFunction) {
  Model m;
  const NodeIndex n = test::AddOscillator(m, 1, 100, 0, 0, 0);
  MarkerNodeCoordinate mc;
  mc.nodeNumber = n;
  LoadCoordinate lc;
  lc.markerNumber = m.AddMarker(mc);
  lc.load = 2;
  lc.timeFunction = TimeFunction::Harmonic(1, 3, 0.1, 0.25);
  const LoadIndex li = m.AddLoad(lc);
  SensorLoad sl;
  sl.loadNumber = li;
  sl.storeInternal = true;
  sl.writeToFile = false;
  const SensorIndex si = m.AddSensor(sl);
  Simulation sim(m);
  SimulationSettings s;
  s.solutionSettings.sensorsWritePeriod = 0.1;
  sim.SolveDynamic(s, DynamicSolverType::RK44);
  for (const auto& row : sim.GetSensorStoredData(si))
    EXPECT_NEAR(row[1], 2 * (0.25 + std::sin(3 * row[0] + 0.1)), 1e-14) << "t=" << row[0];
}

}  // namespace
}  // namespace mbsweep
