/// @file kinematics.h
/// Host/device kinematics of nodes, bodies and markers: position, velocity, orientation,
/// angular velocity and the velocity Jacobians with respect to the coordinates of the
/// underlying node (used to apply forces as Jᵀ f).
#pragma once

#if !defined(__CUDA_ARCH__)
#include <vector>
#endif

#include "common/kinds.h"
#include "common/layout_records.h"
#include "common/rigid3d.h"

namespace mbsweep {

/// Kinematic state of a point (and frame) attached to a node.
struct Kinematics {
  Vec3 pos;                      ///< global position
  Vec3 vel;                      ///< global velocity
  Mat3 A;                        ///< rotation matrix (local to global)
  Vec3 omega;                    ///< global angular velocity, A omegaLocal (as Exudyn's markers provide it)
  Vec3 omegaLocal;               ///< body-frame angular velocity (3D rigid nodes: GL rot_t)
  int n;                         ///< number of node coordinates the Jacobians refer to
  int firstODE2;                 ///< global index of the first node coordinate (-1: none)
  Real Jpos[3][kMaxNodeCoords];  ///< d vel / d q_t
  Real Jrot[3][kMaxNodeCoords];  ///< d omega / d q_t
};

/// Zeroes the Jacobian columns of the K.n node coordinates (set K.n first); columns from K.n
/// on are never read. Nodes with up to 3 coordinates (the common planar and point nodes)
/// clear 3 columns instead of all; fixed loop bounds keep this a few plain stores.
MBS_HD_INLINE void ClearJacobians(Kinematics& K) {
  if (K.n == 0) return;
  if (K.n <= 3) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) K.Jpos[i][j] = K.Jrot[i][j] = 0;
    return;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < kMaxNodeCoords; ++j) K.Jpos[i][j] = K.Jrot[i][j] = 0;
}

MBS_HD_INLINE Mat3 LoadMat3(const Real* p) {
  return Mat3{{{p[0], p[1], p[2]}, {p[3], p[4], p[5]}, {p[6], p[7], p[8]}}};
}
MBS_HD_INLINE Vec3 LoadVec3(const Real* p) { return Vec3{{p[0], p[1], p[2]}}; }

/// Number of rotation parameters of a 3D rigid-body node kind (4: Euler parameters, 3: Tait-Bryan
/// xyz angles), 0 for other nodes.
MBS_HD_INLINE int RigidNodeRotationCount(NodeKind k) {
  return k == NodeKind::RigidBodyEP ? kRotParEP : k == NodeKind::RigidBodyRxyz ? kRotParRxyz : 0;
}

/// Total rotation parameters (reference + current) of a 3D rigid-body node into rot[0..nRot) and
/// their velocities into rot_t (may be null); returns nRot (0 for other nodes).
MBS_HD_INLINE int RigidNodeRotation(const LayoutView& L, const Real* theta, const Real* q, const Real* v, int node,
                                    Real* rot, Real* rot_t) {
  const int nRot = RigidNodeRotationCount(static_cast<NodeKind>(L.node[node].kind));
  const NodeRecord r = GetNodeRecord(L, node);
  const Real* ref = theta + L.node[node].theta;
  for (int j = 0; j < nRot; ++j) {
    rot[j] = ref[3 + j] + q[r.ode2Begin + 3 + j];
    if (rot_t) rot_t[j] = v[r.ode2Begin + 3 + j];
  }
  return nRot;
}

/// Orientation part of a 3D rigid-body node's kinematics: A, omegaLocal = GL rot_t,
/// omega = A omegaLocal (equal to G rot_t for unit Euler parameters) and Jrot = [0, G]. Out of
/// line, so that NodeKinematics stays small for the planar and point nodes.
MBS_HD_NOINLINE void RigidNodeRotationKinematics(const LayoutView& L, const Real* theta, const Real* q, const Real* v,
                                                 int node, Kinematics& K) {
  Real rot[kRigidMaxRotPar], rot_t[kRigidMaxRotPar];
  const int nRot = RigidNodeRotation(L, theta, q, v, node, rot, rot_t);
  K.A = RotationMatrixRigid(nRot, rot);
  const Mat3x4 G = GRigid(nRot, rot);
  K.omegaLocal = AngularVelocityLocalRigid(nRot, rot, rot_t);
  K.omega = K.A * K.omegaLocal;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < nRot; ++j) K.Jrot[i][3 + j] = G.m[i][j];
}

