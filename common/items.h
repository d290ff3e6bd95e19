/// @file items.h
/// The host-side item vocabulary: nodes, objects, markers, loads and sensors with Exudyn's
/// type names, field names and defaults. Each item describes its fields once through
/// `Fields(visitor)`; validation, compilation into theta (with human-readable paths) and
/// file readers all walk the same description.
///
/// Coordinates of nodes are displacements relative to `referenceCoordinates`.
#pragma once

#include <array>
#include <string>
#include <variant>
#include <vector>

#include "common/kinds.h"
#include "common/rules.h"
#include "common/types.h"

namespace mbsweep {

using Vector1D = std::array<Real, 1>;
using Vector2D = std::array<Real, 2>;
using Vector3D = std::array<Real, 3>;
using Vector6D = std::array<Real, 6>;
using Vector7D = std::array<Real, 7>;
using Vector = std::vector<Real>;

/// 3x3 matrix, row-major; defaults to the identity (rotation matrices in Exudyn do).
struct Matrix3D {
  std::array<Real, 9> data{1, 0, 0, 0, 1, 0, 0, 0, 1};
};
/// 6x6 matrix, row-major; defaults to zeros.
struct Matrix6D {
  std::array<Real, 36> data{};
};
/// Dense matrix, row-major. An empty matrix (0x0) means "not given".
struct Matrix {
  int rows = 0, cols = 0;
  std::vector<Real> data;
  Matrix() = default;
  Matrix(int r, int c, std::vector<Real> d) : rows(r), cols(c), data(std::move(d)) {}
  Real operator()(int i, int j) const { return data[static_cast<size_t>(i * cols + j)]; }
};

/// A built-in time function scaling a load value: load(t) = value * f(t). Only the
/// parameters of the selected type are part of the model's theta.
struct TimeFunction {
  TimeFunctionType type = TimeFunctionType::Constant;
  Real amplitude = 1;         ///< Harmonic, Sweep
  Real angularFrequency = 0;  ///< Harmonic: omega in rad/s
  Real phase = 0;             ///< Harmonic: phase in rad
  Real offset = 0;            ///< Harmonic: constant added to the sine
  Real startFrequency = 0;    ///< Sweep: f0 in Hz
  Real endFrequency = 0;      ///< Sweep: f1 in Hz
  Real duration = 1;          ///< Sweep: T in s (PReal)
  Real startTime = 0;         ///< Ramp
  Real endTime = 0;           ///< Ramp (>= startTime; equal means a step)
  Real startValue = 0;        ///< Ramp
  Real endValue = 1;          ///< Ramp
  Vector times;               ///< Table: strictly increasing sample times
  Vector values;              ///< Table: values at `times`

