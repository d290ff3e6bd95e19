/// @file item_physics.h
/// What an item file declares beyond its fields, and the types its host/device physics
/// functions ("hooks") take. Every object names its category; the core (system.h,
/// constraints.h, kinematics.h, outputs.h, model.cpp) dispatches on it through the generated
/// item list (item_dispatch.h), so an item's physics lives in its own file. An item with
/// fixed-size Real fields declares them as `struct Params` (the item derives from it; its hooks
/// read them by name, on the host and on the device); an item without (time functions) takes
/// its theta slots as `const Real*`. The hooks, by category:
///
/// PositionConnector (force law between two position markers):
///   static void Evaluate(const Params& p, PositionConnectorState& s, bool active);
///                          s.k0, s.k1 (marker kinematics) are given
///   optional, with a UserFunction field (springForceUserFunction; its program is the record's
///   extra[3], -1 without an expression):
///   static void EvaluateUser(const LayoutView& L, int program, const Real* p, Real t,
///                            PositionConnectorState& s, bool active);
///                          Evaluate with the law's value(s) from the program (p: the item's
///                          theta, the function's parameters after Params)
/// Constraint (algebraic equations, one Lagrange multiplier each):
///   static void Equations(const ConstraintAccess& c, params, ConstraintEval& e);
///                          e.C and e.Cq (nAE x nLocal) over [marker 0's coords, marker 1's];
///                          e comes zeroed with nAE, nLocal, active, velocity = index2
///   optional: static bool Residual(const ConstraintAccess& c, params, const Real* lambda,
///                                  AngleCache& angles, Real* f, Real* ae);
///                          the equations into ae and the reactions -C_q^T lambda into f
///                          with Equations' values but without forming C_q (a fast path);
///                          false: not handled (then Equations is used)
/// RigidConnector (force/torque law between two Position+Orientation markers):
///   static void Evaluate(const Params& p, RigidConnectorState& s, bool active);
///                          s.k0, s.k1 given; fills the joint-frame quantities and, when
///                          active, forceLocal/torqueLocal
///   static void LocalRHS(const RigidConnectorState& s, Real* fLoc);   applies them (active only)
///   optional: EvaluateUser as for a PositionConnector, on a RigidConnectorState
///                          (springTorqueUserFunction; its program in the record's extra[3])
/// CoordinateConnector (force law between two coordinates):
///   static Real Force(const Params& p, Real dq, Real dv);   dq = q1 - q0, dv = v1 - v0
///   static void ForceDerivatives(const Params& p, Real& dFdq, Real& dFdv);
///                          (the force list applies the one item of this category directly)
/// Every non-body object: static constexpr OutputVariableType outputs[] (what a SensorObject
/// may ask for).
/// Ground and Body (points attached to the body, at local position lp):
///   static constexpr bool hasOrientation;   a MarkerBodyRigid may sit on it
///   static constexpr OutputVariableType bodyOutputs[];   what a SensorBody may ask for
///   static void PointKinematics(const BodyAccess& b, params, const Vec3& lp, Kinematics& K);
///   static Vec3 ReferencePosition(const BodyAccess& b, params, const Vec3& lp);   at q = 0
/// Body (a node-based body with a mass matrix):
///   static constexpr bool coordinateDependentMass;   M may depend on q (then velocity terms)
///   static constexpr int massLoadCoordinates;   coordinates a mass-proportional load enters
///   static bool ConstantMass(params);   M constant for these parameters
///   template <class Sink> static void AddConstantMass(params, const int* ltg, int n, Sink& M);
///                          the constant (diagonal) M: at most one entry per coordinate
///   with coordinateDependentMass: static void LocalMass(const BodyAccess&, params, Real* Mloc);
///                                 static void QuadraticVelocity(const BodyAccess&, params, Real* fLoc);
///   with mass (a MarkerBodyMass may sit on it): static Real MassAndCenter(params, Vec3& com);
/// docs/adding-an-item.md walks through a new connector.
#pragma once

#include <array>
#include <type_traits>

#include "common/constraint_rows.h"
#include "common/item_types.h"
#include "common/kinematics.h"