/// Kinematics of the node's reference point.
MBS_HD_INLINE void NodeKinematics(const LayoutView& L, const Real* theta, const Real* q, const Real* v, int node,
                                  Kinematics& K) {
  const NodeRecord r = GetNodeRecord(L, node);
  const Real* ref = theta + L.node[node].theta;
  K.n = r.nODE2;
  K.firstODE2 = r.ode2Begin;
  ClearJacobians(K);
  const Real* qn = q + (r.ode2Begin >= 0 ? r.ode2Begin : 0);
  const Real* vn = v + (r.ode2Begin >= 0 ? r.ode2Begin : 0);
  const NodeKind kind = static_cast<NodeKind>(L.node[node].kind);
  if (kind != NodeKind::RigidBody2D && kind != NodeKind::RigidBodyEP && kind != NodeKind::RigidBodyRxyz) {
    // nodes without orientation (rotating nodes set all of these themselves)
    K.A = Identity3();
    K.omega = K.omegaLocal = K.vel = MakeVec3(0, 0, 0);
  }
  switch (kind) {
    case NodeKind::Point:
      K.pos = MakeVec3(ref[0] + qn[0], ref[1] + qn[1], ref[2] + qn[2]);
      K.vel = MakeVec3(vn[0], vn[1], vn[2]);
      K.Jpos[0][0] = K.Jpos[1][1] = K.Jpos[2][2] = 1;
      break;
    case NodeKind::Point2D:
      K.pos = MakeVec3(ref[0] + qn[0], ref[1] + qn[1], 0);
      K.vel = MakeVec3(vn[0], vn[1], 0);
      K.Jpos[0][0] = K.Jpos[1][1] = 1;
      break;
    case NodeKind::RigidBody2D:
      K.pos = MakeVec3(ref[0] + qn[0], ref[1] + qn[1], 0);
      K.vel = MakeVec3(vn[0], vn[1], 0);
      K.A = RotZ(ref[2] + qn[2]);
      K.omega = K.omegaLocal = MakeVec3(0, 0, vn[2]);
      K.Jpos[0][0] = K.Jpos[1][1] = 1;
      K.Jrot[2][2] = 1;
      break;
    case NodeKind::PointGround:
      K.pos = MakeVec3(ref[0], ref[1], ref[2]);
      K.n = 0;
      break;
    case NodeKind::RigidBodyEP:
    case NodeKind::RigidBodyRxyz:
      // position + rotation parameters; Jpos = [I, 0]
      K.pos = MakeVec3(ref[0] + qn[0], ref[1] + qn[1], ref[2] + qn[2]);
      K.vel = MakeVec3(vn[0], vn[1], vn[2]);
      K.Jpos[0][0] = K.Jpos[1][1] = K.Jpos[2][2] = 1;
      if constexpr (ModelHasKind(NodeKind::RigidBodyEP) || ModelHasKind(NodeKind::RigidBodyRxyz))
        RigidNodeRotationKinematics(L, theta, q, v, node, K);
      break;
    default:  // nodes without position (Node1D, generic nodes)
      K.pos = MakeVec3(0, 0, 0);
      break;
  }
}

/// Time derivative A (omegaLocal x u) of the global vector A u of a vector u fixed in the marker's
/// (body's) frame (Exudyn's A_t u).
MBS_HD_INLINE Vec3 BodyVectorRate(const Kinematics& k, const Vec3& u) { return k.A * Cross(k.omegaLocal, u); }

/// Adds Jᵀ f of a marker's kinematics into fLoc (at local offset `off`): a force f at the
/// marker's point.
MBS_HD_INLINE void AddPositionForce(const Kinematics& k, const Vec3& f, Real* fLoc, int off) {
  for (int j = 0; j < k.n; ++j) fLoc[off + j] += k.Jpos[0][j] * f[0] + k.Jpos[1][j] * f[1] + k.Jpos[2][j] * f[2];
}
/// Adds Jrotᵀ m: a torque m on the marker's frame.
MBS_HD_INLINE void AddTorque(const Kinematics& k, const Vec3& m, Real* fLoc, int off) {
  for (int j = 0; j < k.n; ++j) fLoc[off + j] += k.Jrot[0][j] * m[0] + k.Jrot[1][j] * m[1] + k.Jrot[2][j] * m[2];
}

MBS_SCALAR_LOOPS_BEGIN  // the planar joints' residual (hostdevice.h)
    /// Planar part of a marker's kinematics: global x and y of position and velocity and the x and
    /// y rows of the position Jacobian over the node's n coordinates (what a revolute 2D joint's
    /// equations and reactions use). Over the node's x and y coordinates that Jacobian is the unit
    /// matrix; only a rotation coordinate's column (n = 3) varies.
    struct PlanarPoint {
  Real pos[2], vel[2];
  Real Jphi[2];  ///< d vel / d phi_t, rows x and y (0 without a rotation coordinate)
  int n;         ///< number of node coordinates (0: ground)
};