  static TimeFunction Harmonic(Real amplitude, Real omega, Real phase = 0, Real offset = 0);
  static TimeFunction Sweep(Real amplitude, Real f0, Real f1, Real duration);
  static TimeFunction Ramp(Real t0, Real t1, Real v0 = 0, Real v1 = 1);
  static TimeFunction Step(Real t0, Real v0 = 0, Real v1 = 1) { return Ramp(t0, t0, v0, v1); }
  static TimeFunction Table(Vector times, Vector values);
};

// ----------------------------------------------------------------------------------------
// Field visitor protocol: an item calls, for each field in order,
//   v(name, Real&, Rule)                     Real parameter (part of theta)
//   v(name, std::array<Real,N>&, Rule)       fixed vector (part of theta)
//   v(name, Vector&, Rule)                   variable vector (part of theta)
//   v(name, Matrix3D& | Matrix6D& | Matrix&) matrices (part of theta)
//   v(name, TimeFunction&)                   time function (its parameters join theta)
//   v(name, bool&), v(name, int&, Rule)      structural flags / integers
//   v(name, std::array<int,N>&)              axis flags, each 0 or 1 (structure; Exudyn's ArrayIndex)
//   v(name, NodeIndex& | ObjectIndex& | ...) item references (structure)
//   v(name, std::vector<NodeIndex>&), v(name, std::array<MarkerIndex,2>&)
//   v(name, OutputVariableType&), v(name, std::string&)
// ----------------------------------------------------------------------------------------

#define MBS_ITEM_TYPE(T) static constexpr const char* typeName = #T

// ------------------------------------ nodes ---------------------------------------------

/// Point node in 3D: 3 ODE2 displacement coordinates.
struct NodePoint {
  MBS_ITEM_TYPE(NodePoint);
  std::string name;
  Vector3D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};
/// Point node in the x-y plane: 2 ODE2 coordinates.
struct NodePoint2D {
  MBS_ITEM_TYPE(NodePoint2D);
  std::string name;
  Vector2D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};
/// Planar rigid-body node: x, y, rotation angle theta about z.
struct NodeRigidBody2D {
  MBS_ITEM_TYPE(NodeRigidBody2D);
  std::string name;
  Vector3D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};
/// One ODE2 coordinate (used by ObjectMass1D and ObjectRotationalMass1D).
struct Node1D {
  MBS_ITEM_TYPE(Node1D);
  std::string name;
  Vector1D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};
/// n generic ODE2 coordinates; vectors must have length numberOfODE2Coordinates.
struct NodeGenericODE2 {
  MBS_ITEM_TYPE(NodeGenericODE2);
  std::string name;
  Vector referenceCoordinates, initialCoordinates, initialCoordinates_t;
  int numberOfODE2Coordinates = 0;
  template <class V> void Fields(V& v) {
    v("numberOfODE2Coordinates", numberOfODE2Coordinates, Rule::PInt);
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialCoordinates_t", initialCoordinates_t, Rule::Real);
  }
};
/// n generic first-order (ODE1) coordinates.
struct NodeGenericODE1 {
  MBS_ITEM_TYPE(NodeGenericODE1);
  std::string name;
  Vector referenceCoordinates, initialCoordinates;
  int numberOfODE1Coordinates = 0;
  template <class V> void Fields(V& v) {
    v("numberOfODE1Coordinates", numberOfODE1Coordinates, Rule::PInt);
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
  }
};
/// Ground node without coordinates.
struct NodePointGround {
  MBS_ITEM_TYPE(NodePointGround);
  std::string name;
  Vector3D referenceCoordinates{};
  template <class V> void Fields(V& v) { v("referenceCoordinates", referenceCoordinates, Rule::Real); }
};

/// 3D rigid-body node with Euler parameters: 7 ODE2 coordinates [x, y, z, e0, e1, e2, e3]
/// (displacements and Euler-parameter increments relative to referenceCoordinates). With
/// addConstraintEquation (default) the node adds one algebraic equation, the Euler-parameter
/// norm p^T p - 1 = 0 (p = reference + current rotation parameters), and one multiplier.
struct NodeRigidBodyEP {
  MBS_ITEM_TYPE(NodeRigidBodyEP);
  std::string name;
  Vector7D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  bool addConstraintEquation = true;
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
    v("addConstraintEquation", addConstraintEquation);
  }
};
/// 3D rigid-body node with Tait-Bryan xyz angles: 6 ODE2 coordinates [x, y, z, phi0, phi1, phi2],
/// A = Rx(phi0) Ry(phi1) Rz(phi2); singular at phi1 = +-pi/2.
struct NodeRigidBodyRxyz {
  MBS_ITEM_TYPE(NodeRigidBodyRxyz);
  std::string name;
  Vector6D referenceCoordinates{}, initialCoordinates{}, initialVelocities{};
  template <class V> void Fields(V& v) {
    v("referenceCoordinates", referenceCoordinates, Rule::Real);
    v("initialCoordinates", initialCoordinates, Rule::Real);
    v("initialVelocities", initialVelocities, Rule::Real);
  }
};

