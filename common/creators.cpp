#include "common/creators.h"

#include <cmath>

#include "common/kinematics.h"

namespace mbsweep {

namespace {

struct Frame {
  Vector3D p;
  Real A[3][3];
};

/// Reference-configuration frame of a body (position of its reference point, rotation).
Frame BodyReferenceFrame(const Model& m, ObjectIndex body) {
  Frame f{{0, 0, 0}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  const ObjectItem& o = m.GetObject(body);
  if (const auto* g = std::get_if<ObjectGround>(&o)) {
    f.p = g->referencePosition;
    for (int i = 0; i < 9; ++i) f.A[i / 3][i % 3] = g->referenceRotation.data[static_cast<size_t>(i)];
    return f;
  }
  auto nodeRef = [&](NodeIndex n) -> const NodeItem& { return m.GetNode(n); };
  if (const auto* b = std::get_if<ObjectMassPoint>(&o)) {
    f.p = std::get<NodePoint>(nodeRef(b->nodeNumber)).referenceCoordinates;
  } else if (const auto* b2 = std::get_if<ObjectMassPoint2D>(&o)) {
    const auto& r = std::get<NodePoint2D>(nodeRef(b2->nodeNumber)).referenceCoordinates;
    f.p = {r[0], r[1], 0};
  } else if (const auto* rb = std::get_if<ObjectRigidBody2D>(&o)) {
    const auto& r = std::get<NodeRigidBody2D>(nodeRef(rb->nodeNumber)).referenceCoordinates;
    f.p = {r[0], r[1], 0};
    const Real c = std::cos(r[2]), s = std::sin(r[2]);
    f.A[0][0] = c;
    f.A[0][1] = -s;
    f.A[1][0] = s;
    f.A[1][1] = c;
  } else if (const auto* rb3 = std::get_if<ObjectRigidBody>(&o)) {
    const NodeItem& n = nodeRef(rb3->nodeNumber);
    Mat3 A;
    if (const auto* ep = std::get_if<NodeRigidBodyEP>(&n)) {
      f.p = {ep->referenceCoordinates[0], ep->referenceCoordinates[1], ep->referenceCoordinates[2]};
      A = RotationMatrixEP(ep->referenceCoordinates.data() + 3);
    } else {
      const auto& r = std::get<NodeRigidBodyRxyz>(n).referenceCoordinates;
      f.p = {r[0], r[1], r[2]};
      A = RotationMatrixRxyz(r.data() + 3);
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) f.A[i][j] = A(i, j);
  } else {
    throw ValidationError("object " + std::to_string(body.value) + " ('" + m.ObjectName(body.value) +
                          "') is not a body the creators can attach to");
  }
  return f;
}

bool IsPlanarBody(const Model& m, ObjectIndex b) {
  const ObjectItem& o = m.GetObject(b);
  return std::holds_alternative<ObjectRigidBody2D>(o) || std::holds_alternative<ObjectMassPoint2D>(o) ||
         std::holds_alternative<ObjectGround>(o);
}

MarkerIndex AddBodyPositionMarker(Model& m, ObjectIndex body, const Vector3D& local) {
  MarkerBodyPosition mk;
  mk.bodyNumber = body;
  mk.localPosition = local;
  return m.AddMarker(mk);
}

MarkerIndex AddBodyRigidMarker(Model& m, ObjectIndex body, const Vector3D& local) {
  MarkerBodyRigid mk;
  mk.bodyNumber = body;
  mk.localPosition = local;
  return m.AddMarker(mk);
}

/// Adds a LoadMassProportional (with its MarkerBodyMass) if gravity is nonzero.
void AddGravity(Model& m, ObjectIndex body, const Vector3D& gravity, MarkerIndex& marker, LoadIndex& load) {
  if (gravity[0] == 0 && gravity[1] == 0 && gravity[2] == 0) return;
  MarkerBodyMass bm;
  bm.bodyNumber = body;
  marker = m.AddMarker(bm);
  LoadMassProportional g;
  g.markerNumber = marker;
  g.loadVector = gravity;
  load = m.AddLoad(g);
}

Real Distance(const Vector3D& a, const Vector3D& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

std::string VecString(const Vector3D& a) {
  return "[" + FormatReal(a[0]) + ", " + FormatReal(a[1]) + ", " + FormatReal(a[2]) + "]";
}

/// Rotation matrix (columns: joint axes in global coordinates) whose column `col` is the unit
/// vector of `axis`; the other two columns complete a right-handed orthonormal basis.
Mat3 JointFrame(const std::string& where, const Vector3D& axis, int col) {
  const Real len = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  if (!(len > 0) || !std::isfinite(len)) throw ValidationError(where + ": axis = " + VecString(axis) + " must be a nonzero vector");
  const Vec3 a = MakeVec3(axis[0] / len, axis[1] / len, axis[2] / len);
  // a helper direction far from a, made perpendicular to it
  const Vec3 h = std::abs(a[0]) < 0.9 ? MakeVec3(1, 0, 0) : MakeVec3(0, 1, 0);
  Vec3 b = h - Dot(h, a) * a;
  b = (1. / Norm(b)) * b;
  const Vec3 c = Cross(a, b);
  // (a, b, c) is right-handed; place a in column col and keep the cyclic order
  const Vec3 cols[3] = {col == 0 ? a : col == 1 ? c : b, col == 0 ? b : col == 1 ? a : c,
                        col == 0 ? c : col == 1 ? b : a};
  Mat3 A;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A(i, j) = cols[j][i];
  return A;
}

/// rotationMarker of a body for the joint frame AJ (global): A_body^T AJ.
Matrix3D MarkerRotation(const Frame& f, const Mat3& AJ) {
  Matrix3D R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Real s = 0;
      for (int k = 0; k < 3; ++k) s += f.A[k][i] * AJ(k, j);
      R.data[static_cast<size_t>(3 * i + j)] = s;
    }
  return R;
}

}  // namespace

Vector3D BodyReferencePoint(const Model& m, ObjectIndex body, const Vector3D& lp) {
  const Frame f = BodyReferenceFrame(m, body);
  Vector3D p = f.p;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p[static_cast<size_t>(i)] += f.A[i][j] * lp[static_cast<size_t>(j)];
  return p;
}

Vector3D BodyLocalPoint(const Model& m, ObjectIndex body, const Vector3D& gp) {
  const Frame f = BodyReferenceFrame(m, body);
  Vector3D lp{0, 0, 0};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) lp[static_cast<size_t>(i)] += f.A[j][i] * (gp[static_cast<size_t>(j)] - f.p[static_cast<size_t>(j)]);
  return lp;
}

ObjectIndex CreateGround(Model& m, const Vector3D& referencePosition, const std::string& name) {
  ObjectGround g;
  g.name = name;
  g.referencePosition = referencePosition;
  return m.AddObject(g);
}

MassPointItems CreateMassPoint(Model& m, const std::string& name, const Vector3D& referencePosition, Real mass,
                               const Vector3D& initialDisplacement, const Vector3D& initialVelocity,
                               const Vector3D& gravity, bool create2D) {
  MassPointItems r;
  if (create2D) {
    NodePoint2D n;
    n.name = name.empty() ? "" : name + "Node";
    n.referenceCoordinates = {referencePosition[0], referencePosition[1]};
    n.initialCoordinates = {initialDisplacement[0], initialDisplacement[1]};
    n.initialVelocities = {initialVelocity[0], initialVelocity[1]};
    r.node = m.AddNode(n);
    ObjectMassPoint2D b;
    b.name = name;
    b.mass = mass;
    b.nodeNumber = r.node;
    r.body = m.AddObject(b);
  } else {
    NodePoint n;
    n.name = name.empty() ? "" : name + "Node";
    n.referenceCoordinates = referencePosition;
    n.initialCoordinates = initialDisplacement;
    n.initialVelocities = initialVelocity;
    r.node = m.AddNode(n);
    ObjectMassPoint b;
    b.name = name;
    b.mass = mass;
    b.nodeNumber = r.node;
    r.body = m.AddObject(b);
  }
  AddGravity(m, r.body, gravity, r.bodyMassMarker, r.gravityLoad);
  return r;
}

RigidBody2DItems CreateRigidBody2D(Model& m, const std::string& name, const Vector2D& referencePosition,
                                   Real referenceAngle, Real mass, Real inertia,
                                   const Vector2D& centerOfMass, const Vector3D& initialVelocity,
                                   const Vector3D& gravity) {
  RigidBody2DItems r;
  NodeRigidBody2D n;
  n.name = name.empty() ? "" : name + "Node";
  n.referenceCoordinates = {referencePosition[0], referencePosition[1], referenceAngle};
  n.initialVelocities = initialVelocity;
  r.node = m.AddNode(n);
  ObjectRigidBody2D b;
  b.name = name;
  b.mass = mass;
  b.inertia = inertia;
  b.centerOfMass = centerOfMass;
  b.nodeNumber = r.node;
  r.body = m.AddObject(b);
  AddGravity(m, r.body, gravity, r.bodyMassMarker, r.gravityLoad);
  return r;
}

RigidBodyItems CreateRigidBody(Model& m, const std::string& name, const Vector3D& referencePosition,
                               const Matrix3D& referenceRotationMatrix, const RigidBodyInertia& inertia,
                               const Vector3D& initialVelocity, const Vector3D& initialAngularVelocity,
                               const Vector3D& gravity, RigidBodyNodeType nodeType) {
  const std::string where = "CreateRigidBody '" + name + "'";
  const Mat3 A = LoadMat3(referenceRotationMatrix.data.data());
  const Mat3 AtA = Transpose(A) * A;
  Real err = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) err = std::max(err, std::abs(AtA(i, j) - (i == j ? 1 : 0)));
  const Real det = Dot(MakeVec3(A(0, 0), A(1, 0), A(2, 0)),
                       Cross(MakeVec3(A(0, 1), A(1, 1), A(2, 1)), MakeVec3(A(0, 2), A(1, 2), A(2, 2))));
  if (!(err <= 1e-10) || !(det > 0))
    throw ValidationError(where + ": referenceRotationMatrix is not a rotation matrix (|A^T A - I| = " + FormatReal(err) +
                          ", det = " + FormatReal(det) + ")");
  const Vec3 w = MakeVec3(initialAngularVelocity[0], initialAngularVelocity[1], initialAngularVelocity[2]);
  RigidBodyItems r;
  if (nodeType == RigidBodyNodeType::RotationEulerParameters) {
    NodeRigidBodyEP n;
    n.name = name.empty() ? "" : name + "Node";
    Real p[4];
    RotationMatrix2EP(A, p);
    Real pt[4];
    Mult3xNT(G_EP(p), w, 4, pt);  // p_t = G^T omega / 4 (G G^T = 4 I for unit p)
    for (int i = 0; i < 3; ++i) {
      n.referenceCoordinates[static_cast<size_t>(i)] = referencePosition[static_cast<size_t>(i)];
      n.initialVelocities[static_cast<size_t>(i)] = initialVelocity[static_cast<size_t>(i)];
    }
    for (int i = 0; i < 4; ++i) {
      n.referenceCoordinates[static_cast<size_t>(3 + i)] = p[i];
      n.initialVelocities[static_cast<size_t>(3 + i)] = 0.25 * pt[i];
    }
    r.node = m.AddNode(n);
  } else {
    NodeRigidBodyRxyz n;
    n.name = name.empty() ? "" : name + "Node";
    const Vec3 phi = RotationMatrix2RotXYZ(A);
    // phi_t = G^-1 omega with G = [[1, 0, s1], [0, c0, -s0 c1], [0, s0, c0 c1]], det G = c1
    const Real c0 = std::cos(phi[0]), s0 = std::sin(phi[0]), c1 = std::cos(phi[1]), s1 = std::sin(phi[1]);
    Vec3 pt = MakeVec3(0, 0, 0);
    if (Norm(w) > 0) {
      if (std::abs(c1) < 1e-12)
        throw ValidationError(where + ": the Tait-Bryan angles of referenceRotationMatrix are singular (phi1 = " +
                              FormatReal(phi[1]) + "), the initial angular velocity cannot be converted; use "
                              "RigidBodyNodeType::RotationEulerParameters");
      pt[1] = c0 * w[1] + s0 * w[2];           // rows 1, 2 combined with (c0, s0)
      pt[2] = (-s0 * w[1] + c0 * w[2]) / c1;    // rows 1, 2 combined with (-s0, c0)
      pt[0] = w[0] - s1 * pt[2];                // row 0
    }
    for (int i = 0; i < 3; ++i) {
      n.referenceCoordinates[static_cast<size_t>(i)] = referencePosition[static_cast<size_t>(i)];
      n.referenceCoordinates[static_cast<size_t>(3 + i)] = phi[i];
      n.initialVelocities[static_cast<size_t>(i)] = initialVelocity[static_cast<size_t>(i)];
      n.initialVelocities[static_cast<size_t>(3 + i)] = pt[i];
    }
    r.node = m.AddNode(n);
  }
  ObjectRigidBody b;
  b.name = name;
  b.mass = inertia.mass;
  b.inertia = inertia.inertia;
  b.centerOfMass = inertia.centerOfMass;
  b.nodeNumber = r.node;
  r.body = m.AddObject(b);
  AddGravity(m, r.body, gravity, r.bodyMassMarker, r.gravityLoad);
  return r;
}

