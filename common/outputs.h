/// @file outputs.h
/// Host/device evaluation of sensor outputs (OutputVariableType values) from a system state.
#pragma once

#include <type_traits>
#include <utility>

#include "common/constraints.h"

namespace mbsweep {

/// Read-only view of one system's state at time t.
struct StateView {
  Real t = 0;
  const Real* q = nullptr;       ///< ODE2 coordinates [nODE2]
  const Real* v = nullptr;       ///< ODE2 velocities [nODE2]
  const Real* a = nullptr;       ///< ODE2 accelerations [nODE2]
  const Real* y = nullptr;       ///< ODE1 coordinates [nODE1]
  const Real* yt = nullptr;      ///< ODE1 derivatives [nODE1]
  const Real* lambda = nullptr;  ///< algebraic variables [nAE]
};

/// Observer protocol of the integrators: OnStart(const StateView&), OnStep(const StateView&,
/// bool final) and optionally `bool Due(Real t, bool final)`, which tells whether OnStep at
/// time t will use the state (sensor write or objective sample due). Integrators skip work
/// that only an observer would see (explicit end-of-step accelerations) when it is not due.
namespace detail {
template <class O, class = void> struct HasDue : std::false_type {};
template <class O> struct HasDue<O, decltype(void(std::declval<O&>().Due(Real(0), false)))> : std::true_type {};
}  // namespace detail
template <class O> MBS_HD_INLINE bool ObserverDue(O& o, Real t, bool final) {
  if constexpr (detail::HasDue<O>::value) return o.Due(t, final);
  else return true;
}

/// Exudyn's write-period rule for sensors and objective samples: written at the start time,
/// then after a step when t >= next - 1e-10 or at the final step; next advances by the period
/// but never stays behind t. Period 0: every step.
struct WriteSchedule {
  Real period = 0;
  Real next = 0;
  MBS_HD_INLINE void Start(Real t0) { next = t0 + period; }
  MBS_HD_INLINE bool Due(Real t, bool final) const { return final || t >= next - Real(1e-10); }
  MBS_HD_INLINE void Advance(Real t) {
    const Real n = next + period;
    next = n > t ? n : t;
  }
};

/// Largest number of values of one sensor handled by fixed-size buffers; in code generated for
/// one model, the most values one of its sensors has (MBSWEEP_MODEL_SENSOR_VALUES), so that
/// the objectives' sensor buffer takes no more local memory than the model needs.
#ifdef MBSWEEP_MODEL_SENSOR_VALUES
constexpr int kMaxSensorValues = MBSWEEP_MODEL_SENSOR_VALUES;
#else
constexpr int kMaxSensorValues = 64;
#endif

namespace detail {
MBS_HD_INLINE int PutVec(const Vec3& v, Real* out, int cap) {
  for (int i = 0; i < 3 && i < cap; ++i) out[i] = v[i];
  return 3;
}
MBS_HD_INLINE int PutMat(const Mat3& A, Real* out, int cap) {
  for (int i = 0; i < 9 && i < cap; ++i) out[i] = A.m[i / 3][i % 3];
  return 9;
}
MBS_HD_INLINE int PutRange(const Real* x, int n, Real* out, int cap) {
  for (int i = 0; i < n && i < cap; ++i) out[i] = x[i];
  return n;
}

/// Global angular velocity of a node as its AngularVelocity output: G rot_t for 3D rigid nodes
/// (Exudyn's node value), the kinematics' omega otherwise.
MBS_HD_INLINE Vec3 NodeAngularVelocity(const LayoutView& L, const Real* theta, const StateView& s, int node,
                                       const Kinematics& k) {
  Real rot[kRigidMaxRotPar], rot_t[kRigidMaxRotPar];
  const int nRot = RigidNodeRotation(L, theta, s.q, s.v, node, rot, rot_t);
  return nRot ? AngularVelocityRigid(nRot, rot, rot_t) : k.omega;
}

/// Global angular acceleration of a 3D rigid-body node: G rot_tt + G_t rot_t.
MBS_HD_INLINE Vec3 RigidNodeAngularAcceleration(const LayoutView& L, const Real* theta, const StateView& s, int node) {
  Real rot[kRigidMaxRotPar], rot_t[kRigidMaxRotPar];
  const int nRot = RigidNodeRotation(L, theta, s.q, s.v, node, rot, rot_t);
  const NodeRecord r = GetNodeRecord(L, node);
  return Mult3xN(GRigid(nRot, rot), s.a + r.ode2Begin + 3, nRot) + GDotTimes(nRot, rot, rot_t);
}

/// Acceleration of a body-fixed point (rigid-body kinematics: a + alpha x r + omega x (omega x r)).
MBS_HD_INLINE void BodyAccelerations(const LayoutView& L, const Real* theta, const StateView& s, int obj,
                                     const Vec3& lp, Vec3& acc, Vec3& angAcc) {
  Kinematics k;
  BodyKinematics(L, theta, s.q, s.v, obj, lp, k);
  acc = MakeVec3(0, 0, 0);
  angAcc = MakeVec3(0, 0, 0);
  if (k.n == 0) return;
  if (static_cast<ObjectKind>(L.object[obj].kind) == ObjectKind::RigidBody) {
    // a = p_tt + alpha x r + omega x (omega x r), r = A lp, alpha = G rot_tt + G_t rot_t
    const int node = GetObjectRecord(L, obj).extra[0];
    angAcc = RigidNodeAngularAcceleration(L, theta, s, node);
    const Real* pa = s.a + GetNodeRecord(L, node).ode2Begin;
    const Vec3 r = k.A * lp;
    const Vec3 w = NodeAngularVelocity(L, theta, s, node, k);
    acc = MakeVec3(pa[0], pa[1], pa[2]) + Cross(angAcc, r) + Cross(w, Cross(w, r));
    return;
  }
  // linear part: J_pos * q_tt ; angular acceleration: J_rot * q_tt (J_rot is constant for
  // the planar and 1D kinds handled here)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < k.n; ++j) {
      acc[i] += k.Jpos[i][j] * s.a[k.firstODE2 + j];
      angAcc[i] += k.Jrot[i][j] * s.a[k.firstODE2 + j];
    }
  // centripetal term of a rotating body-fixed point: omega x (omega x r)
  Kinematics k0;
  BodyKinematics(L, theta, s.q, s.v, obj, MakeVec3(0, 0, 0), k0);
  const Vec3 r = k.pos - k0.pos;
  acc = acc + Cross(k.omega, Cross(k.omega, r));
}
}  // namespace detail

