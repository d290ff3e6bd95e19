/// @file creators.h
/// Convenience creators in the spirit of Exudyn's Create... functions: each adds the nodes,
/// bodies, markers and loads one usually writes by hand, from global positions in the
/// reference configuration. They return the created items' indices and validate their
/// input like the items themselves (ValidationError naming the creator, field and value).
#pragma once

#include <array>
#include <string>

#include "common/model.h"

namespace mbsweep {

/// Adds an ObjectGround at referencePosition.
ObjectIndex CreateGround(Model& m, const Vector3D& referencePosition = {}, const std::string& name = "");

/// A point mass: NodePoint (or NodePoint2D with create2D) + ObjectMassPoint(2D), plus a
/// LoadMassProportional if gravity is nonzero.
struct MassPointItems {
  NodeIndex node;
  ObjectIndex body;
  MarkerIndex bodyMassMarker;  ///< valid only when gravity was added
  LoadIndex gravityLoad;       ///< valid only when gravity was added
};
MassPointItems CreateMassPoint(Model& m, const std::string& name, const Vector3D& referencePosition, Real mass,
                               const Vector3D& initialDisplacement = {}, const Vector3D& initialVelocity = {},
                               const Vector3D& gravity = {}, bool create2D = false);

/// A planar rigid body: NodeRigidBody2D at (referencePosition x, y, referenceAngle) +
/// ObjectRigidBody2D with inertia about the reference point and an optional centre-of-mass
/// offset, plus gravity if nonzero.
struct RigidBody2DItems {
  NodeIndex node;
  ObjectIndex body;
  MarkerIndex bodyMassMarker;  ///< valid only when gravity was added
  LoadIndex gravityLoad;       ///< valid only when gravity was added
};
RigidBody2DItems CreateRigidBody2D(Model& m, const std::string& name, const Vector2D& referencePosition,
                                   Real referenceAngle, Real mass, Real inertia,
                                   const Vector2D& centerOfMass = {}, const Vector3D& initialVelocity = {},
                                   const Vector3D& gravity = {});

/// Mass properties of a 3D rigid body (Exudyn's RigidBodyInertia): mass, inertia tensor about the
/// body's reference point in body coordinates as [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy], and the local
/// position of the centre of mass.
struct RigidBodyInertia {
  Real mass = 0;
  Vector6D inertia{};
  Vector3D centerOfMass{};
};

/// Rotation parameters of the node created by CreateRigidBody (Exudyn's NodeType).
enum class RigidBodyNodeType { RotationEulerParameters, RotationRxyz };

/// A 3D rigid body: NodeRigidBodyEP (default) or NodeRigidBodyRxyz at referencePosition with
/// referenceRotationMatrix (body to global, must be a rotation matrix) + ObjectRigidBody, plus a
/// LoadMassProportional if gravity is nonzero. initialVelocity is the global velocity of the
/// reference point, initialAngularVelocity the global angular velocity; they are converted to
/// rotation-parameter velocities (EP: p_t = G^T omega / 4; Rxyz: G^-1 omega, which throws at the
/// singular angle phi1 = +-pi/2 when omega is nonzero).
struct RigidBodyItems {
  NodeIndex node;
  ObjectIndex body;
  MarkerIndex bodyMassMarker;  ///< valid only when gravity was added
  LoadIndex gravityLoad;       ///< valid only when gravity was added
};
RigidBodyItems CreateRigidBody(Model& m, const std::string& name, const Vector3D& referencePosition,
                               const Matrix3D& referenceRotationMatrix, const RigidBodyInertia& inertia,
                               const Vector3D& initialVelocity = {}, const Vector3D& initialAngularVelocity = {},
                               const Vector3D& gravity = {},
                               RigidBodyNodeType nodeType = RigidBodyNodeType::RotationEulerParameters);

/// A spring-damper between points of two bodies given in body-local coordinates; a negative
/// referenceLength means "the distance in the reference configuration" (Exudyn: None).
ObjectIndex CreateSpringDamper(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                               const Vector3D& localPosition0, const Vector3D& localPosition1, Real stiffness,
                               Real damping = 0, Real referenceLength = -1, Real force = 0, Real velocityOffset = 0);

/// A distance constraint between points of two bodies (local coordinates); distance < 0:
/// the distance in the reference configuration.
ObjectIndex CreateDistanceConstraint(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                                     const Vector3D& localPosition0 = {}, const Vector3D& localPosition1 = {},
                                     Real distance = -1);

/// A revolute joint at a global position about a global axis (reference configuration) between
/// two bodies. Between planar bodies (ObjectRigidBody2D, ObjectMassPoint2D, ObjectGround) the
/// axis must be z and an ObjectJointRevolute2D is created; otherwise (a 3D body involved) an
/// ObjectJointRevoluteZ on MarkerBodyRigid markers whose rotationMarker0/1 make the joint z-axis
/// the given axis in the reference configuration.
ObjectIndex CreateRevoluteJoint(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                                const Vector3D& position, const Vector3D& axis = {0, 0, 1});

/// A prismatic joint at a global position: the bodies slide relative to each other along
/// `axis` (global). Between planar bodies the axis must lie in the x-y plane and an
/// ObjectJointPrismatic2D is created; otherwise an ObjectJointPrismaticX whose
/// rotationMarker0/1 make the joint x-axis the given axis in the reference configuration.
ObjectIndex CreatePrismaticJoint(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                                 const Vector3D& position, const Vector3D& axis = {1, 0, 0});

/// A spherical joint at a global position (reference configuration): ObjectJointSpherical on
/// MarkerBodyPosition markers; constrainedAxes selects the locked global directions.
ObjectIndex CreateSphericalJoint(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                                 const Vector3D& position, const std::array<int, 3>& constrainedAxes = {1, 1, 1});

/// A coordinate constraint fixing coordinate `coordinate` of `node` to ground (value offset).
ObjectIndex CreateCoordinateConstraint(Model& m, const std::string& name, NodeIndex node, int coordinate,
                                       Real offset = 0);

/// A force vector (global frame) at a body-local point.
LoadIndex CreateForce(Model& m, const std::string& name, ObjectIndex body, const Vector3D& loadVector,
                      const Vector3D& localPosition = {});

/// A torque vector (global frame) on a body with orientation.
LoadIndex CreateTorque(Model& m, const std::string& name, ObjectIndex body, const Vector3D& loadVector);

/// Global position of a body-local point in the reference configuration.
Vector3D BodyReferencePoint(const Model& m, ObjectIndex body, const Vector3D& localPosition);
/// Body-local coordinates of a global point in the reference configuration.
Vector3D BodyLocalPoint(const Model& m, ObjectIndex body, const Vector3D& globalPosition);

}  // namespace mbsweep