/// cos and sin of the planar rotation angles met during one evaluation of the constraints:
/// the markers of a planar model's joints turn with a few bodies, each met by several joints
/// (the slider-crank's residual met 4 angles in 7 marker evaluations). Looked up by the angle's
/// value, so a hit returns what the computation would; on the device it only computes.
struct AngleCache {
  static constexpr int kSize = 8;
  int n = 0;
  Real phi[kSize], c[kSize], s[kSize];
  MBS_HD_INLINE void CosSin(Real angle, Real& cosine, Real& sine) {
#if !defined(__CUDA_ARCH__)
    for (int i = 0; i < n; ++i)
      if (phi[i] == angle) {
        cosine = c[i];
        sine = s[i];
        return;
      }
#endif
    mbsweep::CosSin(angle, cosine, sine);
#if !defined(__CUDA_ARCH__)
    if (n < kSize) {
      phi[n] = angle;
      c[n] = cosine;
      s[n] = sine;
      ++n;
    }
#endif
  }
};

/// PlanarPoint of a marker on the ground, on a planar body (ObjectRigidBody2D, ObjectMassPoint2D)
/// or on a planar node, with the operations of MarkerKinematics (same values) but without
/// orientation, angular velocity and rotation Jacobian, which are most of MarkerKinematics'
/// work; returns false for other markers (use MarkerKinematics). The marker's kind of planar
/// point comes from the layout's planar marker table (BuildPlanarMarkerTable).
MBS_HD_FORCEINLINE bool PlanarMarkerKinematics(const LayoutView& L, const Real* theta, const Real* q, const Real* v,
                                               int marker, PlanarPoint& P, AngleCache& angles) {
  const int* e = L.ints + L.planarMarkers + kPlanarMarkerInts * marker;
  const PlanarMarker kind = static_cast<PlanarMarker>(e[0]);
  switch (kind) {
    case PlanarMarker::none: return false;
    case PlanarMarker::groundBody: {
      const Real* p = theta + e[3];
      const Vec3 pos = LoadVec3(p) + LoadMat3(p + 3) * LoadVec3(theta + e[4]);
      P = PlanarPoint{{pos[0], pos[1]}, {0, 0}, {0, 0}, 0};
      return true;
    }
    case PlanarMarker::groundNode: {
      const Real* ref = theta + e[3];
      P = PlanarPoint{{ref[0], ref[1]}, {0, 0}, {0, 0}, 0};
      return true;
    }
    default: break;
  }
  const Real* ref = theta + e[3];
  const Real* qn = q + e[1];
  const Real* vn = v + e[1];
  P = PlanarPoint{{ref[0] + qn[0], ref[1] + qn[1]}, {vn[0], vn[1]}, {0, 0}, e[2]};
  if (kind == PlanarMarker::massPoint) {  // the local position is a fixed offset
    const Real* lp = theta + e[4];
    P.pos[0] += lp[0];
    P.pos[1] += lp[1];
  } else if (kind == PlanarMarker::rigidBody) {  // as BodyKinematics of ObjectRigidBody2D: rg = RotZ(phi) lp
    const Real* lp = theta + e[4];
    Real c, s;
    angles.CosSin(ref[2] + qn[2], c, s);
    const Real rg0 = c * lp[0] + -s * lp[1], rg1 = s * lp[0] + c * lp[1];
    const Real w = vn[2];
    P.pos[0] += rg0;
    P.pos[1] += rg1;
    P.vel[0] -= w * rg1;
    P.vel[1] += w * rg0;
    P.Jphi[0] = -rg1;
    P.Jphi[1] = rg0;
  }
  return true;
}

/// What a prismatic 2D joint needs of a marker on a planar rigid body or node, as
/// MarkerKinematics gives it: the global position, the x and y rows of the position Jacobian
/// over the node's coordinates x, y, phi (the unit matrix over x and y, as PlanarPoint's), and
/// the orientation A = RotZ(phi).
struct PlanarFrame {
  Real pos[3];
  Real Jphi[2];  ///< d pos / d phi, rows x and y (0 for a marker on the node itself)
  Mat3 A;        ///< the node's rotation coordinate (local index 2) turns it
};

