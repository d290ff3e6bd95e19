/// @file ObjectRigidBody.h
/// The item ObjectRigidBody: its fields (Exudyn's names, defaults and rules), its typed
/// parameters, the kinematics of its points and its mass.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectRigidBody, in Fields() order (its theta slots).
struct ObjectRigidBodyParams {
  Real mass = 0;
  Vector6D inertia{};
  Vector3D centerOfMass{};
};

/// 3D rigid body on a NodeRigidBodyEP or NodeRigidBodyRxyz. inertia is the inertia
/// tensor about the reference point (the node) in body coordinates, given as
/// [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]; centerOfMass is the local position of the centre of
/// mass. The mass matrix depends on the rotation parameters.
struct ObjectRigidBody : ObjectRigidBodyParams {
  using Params = ObjectRigidBodyParams;
  static constexpr const char* typeName = "ObjectRigidBody";
  static constexpr const char* shortName = "RigidBody";  ///< Exudyn's short name
  /// field names of Exudyn before 1.12.258, read as the current ones
  static constexpr FieldAlias fieldAliases[] = {{"physicsMass", "mass"}, {"physicsInertia", "inertia"}, {"physicsCenterOfMass", "centerOfMass"}};
  static constexpr ObjectCategory category = ObjectCategory::Body;
  static constexpr bool coordinateDependentMass = true;  ///< M depends on the rotation parameters
  static constexpr int massLoadCoordinates = 3;          ///< a mass-proportional load at the node enters x, y, z
  static constexpr bool hasOrientation = true;           ///< a MarkerBodyRigid may sit on it
  /// what a SensorBody may ask for
  static constexpr const auto& bodyOutputs = kRotatingBodyOutputs;
  std::string name;
  NodeIndex nodeNumber;
  /// The node's kinematics moved to the body point: pos = p + A lp, vel = p_t + A (omegaLocal x
  /// lp), Jpos = [I, -A lp~ GL] (Exudyn's body access), Jrot = [0, G] as at the node.
  MBS_HD_FORCEINLINE static void PointKinematics(const BodyAccess& b, const Params&, const Vec3& lp, Kinematics& K) {
    NodeKinematics(b.L, b.theta, b.q, b.v, b.Node(), K);
    Real rot[kRigidMaxRotPar];
    const int nRot = RigidNodeRotation(b.L, b.theta, b.q, b.v, b.Node(), rot, nullptr);
    K.pos = K.pos + K.A * lp;
    K.vel = K.vel + K.A * Cross(K.omegaLocal, lp);
    const Mat3x4 D = dAv_dtheta(nRot, rot, lp);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < nRot; ++j) K.Jpos[i][3 + j] = D.m[i][j];
  }
  MBS_HD_FORCEINLINE static Vec3 ReferencePosition(const BodyAccess& b, const Params&, const Vec3& lp) {
    const Real* r = b.NodeReference();
    const int nRot = RigidNodeRotationCount(static_cast<NodeKind>(b.L.node[b.Node()].kind));
    return MakeVec3(r[0], r[1], r[2]) + RotationMatrixRigid(nRot, r + 3) * lp;
  }
  MBS_HD_FORCEINLINE static Real MassAndCenter(const Params& p, Vec3& com) {
    com = ToVec3(p.centerOfMass);
    return p.mass;
  }
  MBS_HD_INLINE static bool ConstantMass(const Params&) { return false; }
  template <class Sink> MBS_HD_INLINE static void AddConstantMass(const Params&, const int*, int, Sink&) {}
  /// [[m I, -m A c~ GL], [.^T, GL^T J GL]] (rigid3d.h RigidBodyMassMatrix).
  MBS_HD_INLINE static void LocalMass(const BodyAccess& b, const Params& p, Real* Mloc) {
    Real rot[kRigidMaxRotPar];
    const int nRot = RigidNodeRotation(b.L, b.theta, b.q, b.q, b.Node(), rot, nullptr);
    RigidBodyMassMatrix(nRot, rot, p.mass, p.inertia.data(), ToVec3(p.centerOfMass), Mloc);
  }
  /// rigid3d.h RigidBodyQuadraticVelocity.
  MBS_HD_INLINE static void QuadraticVelocity(const BodyAccess& b, const Params& p, Real* fLoc) {
    Real rot[kRigidMaxRotPar], rot_t[kRigidMaxRotPar];
    const int nRot = RigidNodeRotation(b.L, b.theta, b.q, b.v, b.Node(), rot, rot_t);
    RigidBodyQuadraticVelocity(nRot, rot, rot_t, p.mass, p.inertia.data(), ToVec3(p.centerOfMass),
                               fLoc);
  }
  template <class V> void Fields(V& v) {
    v("mass", mass, Rule::UReal);
    v("inertia", inertia, Rule::Real);
    v("centerOfMass", centerOfMass, Rule::Real);
    v("nodeNumber", nodeNumber);
  }
};

}  // namespace mbsweep
