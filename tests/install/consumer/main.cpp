// Uses the installed headers (<mbsweep/...>) and libraries: reads a study from text and runs the
// CPU reference solver on it. An over-damped oscillator (m = 1.6, k = 4000, d = 200, f = 80)
// settles at x = f/k = 0.02 by t = 3; exit code 0 if the last sensor value is within 1e-9.
#include <mbsweep/cpu/simulation.h>
#include <mbsweep/studies/results_file.h>
#include <mbsweep/studies/study_file.h>

#include <cmath>
#include <cstdio>

int main() {
  const char* text = R"(model:
  - Point: {name: node}
  - PointGround: {name: ground}
  - MassPoint: {mass: 1.6, nodeNumber: node}
  - MarkerNodeCoordinate: {name: mg, nodeNumber: ground, coordinate: 0}
  - MarkerNodeCoordinate: {name: mn, nodeNumber: node, coordinate: 0}
  - CoordinateSpringDamper: {markerNumbers: [mg, mn], stiffness: 4000, damping: 200}
  - LoadCoordinate: {markerNumber: mn, load: 80}
  - SensorNode: {nodeNumber: node, outputVariableType: Displacement, storeInternal: true, writeToFile: false}
simulationSettings: {timeIntegration: {numberOfSteps: 3000, endTime: 3}}
)";
  const mbsweep::StudyFile f = mbsweep::ParseStudyText(text, "consumer");
  mbsweep::Simulation sim(f.model);
  sim.SolveDynamic(f.settings, f.solver);
  const double x = sim.GetSensorValues(mbsweep::SensorIndex{0})[0];
  std::printf("mbsweep %s: x(3) = %.15g (f/k = 0.02)\n", mbsweep::kMbsweepVersion, x);
  return std::fabs(x - 0.02) < 1e-9 ? 0 : 1;
}