namespace mbsweep {

/// How the core treats an object.
enum class ObjectCategory : int {
  Ground,               ///< fixed body without coordinates
  Body,                 ///< node-based body with a mass matrix
  Generic,              ///< ObjectGenericODE2 / ObjectGenericODE1 (matrices)
  PositionConnector,    ///< force law between two position markers (Evaluate)
  RigidConnector,       ///< force/torque law between two Position+Orientation markers
  CoordinateConnector,  ///< force law between two coordinates
  Constraint,           ///< algebraic equations (Lagrange multipliers)
};

/// State of a position connector: the kinematics of its markers (given), its force law's
/// results (Evaluate fills them; the force is zero when the connector is inactive).
struct PositionConnectorState {
  Kinematics k0, k1;
  Vec3 force;         ///< force vector acting on marker 0 (marker 1 gets -force)
  Real scalarForce;   ///< scalar force along the connector (OutputVariableType::ForceLocal)
  Vec3 displacement;  ///< OutputVariableType::Displacement
  Vec3 velocity;      ///< OutputVariableType::Velocity
  Real distance;      ///< OutputVariableType::Distance
};

/// State of a rigid connector: the kinematics of its markers (given) and its law's joint-frame
/// quantities (joint frame J0 = A0 rotationMarker0 for the rigid-body and torsional
/// spring-dampers, the frame of marker 0 for the linear spring-damper).
struct RigidConnectorState {
  Kinematics k0, k1;
  Mat3 A0all;        ///< J0 orientation (global)
  Vec3 dispLocal;    ///< J0 components of p1 - p0
  Vec3 velLocal;     ///< J0 components of v1 - v0
  Vec3 rotLocal;     ///< Tait-Bryan xyz angles of the relative rotation J0 -> J1 (each > pi shifted by -2 pi)
  Vec3 angVelLocal;  ///< J0 components of omega1 - omega0
  Vec3 forceLocal;   ///< force in J0 (rigid-body spring-damper), or [f, 0, 0] (linear: scalar force)
  Vec3 torqueLocal;  ///< torque in J0 (rigid-body spring-damper), or [0, 0, torque] (torsional)
  Real scalar;       ///< torsional: angle; linear: displacement along the axis
  Real scalar_t;     ///< torsional: angular velocity about z; linear: velocity along the axis
  Vec3 axis;         ///< linear: global axis A0 axisMarker0
  /// The joint-frame kinematics from J0 = A0all and J1 = A1all (the rigid-body and torsional
  /// spring-dampers): relative rotation angles, angular velocity, displacement and velocity.
  MBS_HD_INLINE void JointFrameKinematics(const Mat3& A1all) {
    rotLocal = RelativeRotationXYZ(A0all, A1all);
    angVelLocal = MultT(A0all, k1.omega - k0.omega);
    dispLocal = MultT(A0all, k1.pos - k0.pos);
    velLocal = MultT(A0all, k1.vel - k0.vel);
  }
};

/// The typed parameters of an item whose Real fields are a fixed-size Params struct, read in
/// place from the item's theta slots (item T derives from T::Params; theta holds its Real
/// fields in Fields() order, which tests/items/test_item_params.cpp checks for every item).
template <class T> MBS_HD_INLINE const typename T::Params& ParamsAt(const Real* itemTheta) {
  static_assert(std::is_standard_layout_v<typename T::Params> && std::is_trivially_copyable_v<typename T::Params>,
                "an item's Params is a plain struct of Real fields");
  static_assert(sizeof(typename T::Params) % sizeof(Real) == 0, "an item's Params holds Real fields only");
  return *reinterpret_cast<const typename T::Params*>(itemTheta);
}

/// True for the categories whose items are bodies (markers, body sensors and loads sit on them).
constexpr bool IsBodyCategory(ObjectCategory c) { return c == ObjectCategory::Ground || c == ObjectCategory::Body; }

/// The Real fields of the 3D joints with joint frames (ObjectJointRevoluteZ,
/// ObjectJointPrismaticX, ObjectJointGeneric), their theta slots: J_k = A_k rotationMarker_k.
struct JointFrameParams {
  Matrix3D rotationMarker0, rotationMarker1;
};
/// What a SensorObject may ask of a 3D joint with joint frames (ObjectJointRevoluteZ,
/// ObjectJointPrismaticX, ObjectJointGeneric).
inline constexpr OutputVariableType kJointFrameOutputs[] = {
    OutputVariableType::Position,      OutputVariableType::Velocity,          OutputVariableType::DisplacementLocal,
    OutputVariableType::VelocityLocal, OutputVariableType::Rotation,          OutputVariableType::AngularVelocityLocal,
    OutputVariableType::ForceLocal,    OutputVariableType::TorqueLocal,       OutputVariableType::Force,
    OutputVariableType::Torque,        OutputVariableType::ConstraintEquation};
/// What a SensorBody may ask of a body with a rotation coordinate (ObjectRotationalMass1D,
/// ObjectRigidBody2D, ObjectRigidBody).
inline constexpr OutputVariableType kRotatingBodyOutputs[] = {
    OutputVariableType::Position,           OutputVariableType::Displacement,
    OutputVariableType::Velocity,           OutputVariableType::Acceleration,
    OutputVariableType::RotationMatrix,     OutputVariableType::Rotation,
    OutputVariableType::AngularVelocity,    OutputVariableType::AngularVelocityLocal,
    OutputVariableType::AngularAcceleration};

/// What a body's hooks read besides its parameters: the layout, theta, the coordinates (null
/// for ReferencePosition) and its object record (extra[0]: its node).
struct BodyAccess {
  const LayoutView& L;
  const Real* theta;
  const Real* q;
  const Real* v;
  const ObjectRecord& o;
  MBS_HD_INLINE int Node() const { return o.extra[0]; }
  /// The node's reference coordinates (its theta slots).
  MBS_HD_INLINE const Real* NodeReference() const { return theta + L.node[o.extra[0]].theta; }
};

/// Converts a fixed-size vector field to the physics vector type.
MBS_HD_INLINE Vec3 ToVec3(const std::array<Real, 3>& a) { return MakeVec3(a[0], a[1], a[2]); }
/// Converts a 3x3 matrix field (row-major) to the physics matrix type.
MBS_HD_INLINE Mat3 ToMat3(const Matrix3D& m) { return LoadMat3(m.data.data()); }

}  // namespace mbsweep