// ------------------------------------ objects -------------------------------------------

/// Ground body: fixed position and orientation; markers on it have no coordinates.
struct ObjectGround {
  MBS_ITEM_TYPE(ObjectGround);
  std::string name;
  Vector3D referencePosition{};
  Matrix3D referenceRotation{};
  template <class V> void Fields(V& v) {
    v("referencePosition", referencePosition, Rule::Real);
    v("referenceRotation", referenceRotation);
  }
};
/// Point mass on a NodePoint; M = m*I3.
struct ObjectMassPoint {
  MBS_ITEM_TYPE(ObjectMassPoint);
  std::string name;
  Real physicsMass = 0;
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) {
    v("physicsMass", physicsMass, Rule::UReal);
    v("nodeNumber", nodeNumber);
  }
};
/// Point mass on a NodePoint2D; M = m*I2.
struct ObjectMassPoint2D {
  MBS_ITEM_TYPE(ObjectMassPoint2D);
  std::string name;
  Real physicsMass = 0;
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) {
    v("physicsMass", physicsMass, Rule::UReal);
    v("nodeNumber", nodeNumber);
  }
};
/// Mass moving along the local x-axis of a reference frame, on a Node1D.
struct ObjectMass1D {
  MBS_ITEM_TYPE(ObjectMass1D);
  std::string name;
  Real physicsMass = 0;
  NodeIndex nodeNumber;
  Vector3D referencePosition{};
  Matrix3D referenceRotation{};
  template <class V> void Fields(V& v) {
    v("physicsMass", physicsMass, Rule::UReal);
    v("nodeNumber", nodeNumber);
    v("referencePosition", referencePosition, Rule::Real);
    v("referenceRotation", referenceRotation);
  }
};
/// Rotor turning about the local z-axis of a reference frame, on a Node1D (angle).
struct ObjectRotationalMass1D {
  MBS_ITEM_TYPE(ObjectRotationalMass1D);
  std::string name;
  Real physicsInertia = 0;
  NodeIndex nodeNumber;
  Vector3D referencePosition{};
  Matrix3D referenceRotation{};
  template <class V> void Fields(V& v) {
    v("physicsInertia", physicsInertia, Rule::UReal);
    v("nodeNumber", nodeNumber);
    v("referencePosition", referencePosition, Rule::Real);
    v("referenceRotation", referenceRotation);
  }
};
/// Planar rigid body on a NodeRigidBody2D; physicsInertia is about the reference point,
/// physicsCenterOfMass is the local position of the centre of mass.
struct ObjectRigidBody2D {
  MBS_ITEM_TYPE(ObjectRigidBody2D);
  std::string name;
  Real physicsMass = 0;
  Real physicsInertia = 0;
  Vector2D physicsCenterOfMass{};
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) {
    v("physicsMass", physicsMass, Rule::UReal);
    v("physicsInertia", physicsInertia, Rule::UReal);
    v("physicsCenterOfMass", physicsCenterOfMass, Rule::Real);
    v("nodeNumber", nodeNumber);
  }
};
/// 3D rigid body on a NodeRigidBodyEP or NodeRigidBodyRxyz. physicsInertia is the inertia
/// tensor about the reference point (the node) in body coordinates, given as
/// [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]; physicsCenterOfMass is the local position of the centre of
/// mass. The mass matrix depends on the rotation parameters.
struct ObjectRigidBody {
  MBS_ITEM_TYPE(ObjectRigidBody);
  std::string name;
  Real physicsMass = 0;
  Vector6D physicsInertia{};
  Vector3D physicsCenterOfMass{};
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) {
    v("physicsMass", physicsMass, Rule::UReal);
    v("physicsInertia", physicsInertia, Rule::Real);
    v("physicsCenterOfMass", physicsCenterOfMass, Rule::Real);
    v("nodeNumber", nodeNumber);
  }
};
/// Linear second-order system M q_tt + D q_t + K q = forceVector on the coordinates of
/// nodeNumbers (q without reference). Empty matrices mean zero.
struct ObjectGenericODE2 {
  MBS_ITEM_TYPE(ObjectGenericODE2);
  std::string name;
  std::vector<NodeIndex> nodeNumbers;
  Matrix massMatrix, stiffnessMatrix, dampingMatrix;
  Vector forceVector;
  template <class V> void Fields(V& v) {
    v("nodeNumbers", nodeNumbers);
    v("massMatrix", massMatrix);
    v("stiffnessMatrix", stiffnessMatrix);
    v("dampingMatrix", dampingMatrix);
    v("forceVector", forceVector, Rule::Real);
  }
};
/// Linear first-order system y_t = systemMatrix*y + rhsVector on ODE1 nodes.
struct ObjectGenericODE1 {
  MBS_ITEM_TYPE(ObjectGenericODE1);
  std::string name;
  std::vector<NodeIndex> nodeNumbers;
  Matrix systemMatrix;
  Vector rhsVector;
  template <class V> void Fields(V& v) {
    v("nodeNumbers", nodeNumbers);
    v("systemMatrix", systemMatrix);
    v("rhsVector", rhsVector, Rule::Real);
  }
};
/// Spring-damper between two position markers:
/// f = k(L - L0) + d(L_t - velocityOffset) + force, along the unit vector.
struct ObjectConnectorSpringDamper {
  MBS_ITEM_TYPE(ObjectConnectorSpringDamper);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real referenceLength = 0, stiffness = 0, damping = 0, force = 0, velocityOffset = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("referenceLength", referenceLength, Rule::UReal);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("force", force, Rule::Real);
    v("velocityOffset", velocityOffset, Rule::Real);
    v("activeConnector", activeConnector);
  }
};
/// Spring-damper between two coordinates: f = k(q1 - q0 - offset) + d(v1 - v0).
struct ObjectConnectorCoordinateSpringDamper {
  MBS_ITEM_TYPE(ObjectConnectorCoordinateSpringDamper);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real stiffness = 0, damping = 0, offset = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("offset", offset, Rule::Real);
    v("activeConnector", activeConnector);
  }
};
/// Component-wise spring-damper in global x, y, z: f = diag(k)(dp - offset) + diag(d) dv.
struct ObjectConnectorCartesianSpringDamper {
  MBS_ITEM_TYPE(ObjectConnectorCartesianSpringDamper);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Vector3D stiffness{}, damping{}, offset{};
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::UReal);
    v("damping", damping, Rule::UReal);
    v("offset", offset, Rule::Real);
    v("activeConnector", activeConnector);
  }
};
/// Newtonian gravitational attraction between two position markers.
struct ObjectConnectorGravity {
  MBS_ITEM_TYPE(ObjectConnectorGravity);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real gravitationalConstant = 6.67430e-11, mass0 = 0, mass1 = 0, minDistanceRegularization = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("gravitationalConstant", gravitationalConstant, Rule::Real);
    v("mass0", mass0, Rule::UReal);
    v("mass1", mass1, Rule::UReal);
    v("minDistanceRegularization", minDistanceRegularization, Rule::UReal);
    v("activeConnector", activeConnector);
  }
};

