#include "common/items.h"

#include <cstring>
#include <utility>

namespace mbsweep {

TimeFunction TimeFunction::Harmonic(Real a, Real omega, Real phase, Real offset) {
  TimeFunction f;
  f.type = TimeFunctionType::Harmonic;
  f.amplitude = a;
  f.angularFrequency = omega;
  f.phase = phase;
  f.offset = offset;
  return f;
}
TimeFunction TimeFunction::Sweep(Real a, Real f0, Real f1, Real duration) {
  TimeFunction f;
  f.type = TimeFunctionType::Sweep;
  f.amplitude = a;
  f.startFrequency = f0;
  f.endFrequency = f1;
  f.duration = duration;
  return f;
}
TimeFunction TimeFunction::Ramp(Real t0, Real t1, Real v0, Real v1) {
  TimeFunction f;
  f.type = TimeFunctionType::Ramp;
  f.startTime = t0;
  f.endTime = t1;
  f.startValue = v0;
  f.endValue = v1;
  return f;
}
TimeFunction TimeFunction::Table(Vector times, Vector values) {
  TimeFunction f;
  f.type = TimeFunctionType::Table;
  f.times = std::move(times);
  f.values = std::move(values);
  return f;
}
TimeFunction TimeFunction::Expression(std::string text, std::vector<std::pair<std::string, Real>> parameters) {
  TimeFunction f;
  f.type = TimeFunctionType::Expression;
  f.expression = std::move(text);
  f.parameters = std::move(parameters);
  return f;
}

namespace {
const char* const kOutputNames[] = {
    "_None",        "Distance",           "Position",      "Displacement",         "DisplacementLocal",
    "Velocity",     "VelocityLocal",      "Acceleration",  "AccelerationLocal",    "RotationMatrix",
    "AngularVelocity", "AngularVelocityLocal", "AngularAcceleration", "AngularAccelerationLocal", "Rotation",
    "CoordinatesTotal", "Coordinates",    "Coordinates_t", "Coordinates_tt",       "SlidingCoordinate",
    "Force",        "ForceLocal",         "Torque",        "TorqueLocal",          "ConstraintEquation",
    "KineticEnergy", "PotentialEnergy"};
static_assert(sizeof(kOutputNames) / sizeof(kOutputNames[0]) == static_cast<size_t>(OutputVariableType::Count),
              "output variable names out of sync");
}  // namespace

const char* OutputVariableTypeName(OutputVariableType t) {
  const int i = static_cast<int>(t);
  return (i >= 0 && i < static_cast<int>(OutputVariableType::Count)) ? kOutputNames[i] : "?";
}

OutputVariableType ParseOutputVariableType(const std::string& name) {
  for (int i = 0; i < static_cast<int>(OutputVariableType::Count); ++i)
    if (name == kOutputNames[i]) return static_cast<OutputVariableType>(i);
  std::string all;
  for (int i = 1; i < static_cast<int>(OutputVariableType::Count); ++i) all += std::string(i > 1 ? ", " : "") + kOutputNames[i];
  throw ValidationError("unknown OutputVariableType '" + name + "'; valid: " + all);
}

}  // namespace mbsweep