namespace detail {
/// A SensorNode's output.
MBS_HD_NOINLINE int NodeSensorOutput(const LayoutView& L, const Real* theta, const StateView& s, const SensorRecord& r,
                                     OutputVariableType ovt, Real* out, int cap) {
  using OVT = OutputVariableType;
  const NodeRecord nr = GetNodeRecord(L, r.target);
  const NodeKind nk = static_cast<NodeKind>(L.node[r.target].kind);
  const Real* ref = theta + L.node[r.target].theta;
  if (nr.nODE1 > 0) {
    if (ovt == OVT::Coordinates) return detail::PutRange(s.y + nr.ode1Begin, nr.nODE1, out, cap);
    if (ovt == OVT::Coordinates_t) return detail::PutRange(s.yt + nr.ode1Begin, nr.nODE1, out, cap);
    if (ovt == OVT::CoordinatesTotal) {
      for (int i = 0; i < nr.nODE1 && i < cap; ++i) out[i] = ref[i] + s.y[nr.ode1Begin + i];
      return nr.nODE1;
    }
    return 0;
  }
  if (ovt == OVT::Coordinates) return detail::PutRange(s.q + nr.ode2Begin, nr.nODE2, out, cap);
  if (ovt == OVT::Coordinates_t) return detail::PutRange(s.v + nr.ode2Begin, nr.nODE2, out, cap);
  if (ovt == OVT::Coordinates_tt) return detail::PutRange(s.a + nr.ode2Begin, nr.nODE2, out, cap);
  if (ovt == OVT::CoordinatesTotal) {
    for (int i = 0; i < nr.nODE2 && i < cap; ++i) out[i] = ref[i] + s.q[nr.ode2Begin + i];
    return nr.nODE2;
  }
  Kinematics k;
  NodeKinematics(L, theta, s.q, s.v, r.target, k);
  switch (ovt) {
    case OVT::Position: return detail::PutVec(k.pos, out, cap);
    case OVT::Velocity: return detail::PutVec(k.vel, out, cap);
    case OVT::Displacement:
    case OVT::Acceleration: {
      const Real* x = ovt == OVT::Displacement ? s.q : s.a;
      Vec3 d = MakeVec3(0, 0, 0);
      const int nTrans = nk == NodeKind::Point || RigidNodeRotationCount(nk) ? 3 : 2;
      for (int i = 0; i < nTrans && nr.nODE2 > 0; ++i) d[i] = x[nr.ode2Begin + i];
      return detail::PutVec(d, out, cap);
    }
    case OVT::RotationMatrix: return detail::PutMat(k.A, out, cap);
    case OVT::Rotation:
      // Rxyz: the rotation parameters (reference + current); EP: Tait-Bryan xyz angles of A
      if (nk == NodeKind::RigidBodyRxyz)
        return detail::PutVec(LoadVec3(ref + 3) + LoadVec3(s.q + nr.ode2Begin + 3), out, cap);
      if (nk == NodeKind::RigidBodyEP) return detail::PutVec(RotationMatrix2RotXYZ(k.A), out, cap);
      return detail::PutVec(MakeVec3(0, 0, ref[2] + s.q[nr.ode2Begin + 2]), out, cap);
    case OVT::AngularVelocity: return detail::PutVec(detail::NodeAngularVelocity(L, theta, s, r.target, k), out, cap);
    case OVT::AngularVelocityLocal: return detail::PutVec(k.omegaLocal, out, cap);
    case OVT::AngularAcceleration:
      if (RigidNodeRotationCount(nk))
        return detail::PutVec(detail::RigidNodeAngularAcceleration(L, theta, s, r.target), out, cap);
      return detail::PutVec(MakeVec3(0, 0, s.a[nr.ode2Begin + 2]), out, cap);
    default: return 0;
  }
}

/// A SensorBody's output.
MBS_HD_NOINLINE int BodySensorOutput(const LayoutView& L, const Real* theta, const StateView& s, int sensor,
                                     const SensorRecord& r, OutputVariableType ovt, Real* out, int cap) {
  using OVT = OutputVariableType;
  const Vec3 lp = LoadVec3(theta + L.sensor[sensor].theta);
  const ObjectKind ok = static_cast<ObjectKind>(L.object[r.target].kind);
  Kinematics k;
  BodyKinematics(L, theta, s.q, s.v, r.target, lp, k);
  switch (ovt) {
    case OVT::Position: return detail::PutVec(k.pos, out, cap);
    case OVT::Displacement: return detail::PutVec(k.pos - BodyReferencePosition(L, theta, r.target, lp), out, cap);
    case OVT::Velocity: return detail::PutVec(k.vel, out, cap);
    case OVT::RotationMatrix: return detail::PutMat(k.A, out, cap);
    case OVT::Rotation: {
      if (ok == ObjectKind::RigidBody) return detail::PutVec(RotationMatrix2RotXYZ(k.A), out, cap);
      const ObjectRecord o = GetObjectRecord(L, r.target);
      const Real angle = theta[L.node[o.extra[0]].theta + (ok == ObjectKind::RigidBody2D ? 2 : 0)] +
                         s.q[o.ltgODE2[ok == ObjectKind::RigidBody2D ? 2 : 0]];
      if (ok == ObjectKind::RotationalMass1D) {
        if (cap > 0) out[0] = angle;
        return 1;
      }
      return detail::PutVec(MakeVec3(0, 0, angle), out, cap);
    }
    case OVT::AngularVelocity:
      if (ok == ObjectKind::RigidBody)
        return detail::PutVec(detail::NodeAngularVelocity(L, theta, s, GetObjectRecord(L, r.target).extra[0], k), out,
                              cap);
      return detail::PutVec(k.omega, out, cap);
    case OVT::AngularVelocityLocal: return detail::PutVec(k.omegaLocal, out, cap);
    case OVT::Acceleration:
    case OVT::AngularAcceleration: {
      Vec3 acc, alpha;
      detail::BodyAccelerations(L, theta, s, r.target, lp, acc, alpha);
      return detail::PutVec(ovt == OVT::Acceleration ? acc : alpha, out, cap);
    }
    default: return 0;
  }
}

/// The output of a 3D joint (spherical, revolute z, prismatic x, generic).
MBS_HD_NOINLINE int JointSensorOutput(const LayoutView& L, const Real* theta, const StateView& s, const SensorRecord& r,
                                      const ObjectRecord& o, ObjectKind ok, OutputVariableType ovt, Real* out,
                                      int cap) {
  using OVT = OutputVariableType;
  Kinematics k0, k1;
  MarkerKinematics(L, theta, s.q, s.v, o.extra[0], k0);
  MarkerKinematics(L, theta, s.q, s.v, o.extra[1], k1);
  const Real* lam = s.lambda ? s.lambda + o.aeBegin : nullptr;
  auto lambdaAt = [&](int i) -> Real { return lam && i >= 0 ? lam[i] : 0; };
  // multipliers of the translation rows (force) and rotation rows (torque), padded with 0
  // for free directions; PrismaticX: [0, y, z] in J0 and the three rotation rows
  const bool prismatic = ok == ObjectKind::JointPrismaticX;
  const Vec3 force =
      prismatic ? MakeVec3(0, lambdaAt(0), lambdaAt(1)) : MakeVec3(lambdaAt(0), lambdaAt(1), lambdaAt(2));
  const Vec3 torque = prismatic                          ? MakeVec3(lambdaAt(2), lambdaAt(3), lambdaAt(4))
                      : ok == ObjectKind::JointRevoluteZ ? MakeVec3(lambdaAt(3), lambdaAt(4), 0)
                      : ok == ObjectKind::JointGeneric   ? MakeVec3(lambdaAt(3), lambdaAt(4), lambdaAt(5))
                                                         : MakeVec3(0, 0, 0);
  switch (ovt) {
    case OVT::Position: return detail::PutVec(k0.pos, out, cap);
    case OVT::Velocity: return detail::PutVec(k0.vel, out, cap);
    case OVT::Displacement: return detail::PutVec(k1.pos - k0.pos, out, cap);
    case OVT::Force: return detail::PutVec(force, out, cap);
    case OVT::Torque: return detail::PutVec(torque, out, cap);
    case OVT::ConstraintEquation: {
      ConstraintEval e;
      ConstraintLocal(L, theta, s.t, s.q, s.v, r.target, false, e);
      for (int i = 0; i < e.nAE && i < cap; ++i) out[i] = IsLambdaRow(e, i) ? lambdaAt(i) : e.C[i];
      return e.nAE;
    }
    default: break;
  }
  if (ok == ObjectKind::JointSpherical) return 0;
  const Real* p = theta + L.object[r.target].theta;  // rotationMarker0[9], rotationMarker1[9]
  const Mat3 A0all = k0.A * LoadMat3(p), A1all = k1.A * LoadMat3(p + 9);
  const int* ca = ok == ObjectKind::JointGeneric ? o.extra + 3 : nullptr;
  const bool globalForce = ok == ObjectKind::JointRevoluteZ || (ca && ca[0] && ca[1] && ca[2]);
  const Vec3 rot = RelativeRotationXYZ(A0all, A1all);
  switch (ovt) {
    case OVT::DisplacementLocal: return detail::PutVec(MultT(A0all, k1.pos - k0.pos), out, cap);
    case OVT::VelocityLocal: return detail::PutVec(MultT(A0all, k1.vel - k0.vel), out, cap);
    case OVT::Rotation: return detail::PutVec(rot, out, cap);
    case OVT::AngularVelocityLocal: return detail::PutVec(MultT(A0all, k1.omega - k0.omega), out, cap);
    case OVT::ForceLocal: return detail::PutVec(globalForce ? MultT(A0all, force) : force, out, cap);
    case OVT::TorqueLocal: return detail::PutVec(torque, out, cap);
    default: return 0;
  }
}

/// The output of the other constraints (Lagrange multipliers, equations, coordinates, distance).
MBS_HD_NOINLINE int ConstraintSensorOutput(const LayoutView& L, const Real* theta, const StateView& s,
                                           const SensorRecord& r, const ObjectRecord& o, ObjectKind ok,
                                           OutputVariableType ovt, Real* out, int cap) {
  using OVT = OutputVariableType;
  if (ovt == OVT::Force) {  // the Lagrange multipliers (constraint forces)
    const int n = ok == ObjectKind::JointRevolute2D ? 3 : o.nAE;
    for (int i = 0; i < n && i < cap; ++i) out[i] = i < o.nAE && s.lambda ? s.lambda[o.aeBegin + i] : 0;
    return n;
  }
  ConstraintEval e;
  ConstraintLocal(L, theta, s.t, s.q, s.v, r.target, false, e);
  if (ovt == OVT::ConstraintEquation) return detail::PutRange(e.C, e.nAE, out, cap);
  if (ok == ObjectKind::ConnectorCoordinate && (ovt == OVT::Displacement || ovt == OVT::Velocity)) {
    Real q0, v0, q1, v1;
    MarkerCoordinate(L, s.q, s.v, s.y, o.extra[0], q0, v0);
    MarkerCoordinate(L, s.q, s.v, s.y, o.extra[1], q1, v1);
    if (cap > 0) out[0] = ovt == OVT::Displacement ? q1 - q0 : v1 - v0;
    return 1;
  }
  if (ok == ObjectKind::ConnectorDistance && ovt == OVT::Distance) {
    if (cap > 0) out[0] = e.C[0] + theta[L.object[r.target].theta];
    return 1;
  }
  return 0;
}

/// A SensorObject's output.
MBS_HD_NOINLINE int ObjectSensorOutput(const LayoutView& L, const Real* theta, const StateView& s,
                                       const SensorRecord& r, OutputVariableType ovt, Real* out, int cap) {
  using OVT = OutputVariableType;
  const ObjectKind ok = static_cast<ObjectKind>(L.object[r.target].kind);
  const ObjectRecord o = GetObjectRecord(L, r.target);
  if (ok == ObjectKind::GenericODE2) {
    const Real* x = ovt == OVT::Coordinates ? s.q : ovt == OVT::Coordinates_t ? s.v : s.a;
    for (int i = 0; i < o.nLocalODE2 && i < cap; ++i) out[i] = x[o.ltgODE2[i]];
    return o.nLocalODE2;
  }
  if (ok == ObjectKind::GenericODE1) {
    const Real* x = ovt == OVT::Coordinates ? s.y : s.yt;
    for (int i = 0; i < o.nLocalODE1 && i < cap; ++i) out[i] = x[o.ltgODE1[i]];
    return o.nLocalODE1;
  }
  if (ok == ObjectKind::ConnectorCoordinateSpringDamper) {
    const Real* p = theta + L.object[r.target].theta;
    Real q0, v0, q1, v1;
    MarkerCoordinate(L, s.q, s.v, s.y, o.extra[0], q0, v0);
    MarkerCoordinate(L, s.q, s.v, s.y, o.extra[1], q1, v1);
    Real val = 0;
    if (ovt == OVT::Displacement) val = q1 - q0;
    else if (ovt == OVT::Velocity) val = v1 - v0;
    else if (ovt == OVT::Force)
      val = ObjectConnectorCoordinateSpringDamper::ForceAt(L, o.extra[3], p, s.t, q1 - q0, v1 - v0);
    else return 0;
    if (cap > 0) out[0] = val;
    return 1;
  }
  if (IsRigidConnector(ok)) {
    RigidConnectorState c;
    EvalRigidConnector(L, theta, s.t, s.q, s.v, r.target, c);
    if (ok == ObjectKind::ConnectorRigidBodySpringDamper) {
      switch (ovt) {
        case OVT::DisplacementLocal: return detail::PutVec(c.dispLocal, out, cap);
        case OVT::VelocityLocal: return detail::PutVec(c.velLocal, out, cap);
        case OVT::Rotation: return detail::PutVec(c.rotLocal, out, cap);
        case OVT::AngularVelocityLocal: return detail::PutVec(c.angVelLocal, out, cap);
        case OVT::ForceLocal: return detail::PutVec(c.forceLocal, out, cap);
        case OVT::TorqueLocal: return detail::PutVec(c.torqueLocal, out, cap);
        default: return 0;
      }
    }
    const bool tors = ok == ObjectKind::ConnectorTorsionalSpringDamper;
    Real val;
    if (ovt == (tors ? OVT::Rotation : OVT::DisplacementLocal)) val = c.scalar;
    else if (ovt == (tors ? OVT::AngularVelocityLocal : OVT::VelocityLocal)) val = c.scalar_t;
    else if (ovt == (tors ? OVT::TorqueLocal : OVT::ForceLocal)) val = tors ? c.torqueLocal[2] : c.forceLocal[0];
    else return 0;
    if (cap > 0) out[0] = val;
    return 1;
  }
  if (IsConstraint(ok)) {  // the joints with their own outputs, then the others
    if (ok == ObjectKind::JointSpherical || ok == ObjectKind::JointRevoluteZ || ok == ObjectKind::JointPrismaticX ||
        ok == ObjectKind::JointGeneric)
      return JointSensorOutput(L, theta, s, r, o, ok, ovt, out, cap);
    return ConstraintSensorOutput(L, theta, s, r, o, ok, ovt, out, cap);
  }
  if (IsPositionConnector(ok)) {
    ConnectorState c;
    EvalPositionConnector(L, theta, s.t, s.q, s.v, r.target, c);
    switch (ovt) {
      case OVT::Distance:
        if (cap > 0) out[0] = c.distance;
        return 1;
      case OVT::Displacement: return detail::PutVec(c.displacement, out, cap);
      case OVT::Velocity: return detail::PutVec(c.velocity, out, cap);
      case OVT::Force: return detail::PutVec(c.force, out, cap);
      case OVT::ForceLocal:
        if (cap > 0) out[0] = c.scalarForce;
        return 1;
      default: return 0;
    }
  }
  return 0;
}

/// A SensorMarker's output.
MBS_HD_NOINLINE int MarkerSensorOutput(const LayoutView& L, const Real* theta, const StateView& s,
                                       const SensorRecord& r, OutputVariableType ovt, Real* out, int cap) {
  using OVT = OutputVariableType;
  const MarkerKind mk = static_cast<MarkerKind>(L.marker[r.target].kind);
  if (mk == MarkerKind::NodeCoordinate) {
    Real val, vel;
    MarkerCoordinate(L, s.q, s.v, s.y, r.target, val, vel);
    if (cap > 0) out[0] = ovt == OVT::Coordinates ? val : vel;
    return 1;
  }
  Kinematics k;
  MarkerKinematics(L, theta, s.q, s.v, r.target, k);
  if (mk == MarkerKind::BodyMass) {  // at the centre of mass
    const int obj = r.target;
    Vec3 com;
    BodyMassAndCenter(L, theta, obj, com);
    BodyKinematics(L, theta, s.q, s.v, obj, com, k);
  }
  switch (ovt) {
    case OVT::Position: return detail::PutVec(k.pos, out, cap);
    case OVT::Velocity: return detail::PutVec(k.vel, out, cap);
    case OVT::RotationMatrix: return detail::PutMat(k.A, out, cap);
    case OVT::AngularVelocity: return detail::PutVec(k.omega, out, cap);
    case OVT::AngularVelocityLocal: return detail::PutVec(k.omegaLocal, out, cap);
    default: return 0;
  }
}

}  // namespace detail

