/// @file ObjectRigidBody2D.h
/// The item ObjectRigidBody2D: its fields (Exudyn's names, defaults and rules), its typed
/// parameters, the kinematics of its points and its mass.
#pragma once

#include "common/item_physics.h"
#include "common/item_types.h"

namespace mbsweep {

/// The Real fields of ObjectRigidBody2D, in Fields() order (its theta slots).
struct ObjectRigidBody2DParams {
  Real mass = 0;
  Real inertia = 0;
  Vector2D centerOfMass{};
};

/// Planar rigid body on a NodeRigidBody2D; inertia is about the reference point,
/// centerOfMass is the local position of the centre of mass.
struct ObjectRigidBody2D : ObjectRigidBody2DParams {
  using Params = ObjectRigidBody2DParams;
  static constexpr const char* typeName = "ObjectRigidBody2D";
  static constexpr const char* shortName = "RigidBody2D";  ///< Exudyn's short name
  /// field names of Exudyn before 1.12.258, read as the current ones
  static constexpr FieldAlias fieldAliases[] = {{"physicsMass", "mass"}, {"physicsInertia", "inertia"}, {"physicsCenterOfMass", "centerOfMass"}};
  static constexpr ObjectCategory category = ObjectCategory::Body;
  /// M depends on the angle when the centre of mass is off the node (ConstantMass)
  static constexpr bool coordinateDependentMass = true;
  static constexpr int massLoadCoordinates = 2;  ///< a mass-proportional load at the node enters x, y
  static constexpr bool hasOrientation = true;   ///< a MarkerBodyRigid may sit on it
  /// what a SensorBody may ask for
  static constexpr const auto& bodyOutputs = kRotatingBodyOutputs;
  std::string name;
  NodeIndex nodeNumber;
  /// The node's frame moved to lp. The planar rotation is written out (K.A = RotZ, K.omega =
  /// [0, 0, w]): the products with the zero entries of the general forms A lp and omega x rg
  /// are left out, same values.
  MBS_HD_FORCEINLINE static void PointKinematics(const BodyAccess& b, const Params&, const Vec3& lp, Kinematics& K) {
    NodeKinematics(b.L, b.theta, b.q, b.v, b.Node(), K);
    const Vec3 rg = MakeVec3(K.A(0, 0) * lp[0] + K.A(0, 1) * lp[1], K.A(1, 0) * lp[0] + K.A(1, 1) * lp[1], lp[2]);
    const Real w = K.omega[2];
    K.pos = K.pos + rg;
    K.vel = MakeVec3(K.vel[0] - w * rg[1], K.vel[1] + w * rg[0], 0);
    K.Jpos[0][2] = -rg[1];
    K.Jpos[1][2] = rg[0];
  }
  MBS_HD_FORCEINLINE static Vec3 ReferencePosition(const BodyAccess& b, const Params&, const Vec3& lp) {
    const Real* r = b.NodeReference();
    return MakeVec3(r[0], r[1], 0) + RotZ(r[2]) * lp;
  }
  MBS_HD_FORCEINLINE static Real MassAndCenter(const Params& p, Vec3& com) {
    com = MakeVec3(p.centerOfMass[0], p.centerOfMass[1], 0);
    return p.mass;
  }
  /// The mass matrix is the constant diag(m, m, J) with the centre of mass at the node.
  MBS_HD_INLINE static bool ConstantMass(const Params& p) {
    return p.centerOfMass[0] == 0 && p.centerOfMass[1] == 0;
  }
  template <class Sink> MBS_HD_INLINE static void AddConstantMass(const Params& p, const int* ltg, int, Sink& M) {
    M.add(ltg[0], ltg[0], p.mass);
    M.add(ltg[1], ltg[1], p.mass);
    M.add(ltg[2], ltg[2], p.inertia);
  }
  /// [[m, 0, -m c_y], [0, m, m c_x], [-m c_y, m c_x, J]] with c = RotZ(phi) centerOfMass.
  MBS_HD_INLINE static void LocalMass(const BodyAccess& b, const Params& p, Real* Mloc) {
    const Real m = p.mass;
    Mloc[0] = Mloc[4] = m;
    Mloc[8] = p.inertia;
    const Real phi = b.NodeReference()[2] + b.q[b.o.ltgODE2[2]];
    const Vec3 c = RotZ(phi) * MakeVec3(p.centerOfMass[0], p.centerOfMass[1], 0);
    Mloc[2] = Mloc[6] = -m * c[1];
    Mloc[5] = Mloc[7] = m * c[0];
  }
  /// The centripetal force m w^2 c of the centre of mass on the node's x and y.
  MBS_HD_INLINE static void QuadraticVelocity(const BodyAccess& b, const Params& p, Real* fLoc) {
    const Real phi = b.NodeReference()[2] + b.q[b.o.ltgODE2[2]];
    const Real w = b.v[b.o.ltgODE2[2]];
    const Vec3 c = RotZ(phi) * MakeVec3(p.centerOfMass[0], p.centerOfMass[1], 0);
    fLoc[0] = p.mass * w * w * c[0];
    fLoc[1] = p.mass * w * w * c[1];
  }
  template <class V> void Fields(V& v) {
    v("mass", mass, Rule::UReal);
    v("inertia", inertia, Rule::UReal);
    v("centerOfMass", centerOfMass, Rule::Real);
    v("nodeNumber", nodeNumber);
  }
};

}  // namespace mbsweep