ObjectIndex CreateSpringDamper(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                               const Vector3D& lp0, const Vector3D& lp1, Real stiffness, Real damping,
                               Real referenceLength, Real force, Real velocityOffset) {
  ObjectConnectorSpringDamper sd;
  sd.name = name;
  sd.markerNumbers = {AddBodyPositionMarker(m, bodies[0], lp0), AddBodyPositionMarker(m, bodies[1], lp1)};
  sd.referenceLength = referenceLength < 0
                           ? Distance(BodyReferencePoint(m, bodies[0], lp0), BodyReferencePoint(m, bodies[1], lp1))
                           : referenceLength;
  sd.stiffness = stiffness;
  sd.damping = damping;
  sd.force = force;
  sd.velocityOffset = velocityOffset;
  return m.AddObject(sd);
}

ObjectIndex CreateDistanceConstraint(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                                     const Vector3D& lp0, const Vector3D& lp1, Real distance) {
  ObjectConnectorDistance dc;
  dc.name = name;
  dc.markerNumbers = {AddBodyPositionMarker(m, bodies[0], lp0), AddBodyPositionMarker(m, bodies[1], lp1)};
  dc.distance =
      distance < 0 ? Distance(BodyReferencePoint(m, bodies[0], lp0), BodyReferencePoint(m, bodies[1], lp1)) : distance;
  return m.AddObject(dc);
}