/// 6D spring-damper between two Position+Orientation markers, acting in the joint frame J0
/// (A0 rotationMarker0). With d = J0-components of p1 - p0, theta = Tait-Bryan xyz angles of
/// the relative rotation (A0 R0)^T (A1 R1) (each angle above pi shifted by -2 pi), and
/// relative velocity / angular velocity in J0:  [f; m] = stiffness ([d; theta] - offset) +
/// damping [d_t; omega_rel]. f and m act on marker 1 (and negated on marker 0) after
/// transformation to global coordinates. (Exudyn's intrinsicFormulation is not provided.)
struct ObjectConnectorRigidBodySpringDamper {
  MBS_ITEM_TYPE(ObjectConnectorRigidBodySpringDamper);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Matrix6D stiffness, damping;
  Matrix3D rotationMarker0, rotationMarker1;
  Vector6D offset{};
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness);
    v("damping", damping);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("offset", offset, Rule::Real);
    v("activeConnector", activeConnector);
  }
};
/// Torsional spring-damper about the z-axis of the joint frame J0 = A0 rotationMarker0 between
/// two Orientation markers: the angle is the third Tait-Bryan xyz angle of the relative
/// rotation (A0 R0)^T (A1 R1), i.e. atan2 of its (1,0) and (0,0) entries, in (-pi, pi]; the
/// angular velocity is the J0 z-component of omega1 - omega0;
/// torque = stiffness (angle - offset) + damping (omega - velocityOffset) + torque, about the
/// global J0 z-axis, restoring on marker 1 and opposite on marker 0.
struct ObjectConnectorTorsionalSpringDamper {
  MBS_ITEM_TYPE(ObjectConnectorTorsionalSpringDamper);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real stiffness = 0, damping = 0;
  Matrix3D rotationMarker0, rotationMarker1;
  Real offset = 0, velocityOffset = 0, torque = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::Real);
    v("damping", damping, Rule::Real);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("offset", offset, Rule::Real);
    v("velocityOffset", velocityOffset, Rule::Real);
    v("torque", torque, Rule::Real);
    v("activeConnector", activeConnector);
  }
};
/// Linear spring-damper along axisMarker0 (co-moving with marker 0) between two
/// Position+Orientation markers: with a = A0 axisMarker0, x = a . (p1 - p0), x_t = a . (v1 - v0),
/// f = stiffness (x - offset) + damping (x_t - velocityOffset) + force, applied as the force
/// -f a on marker 1 and f a on marker 0 (no torque from the moving axis).
struct ObjectConnectorLinearSpringDamper {
  MBS_ITEM_TYPE(ObjectConnectorLinearSpringDamper);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real stiffness = 0, damping = 0;
  Vector3D axisMarker0{1, 0, 0};
  Real offset = 0, velocityOffset = 0, force = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("stiffness", stiffness, Rule::Real);
    v("damping", damping, Rule::Real);
    v("axisMarker0", axisMarker0, Rule::Real);
    v("offset", offset, Rule::Real);
    v("velocityOffset", velocityOffset, Rule::Real);
    v("force", force, Rule::Real);
    v("activeConnector", activeConnector);
  }
};