/// Evaluates sensor `sensor`; writes up to `cap` values to out and returns the number of
/// values of the output (0 if the target cannot compute it).
MBS_HD_NOINLINE int SensorOutput(const LayoutView& L, const Real* theta, const StateView& s, int sensor, Real* out,
                                 int cap) {
  using OVT = OutputVariableType;
  const SensorRecord r = GetSensorRecord(L, sensor);
  const OVT ovt = static_cast<OVT>(r.outputVariableType);
  switch (static_cast<SensorKind>(L.sensor[sensor].kind)) {
    case SensorKind::Node:
      if constexpr (ModelHasKind(SensorKind::Node)) return detail::NodeSensorOutput(L, theta, s, r, ovt, out, cap);
      break;
    case SensorKind::Body:
      if constexpr (ModelHasKind(SensorKind::Body))
        return detail::BodySensorOutput(L, theta, s, sensor, r, ovt, out, cap);
      break;
    case SensorKind::Object:
      if constexpr (ModelHasKind(SensorKind::Object)) return detail::ObjectSensorOutput(L, theta, s, r, ovt, out, cap);
      break;
    case SensorKind::Marker:
      if constexpr (ModelHasKind(SensorKind::Marker)) return detail::MarkerSensorOutput(L, theta, s, r, ovt, out, cap);
      break;
    case SensorKind::Load:
      if constexpr (ModelHasKind(SensorKind::Load)) {
        Real tmp[3];
        const int n = LoadValue(L, theta, s.q, s.v, r.target, s.t, tmp);
        return detail::PutRange(tmp, n, out, cap);
      }
      break;
    default: break;
  }
  return 0;
}