ObjectIndex CreateRevoluteJoint(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                                const Vector3D& position, const Vector3D& axis) {
  if (IsPlanarBody(m, bodies[0]) && IsPlanarBody(m, bodies[1])) {
    if (axis[0] != 0 || axis[1] != 0 || axis[2] == 0)
      throw ValidationError("CreateRevoluteJoint '" + name + "': axis = [" + FormatReal(axis[0]) + ", " +
                            FormatReal(axis[1]) + ", " + FormatReal(axis[2]) +
                            "] must be the z-axis for planar bodies");
    ObjectJointRevolute2D j;
    j.name = name;
    j.markerNumbers = {AddBodyPositionMarker(m, bodies[0], BodyLocalPoint(m, bodies[0], position)),
                       AddBodyPositionMarker(m, bodies[1], BodyLocalPoint(m, bodies[1], position))};
    return m.AddObject(j);
  }
  const Mat3 AJ = JointFrame("CreateRevoluteJoint '" + name + "'", axis, 2);  // joint z = axis
  const Frame f0 = BodyReferenceFrame(m, bodies[0]), f1 = BodyReferenceFrame(m, bodies[1]);
  ObjectJointRevoluteZ j;
  j.name = name;
  j.markerNumbers = {AddBodyRigidMarker(m, bodies[0], BodyLocalPoint(m, bodies[0], position)),
                     AddBodyRigidMarker(m, bodies[1], BodyLocalPoint(m, bodies[1], position))};
  j.rotationMarker0 = MarkerRotation(f0, AJ);
  j.rotationMarker1 = MarkerRotation(f1, AJ);
  return m.AddObject(j);
}