// ----------------------------------- constraints ----------------------------------------
// Each constraint adds algebraic variables (Lagrange multipliers); activeConnector = false
// replaces its equations by lambda = 0.

/// Coordinate constraint: factorValue1 * q_m1 - q_m0 - offset * f(t) = 0 (velocities with
/// velocityLevel). f is the built-in offsetTimeFunction (constant 1 by default).
struct ObjectConnectorCoordinate {
  MBS_ITEM_TYPE(ObjectConnectorCoordinate);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real offset = 0;
  Real factorValue1 = 1;
  bool velocityLevel = false;
  TimeFunction offsetTimeFunction;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("offset", offset, Rule::Real);
    v("factorValue1", factorValue1, Rule::Real);
    v("velocityLevel", velocityLevel);
    v("offsetTimeFunction", offsetTimeFunction);
    v("activeConnector", activeConnector);
  }
};
/// Distance constraint between two position markers: |p1 - p0| - distance = 0.
struct ObjectConnectorDistance {
  MBS_ITEM_TYPE(ObjectConnectorDistance);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Real distance = 0;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("distance", distance, Rule::PReal);
    v("activeConnector", activeConnector);
  }
};
/// Planar revolute joint: the x and y positions of both markers coincide (2 equations).
struct ObjectJointRevolute2D {
  MBS_ITEM_TYPE(ObjectJointRevolute2D);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("activeConnector", activeConnector);
  }
};
/// Planar prismatic joint: marker 1 slides along axisMarker0 (marker-0 frame):
/// (A1 normalMarker1) . (p1 - p0) = 0 and, with constrainRotation,
/// (A0 axisMarker0) . (A1 normalMarker1) = 0.
struct ObjectJointPrismatic2D {
  MBS_ITEM_TYPE(ObjectJointPrismatic2D);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Vector3D axisMarker0{1, 0, 0};
  Vector3D normalMarker1{0, 1, 0};
  bool constrainRotation = true;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("axisMarker0", axisMarker0, Rule::Real);
    v("normalMarker1", normalMarker1, Rule::Real);
    v("constrainRotation", constrainRotation);
    v("activeConnector", activeConnector);
  }
};