/// A sensor decoded once for repeated evaluation (ObjectiveObserver samples its sensors at
/// every sample time of every system): the outputs that read state entries directly keep the
/// array and indices they read, instead of finding them through the layout at every sample —
/// a node's coordinates and their derivatives, and a coordinate spring-damper's displacement,
/// velocity and force. Every other sensor is evaluated by SensorOutput. The values are
/// SensorOutput's, computed the same way.
struct SensorPlan {
  enum Kind : int { generic = 0, stateRange = 1, springDamper = 2 };
  int sensor = -1;
  int kind = generic;
  int array = 0;             ///< stateRange: 0 q, 1 v, 2 a, 3 y, 4 yt; springDamper: the output type
  int begin = 0, count = 0;  ///< stateRange: first entry and count
  /// springDamper: each marker's coordinate: source 0 none (value and velocity 0), 1 ODE2, 2 ODE1
  int source[2] = {0, 0}, index[2] = {0, 0};
  const Real* params = nullptr;  ///< springDamper: the connector's Real parameters
};

namespace detail {
MBS_HD_INLINE void PlanMarkerCoordinate(const LayoutView& L, int marker, int& source, int& index) {
  const MarkerRecord r = GetMarkerRecord(L, marker);
  source = 0;
  index = 0;
  if (r.nCoords == 0) return;
  const NodeRecord n = GetNodeRecord(L, r.node);
  if (n.nODE2 > 0) {
    source = 1;
    index = n.ode2Begin + r.coordinate;
  } else if (n.nODE1 > 0) {
    source = 2;
    index = n.ode1Begin + r.coordinate;
  }
}
MBS_HD_INLINE const Real* StateArray(const StateView& s, int array) {
  switch (array) {
    case 0: return s.q;
    case 1: return s.v;
    case 2: return s.a;
    case 3: return s.y;
    default: return s.yt;
  }
}
}  // namespace detail