ObjectIndex CreatePrismaticJoint(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                                 const Vector3D& position, const Vector3D& axis) {
  if (!(IsPlanarBody(m, bodies[0]) && IsPlanarBody(m, bodies[1]))) {
    const Mat3 AJ = JointFrame("CreatePrismaticJoint '" + name + "'", axis, 0);  // joint x = axis
    const Frame f0 = BodyReferenceFrame(m, bodies[0]), f1 = BodyReferenceFrame(m, bodies[1]);
    ObjectJointPrismaticX j;
    j.name = name;
    j.markerNumbers = {AddBodyRigidMarker(m, bodies[0], BodyLocalPoint(m, bodies[0], position)),
                       AddBodyRigidMarker(m, bodies[1], BodyLocalPoint(m, bodies[1], position))};
    j.rotationMarker0 = MarkerRotation(f0, AJ);
    j.rotationMarker1 = MarkerRotation(f1, AJ);
    return m.AddObject(j);
  }
  const Real len = std::hypot(axis[0], axis[1]);
  if (!(len > 0) || axis[2] != 0)
    throw ValidationError("CreatePrismaticJoint '" + name + "': axis must be a nonzero vector in the x-y plane");
  const Frame f0 = BodyReferenceFrame(m, bodies[0]), f1 = BodyReferenceFrame(m, bodies[1]);
  const Vector3D a{axis[0] / len, axis[1] / len, 0}, nrm{-axis[1] / len, axis[0] / len, 0};
  ObjectJointPrismatic2D j;
  j.name = name;
  j.markerNumbers = {AddBodyRigidMarker(m, bodies[0], BodyLocalPoint(m, bodies[0], position)),
                     AddBodyRigidMarker(m, bodies[1], BodyLocalPoint(m, bodies[1], position))};
  for (int i = 0; i < 3; ++i) {  // axis in marker-0 frame, normal in marker-1 frame
    j.axisMarker0[static_cast<size_t>(i)] = f0.A[0][i] * a[0] + f0.A[1][i] * a[1];
    j.normalMarker1[static_cast<size_t>(i)] = f1.A[0][i] * nrm[0] + f1.A[1][i] * nrm[1];
  }
  return m.AddObject(j);
}