/// Spherical joint: the global position components of the two markers given by
/// constrainedAxes coincide (3 equations; an unconstrained axis has the equation lambda = 0).
struct ObjectJointSpherical {
  MBS_ITEM_TYPE(ObjectJointSpherical);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  std::array<int, 3> constrainedAxes{1, 1, 1};
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("constrainedAxes", constrainedAxes);
    v("activeConnector", activeConnector);
  }
};
/// Revolute joint about the z-axis of the joint frame J0 = A0 rotationMarker0 (5 equations):
/// p1 - p0 = 0 (global) and z0 . x1 = z0 . y1 = 0 with z0 the J0 z-axis and x1, y1 the axes of
/// J1 = A1 rotationMarker1.
struct ObjectJointRevoluteZ {
  MBS_ITEM_TYPE(ObjectJointRevoluteZ);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Matrix3D rotationMarker0, rotationMarker1;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("activeConnector", activeConnector);
  }
};
/// Prismatic joint along the x-axis of the joint frame J0 = A0 rotationMarker0 (5 equations):
/// the J0 y and z components of p1 - p0 vanish, and z0 . y1 = z0 . x1 = x0 . y1 = 0 (J0 and
/// J1 = A1 rotationMarker1 keep their relative orientation).
struct ObjectJointPrismaticX {
  MBS_ITEM_TYPE(ObjectJointPrismaticX);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  Matrix3D rotationMarker0, rotationMarker1;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("activeConnector", activeConnector);
  }
};
/// Generic joint with 6 equations, one per axis of constrainedAxes = [x, y, z, rx, ry, rz]
/// (1: locked, 0: free; a free axis has the equation lambda = 0). Translations: p1 - p0 in
/// global coordinates if all three are locked, otherwise its J0 components. Rotations (J0, J1
/// as for ObjectJointRevoluteZ): all locked: z0.y1, z0.x1, x0.y1; one free axis f (others
/// l1 < l2): f0.l1_1 = f0.l2_1 = 0 in rows l1, l2; one locked axis l (free f1 < f2):
/// f1_0 . f2_1 = 0 in row l.
struct ObjectJointGeneric {
  MBS_ITEM_TYPE(ObjectJointGeneric);
  std::string name;
  std::array<MarkerIndex, 2> markerNumbers{};
  std::array<int, 6> constrainedAxes{1, 1, 1, 1, 1, 1};
  Matrix3D rotationMarker0, rotationMarker1;
  bool activeConnector = true;
  template <class V> void Fields(V& v) {
    v("markerNumbers", markerNumbers);
    v("constrainedAxes", constrainedAxes);
    v("rotationMarker0", rotationMarker0);
    v("rotationMarker1", rotationMarker1);
    v("activeConnector", activeConnector);
  }
};

// ------------------------------------ markers -------------------------------------------