/// The plan of sensor `sensor` (see SensorPlan).
MBS_HD_INLINE SensorPlan MakeSensorPlan(const LayoutView& L, const Real* theta, int sensor) {
  using OVT = OutputVariableType;
  SensorPlan p;
  p.sensor = sensor;
  const SensorRecord r = GetSensorRecord(L, sensor);
  const OVT ovt = static_cast<OVT>(r.outputVariableType);
  const SensorKind kind = static_cast<SensorKind>(L.sensor[sensor].kind);
  if (kind == SensorKind::Node) {
    const NodeRecord nr = GetNodeRecord(L, r.target);
    const int array = nr.nODE1 > 0 ? (ovt == OVT::Coordinates ? 3 : ovt == OVT::Coordinates_t ? 4 : -1)
                                   : (ovt == OVT::Coordinates     ? 0
                                      : ovt == OVT::Coordinates_t ? 1
                                      : ovt == OVT::Coordinates_tt ? 2
                                                                   : -1);
    if (array >= 0) {
      p.kind = SensorPlan::stateRange;
      p.array = array;
      p.begin = nr.nODE1 > 0 ? nr.ode1Begin : nr.ode2Begin;
      p.count = nr.nODE1 > 0 ? nr.nODE1 : nr.nODE2;
    }
  } else if (kind == SensorKind::Object &&
             static_cast<ObjectKind>(L.object[r.target].kind) == ObjectKind::ConnectorCoordinateSpringDamper &&
             (ovt == OVT::Displacement || ovt == OVT::Velocity ||
              (ovt == OVT::Force && GetObjectRecord(L, r.target).extra[3] < 0))) {  // a user force: SensorOutput
    const ObjectRecord o = GetObjectRecord(L, r.target);
    p.kind = SensorPlan::springDamper;
    p.array = static_cast<int>(ovt);
    for (int m = 0; m < 2; ++m) detail::PlanMarkerCoordinate(L, o.extra[m], p.source[m], p.index[m]);
    p.params = theta + L.object[r.target].theta;
  }
  return p;
}