ObjectIndex CreateSphericalJoint(Model& m, const std::string& name, const std::array<ObjectIndex, 2>& bodies,
                                 const Vector3D& position, const std::array<int, 3>& constrainedAxes) {
  ObjectJointSpherical j;
  j.name = name;
  j.markerNumbers = {AddBodyPositionMarker(m, bodies[0], BodyLocalPoint(m, bodies[0], position)),
                     AddBodyPositionMarker(m, bodies[1], BodyLocalPoint(m, bodies[1], position))};
  j.constrainedAxes = constrainedAxes;
  return m.AddObject(j);
}

ObjectIndex CreateCoordinateConstraint(Model& m, const std::string& name, NodeIndex node, int coordinate, Real offset) {
  NodePointGround g;
  MarkerNodeCoordinate c0, c1;
  c0.nodeNumber = m.AddNode(g);
  c1.nodeNumber = node;
  c1.coordinate = coordinate;
  ObjectConnectorCoordinate cc;
  cc.name = name;
  cc.markerNumbers = {m.AddMarker(c0), m.AddMarker(c1)};
  cc.offset = offset;
  return m.AddObject(cc);
}

LoadIndex CreateForce(Model& m, const std::string& name, ObjectIndex body, const Vector3D& loadVector,
                      const Vector3D& localPosition) {
  LoadForceVector f;
  f.name = name;
  f.markerNumber = AddBodyPositionMarker(m, body, localPosition);
  f.loadVector = loadVector;
  return m.AddLoad(f);
}

LoadIndex CreateTorque(Model& m, const std::string& name, ObjectIndex body, const Vector3D& loadVector) {
  LoadTorqueVector f;
  f.name = name;
  f.markerNumber = AddBodyRigidMarker(m, body, {0, 0, 0});
  f.loadVector = loadVector;
  return m.AddLoad(f);
}

}  // namespace mbsweep