/// Position marker at a local position of a body.
struct MarkerBodyPosition {
  MBS_ITEM_TYPE(MarkerBodyPosition);
  std::string name;
  ObjectIndex bodyNumber;
  Vector3D localPosition{};
  template <class V> void Fields(V& v) {
    v("bodyNumber", bodyNumber);
    v("localPosition", localPosition, Rule::Real);
  }
};
/// Position and orientation marker at a local position of a body.
struct MarkerBodyRigid {
  MBS_ITEM_TYPE(MarkerBodyRigid);
  std::string name;
  ObjectIndex bodyNumber;
  Vector3D localPosition{};
  template <class V> void Fields(V& v) {
    v("bodyNumber", bodyNumber);
    v("localPosition", localPosition, Rule::Real);
  }
};
/// Marker for mass-proportional loads (gravity) on a body.
struct MarkerBodyMass {
  MBS_ITEM_TYPE(MarkerBodyMass);
  std::string name;
  ObjectIndex bodyNumber;
  template <class V> void Fields(V& v) { v("bodyNumber", bodyNumber); }
};
/// Position marker at a node.
struct MarkerNodePosition {
  MBS_ITEM_TYPE(MarkerNodePosition);
  std::string name;
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) { v("nodeNumber", nodeNumber); }
};
/// Position and orientation marker at a node.
struct MarkerNodeRigid {
  MBS_ITEM_TYPE(MarkerNodeRigid);
  std::string name;
  NodeIndex nodeNumber;
  template <class V> void Fields(V& v) { v("nodeNumber", nodeNumber); }
};
/// One coordinate of a node (ODE2, or ODE1 for NodeGenericODE1).
struct MarkerNodeCoordinate {
  MBS_ITEM_TYPE(MarkerNodeCoordinate);
  std::string name;
  NodeIndex nodeNumber;
  int coordinate = 0;
  template <class V> void Fields(V& v) {
    v("nodeNumber", nodeNumber);
    v("coordinate", coordinate, Rule::UInt);
  }
};

// ------------------------------------ loads ---------------------------------------------

/// Generalized force on one coordinate: load * timeFunction(t).
struct LoadCoordinate {
  MBS_ITEM_TYPE(LoadCoordinate);
  std::string name;
  MarkerIndex markerNumber;
  Real load = 0;
  TimeFunction timeFunction;
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("load", load, Rule::Real);
    v("timeFunction", timeFunction);
  }
};
/// Force vector on a position marker (global frame, or body frame if bodyFixed).
struct LoadForceVector {
  MBS_ITEM_TYPE(LoadForceVector);
  std::string name;
  MarkerIndex markerNumber;
  Vector3D loadVector{};
  bool bodyFixed = false;
  TimeFunction timeFunction;
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("loadVector", loadVector, Rule::Real);
    v("bodyFixed", bodyFixed);
    v("timeFunction", timeFunction);
  }
};
/// Torque vector on an orientation marker (global frame, or body frame if bodyFixed).
struct LoadTorqueVector {
  MBS_ITEM_TYPE(LoadTorqueVector);
  std::string name;
  MarkerIndex markerNumber;
  Vector3D loadVector{};
  bool bodyFixed = false;
  TimeFunction timeFunction;
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("loadVector", loadVector, Rule::Real);
    v("bodyFixed", bodyFixed);
    v("timeFunction", timeFunction);
  }
};
/// Mass-proportional load (e.g. gravity [0,0,-9.81]) on a MarkerBodyMass.
struct LoadMassProportional {
  MBS_ITEM_TYPE(LoadMassProportional);
  std::string name;
  MarkerIndex markerNumber;
  Vector3D loadVector{};
  TimeFunction timeFunction;
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("loadVector", loadVector, Rule::Real);
    v("timeFunction", timeFunction);
  }
};

// ------------------------------------ sensors -------------------------------------------