/// PlanarFrame of a marker on an ObjectRigidBody2D or a NodeRigidBody2D (the markers with
/// orientation of planar models), with the values of MarkerKinematics; returns false for other
/// markers, e.g. on a ground body, whose orientation may be any rotation (use MarkerKinematics).
MBS_HD_FORCEINLINE bool PlanarMarkerFrame(const LayoutView& L, const Real* theta, const Real* q, int marker,
                                          PlanarFrame& F, AngleCache& angles) {
  const int* e = L.ints + L.planarMarkers + kPlanarMarkerInts * marker;
  const PlanarMarker kind = static_cast<PlanarMarker>(e[0]);
  if (kind != PlanarMarker::rigidBody && (kind != PlanarMarker::node || e[2] != 3)) return false;
  const Real* ref = theta + e[3];
  const Real* qn = q + e[1];
  Real c, s;
  angles.CosSin(ref[2] + qn[2], c, s);  // RotZ
  F = PlanarFrame{{ref[0] + qn[0], ref[1] + qn[1], 0}, {0, 0}, Mat3{{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}}};
  if (kind == PlanarMarker::node) return true;
  const Real* lp = theta + e[4];  // as BodyKinematics of ObjectRigidBody2D
  const Real rg0 = F.A(0, 0) * lp[0] + F.A(0, 1) * lp[1], rg1 = F.A(1, 0) * lp[0] + F.A(1, 1) * lp[1];
  F.pos[0] += rg0;
  F.pos[1] += rg1;
  F.pos[2] += lp[2];
  F.Jphi[0] = -rg1;
  F.Jphi[1] = rg0;
  return true;
}
MBS_SCALAR_LOOPS_END

#if !defined(__CUDA_ARCH__)
/// The planar marker table of a layout (layout_records.h): for each marker, which planar
/// point PlanarMarkerKinematics computes, and the object or node and coordinates it reads.
/// Host only; called when a model is compiled.
inline std::vector<int> BuildPlanarMarkerTable(const LayoutView& L) {
  std::vector<int> table;
  for (int m = 0; m < L.nMarkers; ++m) {
    const MarkerRecord r = GetMarkerRecord(L, m);
    const MarkerKind mk = static_cast<MarkerKind>(L.marker[m].kind);
    PlanarMarker kind = PlanarMarker::none;
    int item = -1;  // the ground object, or the node
    if (mk == MarkerKind::BodyPosition || mk == MarkerKind::BodyRigid) {
      const ObjectKind ok = static_cast<ObjectKind>(L.object[r.target].kind);
      const int node = ok == ObjectKind::Ground ? -1 : GetObjectRecord(L, r.target).extra[0];
      const NodeKind nk = node >= 0 ? static_cast<NodeKind>(L.node[node].kind) : NodeKind::PointGround;
      if (ok == ObjectKind::Ground) {
        kind = PlanarMarker::groundBody;
        item = r.target;
      } else if (ok == ObjectKind::RigidBody2D && nk == NodeKind::RigidBody2D) {
        kind = PlanarMarker::rigidBody;
        item = node;
      } else if (ok == ObjectKind::MassPoint2D && nk == NodeKind::Point2D) {
        kind = PlanarMarker::massPoint;
        item = node;
      }
    } else if (mk == MarkerKind::NodePosition || mk == MarkerKind::NodeRigid) {
      const NodeKind nk = static_cast<NodeKind>(L.node[r.target].kind);
      item = r.target;
      kind = nk == NodeKind::PointGround                              ? PlanarMarker::groundNode
             : nk == NodeKind::RigidBody2D || nk == NodeKind::Point2D ? PlanarMarker::node
                                                                      : PlanarMarker::none;
    }
    const bool onNode =
        kind == PlanarMarker::node || kind == PlanarMarker::massPoint || kind == PlanarMarker::rigidBody;
    const NodeRecord nr = onNode ? GetNodeRecord(L, item) : NodeRecord{0, 0, 0, 0, 0, 0};
    const int itemTheta = kind == PlanarMarker::none         ? 0
                          : kind == PlanarMarker::groundBody ? L.object[item].theta
                                                             : L.node[item].theta;
    table.insert(table.end(), {static_cast<int>(kind), nr.ode2Begin, nr.nODE2, itemTheta,
                               kind == PlanarMarker::none ? 0 : L.marker[m].theta});
  }
  return table;
}
#endif

/// Value and velocity of a coordinate marker (0 for ground coordinates).
MBS_HD_INLINE void MarkerCoordinate(const LayoutView& L, const Real* q, const Real* v, const Real* y, int marker,
                                    Real& value, Real& velocity) {
  const MarkerRecord r = GetMarkerRecord(L, marker);
  value = velocity = 0;
  if (r.nCoords == 0) return;
  const NodeRecord n = GetNodeRecord(L, r.node);
  if (n.nODE2 > 0) {
    value = q[n.ode2Begin + r.coordinate];
    velocity = v[n.ode2Begin + r.coordinate];
  } else if (n.nODE1 > 0) {
    value = y[n.ode1Begin + r.coordinate];
  }
}

}  // namespace mbsweep
