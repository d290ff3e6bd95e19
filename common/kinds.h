/// @file kinds.h
/// Item kinds and output variable types as plain enums shared by the host model, the
/// compiled layout and host/device physics code.
#pragma once

namespace mbsweep {

/// Node kinds (Exudyn names without the "Node" prefix).
enum class NodeKind : int {
  Point = 0,        ///< NodePoint: 3 ODE2 (displacements)
  Point2D,          ///< NodePoint2D: 2 ODE2
  RigidBody2D,      ///< NodeRigidBody2D: x, y, theta
  Node1D,           ///< Node1D: 1 ODE2
  GenericODE2,      ///< NodeGenericODE2: n ODE2
  GenericODE1,      ///< NodeGenericODE1: n ODE1
  PointGround,      ///< NodePointGround: no coordinates
  RigidBodyEP,      ///< NodeRigidBodyEP: position + 4 Euler parameters (+1 AE)
  RigidBodyRxyz,    ///< NodeRigidBodyRxyz: position + Tait-Bryan xyz angles
  Count
};

/// Object kinds (Exudyn names without the "Object" prefix).
enum class ObjectKind : int {
  Ground = 0,
  MassPoint,
  MassPoint2D,
  Mass1D,
  RotationalMass1D,
  RigidBody2D,
  RigidBody,
  GenericODE2,
  GenericODE1,
  ConnectorSpringDamper,
  ConnectorCoordinateSpringDamper,
  ConnectorCartesianSpringDamper,
  ConnectorGravity,
  ConnectorRigidBodySpringDamper,
  ConnectorTorsionalSpringDamper,
  ConnectorLinearSpringDamper,
  ConnectorCoordinate,
  ConnectorDistance,
  JointRevolute2D,
  JointPrismatic2D,
  JointSpherical,
  JointRevoluteZ,
  JointPrismaticX,
  JointGeneric,
  Count
};

/// Marker kinds.
enum class MarkerKind : int {
  BodyPosition = 0,
  BodyRigid,
  BodyMass,
  NodePosition,
  NodeRigid,
  NodeCoordinate,
  Count
};

/// Load kinds.
enum class LoadKind : int { Coordinate = 0, ForceVector, TorqueVector, MassProportional, Count };

/// Sensor kinds.
enum class SensorKind : int { Node = 0, Body, Object, Marker, Load, Count };

/// Built-in time functions that scale a load (or a constraint offset); their Real
/// parameters live in theta like every other number.
enum class TimeFunctionType : int {
  Constant = 0,  ///< f(t) = 1
  Harmonic,      ///< f(t) = offset + amplitude*sin(angularFrequency*t + phase)
  Sweep,         ///< f(t) = amplitude*sin(2*pi*(f0*t + (f1-f0)*t^2/(2*T))) (t <= T), frequency f1 after T
  Ramp,          ///< startValue before startTime, endValue after endTime, linear in between (a step if equal)
  Table,         ///< piecewise-linear through (times[i], values[i]), constant beyond the ends
};

/// Dynamic solver types (Exudyn's DynamicSolverType). Shared by the CPU settings and the
/// host/device integrators (common/explicit_rk.h), hence a plain enum here.
enum class DynamicSolverType : int {
  GeneralizedAlpha = 0,
  TrapezoidalIndex2,
  ExplicitEuler,
  ExplicitMidpoint,
  RK33,
  RK44,
  RK67,
  ODE23,
  DOPRI5,
  VelocityVerlet,
};

/// Output variable types (Exudyn's OutputVariableType names).
enum class OutputVariableType : int {
  _None = 0,
  Distance,
  Position,
  Displacement,
  DisplacementLocal,
  Velocity,
  VelocityLocal,
  Acceleration,
  AccelerationLocal,
  RotationMatrix,
  AngularVelocity,
  AngularVelocityLocal,
  AngularAcceleration,
  AngularAccelerationLocal,
  Rotation,
  CoordinatesTotal,
  Coordinates,
  Coordinates_t,
  Coordinates_tt,
  SlidingCoordinate,
  Force,
  ForceLocal,
  Torque,
  TorqueLocal,
  ConstraintEquation,
  KineticEnergy,
  PotentialEnergy,
  Count
};

}  // namespace mbsweep