/// Common sensor settings (Exudyn's field names).
struct SensorCommon {
  bool writeToFile = true;  ///< ignored when fileName is empty
  std::string fileName;
  bool storeInternal = false;
  template <class V> void CommonFields(V& v) {
    v("writeToFile", writeToFile);
    v("fileName", fileName);
    v("storeInternal", storeInternal);
  }
};
struct SensorNode : SensorCommon {
  MBS_ITEM_TYPE(SensorNode);
  std::string name;
  NodeIndex nodeNumber;
  OutputVariableType outputVariableType = OutputVariableType::_None;
  template <class V> void Fields(V& v) {
    v("nodeNumber", nodeNumber);
    v("outputVariableType", outputVariableType);
    CommonFields(v);
  }
};
struct SensorBody : SensorCommon {
  MBS_ITEM_TYPE(SensorBody);
  std::string name;
  ObjectIndex bodyNumber;
  Vector3D localPosition{};
  OutputVariableType outputVariableType = OutputVariableType::_None;
  template <class V> void Fields(V& v) {
    v("bodyNumber", bodyNumber);
    v("localPosition", localPosition, Rule::Real);
    v("outputVariableType", outputVariableType);
    CommonFields(v);
  }
};
struct SensorObject : SensorCommon {
  MBS_ITEM_TYPE(SensorObject);
  std::string name;
  ObjectIndex objectNumber;
  OutputVariableType outputVariableType = OutputVariableType::_None;
  template <class V> void Fields(V& v) {
    v("objectNumber", objectNumber);
    v("outputVariableType", outputVariableType);
    CommonFields(v);
  }
};
struct SensorMarker : SensorCommon {
  MBS_ITEM_TYPE(SensorMarker);
  std::string name;
  MarkerIndex markerNumber;
  OutputVariableType outputVariableType = OutputVariableType::_None;
  template <class V> void Fields(V& v) {
    v("markerNumber", markerNumber);
    v("outputVariableType", outputVariableType);
    CommonFields(v);
  }
};
/// Records the current load vector (or scalar) of a load.
struct SensorLoad : SensorCommon {
  MBS_ITEM_TYPE(SensorLoad);
  std::string name;
  LoadIndex loadNumber;
  template <class V> void Fields(V& v) {
    v("loadNumber", loadNumber);
    CommonFields(v);
  }
};

#undef MBS_ITEM_TYPE

using NodeItem = std::variant<NodePoint, NodePoint2D, NodeRigidBody2D, Node1D, NodeGenericODE2, NodeGenericODE1,
                              NodePointGround, NodeRigidBodyEP, NodeRigidBodyRxyz>;
using ObjectItem = std::variant<ObjectGround, ObjectMassPoint, ObjectMassPoint2D, ObjectMass1D, ObjectRotationalMass1D,
                                ObjectRigidBody2D, ObjectGenericODE2, ObjectGenericODE1, ObjectConnectorSpringDamper,
                                ObjectConnectorCoordinateSpringDamper, ObjectConnectorCartesianSpringDamper,
                                ObjectConnectorGravity, ObjectConnectorCoordinate, ObjectConnectorDistance,
                                ObjectJointRevolute2D, ObjectJointPrismatic2D, ObjectRigidBody,
                                ObjectConnectorRigidBodySpringDamper, ObjectConnectorTorsionalSpringDamper,
                                ObjectConnectorLinearSpringDamper, ObjectJointSpherical, ObjectJointRevoluteZ,
                                ObjectJointPrismaticX, ObjectJointGeneric>;
using MarkerItem = std::variant<MarkerBodyPosition, MarkerBodyRigid, MarkerBodyMass, MarkerNodePosition,
                                MarkerNodeRigid, MarkerNodeCoordinate>;
using LoadItem = std::variant<LoadCoordinate, LoadForceVector, LoadTorqueVector, LoadMassProportional>;
using SensorItem = std::variant<SensorNode, SensorBody, SensorObject, SensorMarker, SensorLoad>;

/// Exudyn's name of an output variable type, e.g. "Position".
const char* OutputVariableTypeName(OutputVariableType t);
/// Parses an output variable type name; throws ValidationError listing the valid names.
OutputVariableType ParseOutputVariableType(const std::string& name);

}  // namespace mbsweep