/// Evaluates a sensor by its plan: SensorOutput's values and count.
MBS_HD_INLINE int EvaluateSensorPlan(const SensorPlan& p, const LayoutView& L, const Real* theta, const StateView& s,
                                     Real* out, int cap) {
  if (p.kind == SensorPlan::stateRange) return detail::PutRange(detail::StateArray(s, p.array) + p.begin, p.count, out, cap);
  if (p.kind != SensorPlan::springDamper) return SensorOutput(L, theta, s, p.sensor, out, cap);
  Real q[2], v[2];
  for (int m = 0; m < 2; ++m) {
    q[m] = p.source[m] == 1 ? s.q[p.index[m]] : p.source[m] == 2 ? s.y[p.index[m]] : 0;
    v[m] = p.source[m] == 1 ? s.v[p.index[m]] : 0;
  }
  using OVT = OutputVariableType;
  const OVT ovt = static_cast<OVT>(p.array);
  const Real val = ovt == OVT::Displacement ? q[1] - q[0]
                   : ovt == OVT::Velocity   ? v[1] - v[0]
                                            : ObjectConnectorCoordinateSpringDamper::Force(
                                                ParamsAt<ObjectConnectorCoordinateSpringDamper>(p.params), q[1] - q[0],
                                                v[1] - v[0]);
  if (cap > 0) out[0] = val;
  return 1;
}

}  // namespace mbsweep
