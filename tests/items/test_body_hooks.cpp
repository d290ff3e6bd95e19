// The hooks of every body item (common/items/, categories Ground and Body) against each other
// and against calculus, on one model with one body of each kind: the point at q = 0 is the
// item's ReferencePosition; the velocity is the position Jacobian times the node velocities
// and the central difference of the position along them; the angular velocity is the rotation
// Jacobian times the node velocities; MassAndCenter returns the item's mass and centre.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/creators.h"
#include "common/item_dispatch.h"
#include "common/model.h"

namespace mbsweep {
namespace {

Matrix3D RotationAboutX(double a) {
  return Matrix3D{{1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a)}};
}
Matrix3D RotationAboutZ(double a) {
  return Matrix3D{{std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1}};
}

struct BodyModel {
  Model m;
  std::vector<ObjectIndex> bodies;
  std::vector<Real> masses;  // mass, 0 for bodies without mass
};

/// One body of each kind, in positions and orientations away from the axes.
BodyModel AllBodies() {
  BodyModel b;
  Model& m = b.m;
  ObjectGround ground;
  ground.referencePosition = {0.1, -0.2, 0.3};
  ground.referenceRotation = RotationAboutZ(0.3);
  b.bodies.push_back(m.AddObject(ground));
  b.masses.push_back(0);

  NodePoint np;
  np.referenceCoordinates = {1, 2, 3};
  ObjectMassPoint mp;
  mp.mass = 2;
  mp.nodeNumber = m.AddNode(np);
  b.bodies.push_back(m.AddObject(mp));
  b.masses.push_back(2);

  NodePoint2D np2;
  np2.referenceCoordinates = {-1, 0.5};
  ObjectMassPoint2D mp2;
  mp2.mass = 3;
  mp2.nodeNumber = m.AddNode(np2);
  b.bodies.push_back(m.AddObject(mp2));
  b.masses.push_back(3);

  Node1D n1;
  n1.referenceCoordinates = {0.7};
  ObjectMass1D m1;
  m1.mass = 4;
  m1.nodeNumber = m.AddNode(n1);
  m1.referencePosition = {0.2, 0.4, -0.1};
  m1.referenceRotation = RotationAboutX(0.4);
  b.bodies.push_back(m.AddObject(m1));
  b.masses.push_back(4);

  ObjectRotationalMass1D r1;
  r1.inertia = 0.5;
  r1.nodeNumber = m.AddNode(n1);
  r1.referencePosition = {-0.3, 0.1, 0.2};
  r1.referenceRotation = RotationAboutX(-0.6);
  b.bodies.push_back(m.AddObject(r1));
  b.masses.push_back(0);

  NodeRigidBody2D nr2;
  nr2.referenceCoordinates = {0.5, -0.4, 0.8};
  ObjectRigidBody2D rb2;
  rb2.mass = 5;
  rb2.inertia = 0.2;
  rb2.centerOfMass = {0.1, -0.05};
  rb2.nodeNumber = m.AddNode(nr2);
  b.bodies.push_back(m.AddObject(rb2));
  b.masses.push_back(5);

  const double e0 = 0.8, e1 = 0.2, e2 = -0.4, e3 = std::sqrt(1 - e0 * e0 - e1 * e1 - e2 * e2);
  NodeRigidBodyEP nep;
  nep.referenceCoordinates = {0.3, 0.2, -0.5, e0, e1, e2, e3};
  ObjectRigidBody rb;
  rb.mass = 6;
  rb.inertia = {1, 2, 3, 0.1, 0.2, 0.3};
  rb.centerOfMass = {0.05, 0.1, -0.02};
  rb.nodeNumber = m.AddNode(nep);
  b.bodies.push_back(m.AddObject(rb));
  b.masses.push_back(6);

  NodeRigidBodyRxyz nxyz;
  nxyz.referenceCoordinates = {-0.2, 0.6, 0.1, 0.3, -0.5, 0.7};
  rb.mass = 7;
  rb.nodeNumber = m.AddNode(nxyz);
  b.bodies.push_back(m.AddObject(rb));
  b.masses.push_back(7);
  return b;
}

/// Coordinates and velocities away from zero; the Euler-parameter node moves tangentially to
/// its unit sphere (p^T p_t = 0), as its constraint requires.
void State(const LayoutView& L, const std::vector<Real>& theta, std::vector<Real>& q, std::vector<Real>& v) {
  for (size_t i = 0; i < q.size(); ++i) {
    q[i] = 0.1 * std::sin(1.3 * static_cast<double>(i) + 0.2);
    v[i] = 1.7 * std::cos(0.7 * static_cast<double>(i) + 0.9);
  }
  for (int n = 0; n < L.nNodes; ++n) {
    if (static_cast<NodeKind>(L.node[n].kind) != NodeKind::RigidBodyEP) continue;
    const int b = GetNodeRecord(L, n).ode2Begin + 3;
    const Real* ref = theta.data() + L.node[n].theta + 3;
    Real dot = 0;
    for (int j = 0; j < 4; ++j) {
      q[static_cast<size_t>(b + j)] = 0;
      dot += ref[j] * v[static_cast<size_t>(b + j)];
    }
    for (int j = 0; j < 4; ++j) v[static_cast<size_t>(b + j)] -= dot * ref[j];
  }
}

TEST(BodyHooks, ReferencePositionIsThePointAtZeroCoordinates) {
  const BodyModel b = AllBodies();
  const Layout layout = b.m.Compile();
  const LayoutView L = layout.View();
  const std::vector<Real> theta = b.m.Theta0();
  const std::vector<Real> zero(static_cast<size_t>(L.nODE2), 0.0);
  const Vec3 lp = MakeVec3(0.3, -0.2, 0.1);
  for (ObjectIndex obj : b.bodies) {
    SCOPED_TRACE(KindName(static_cast<ObjectKind>(L.object[obj.value].kind)));
    Kinematics K;
    BodyKinematics(L, theta.data(), zero.data(), zero.data(), obj.value, lp, K);
    const Vec3 ref = BodyReferencePosition(L, theta.data(), obj.value, lp);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(K.pos[i], ref[i], 1e-15) << "component " << i;
  }
}

TEST(BodyHooks, VelocitiesAgreeWithJacobiansAndPositions) {
  const BodyModel b = AllBodies();
  const Layout layout = b.m.Compile();
  const LayoutView L = layout.View();
  const std::vector<Real> theta = b.m.Theta0();
  std::vector<Real> q(static_cast<size_t>(L.nODE2)), v(q.size());
  State(L, theta, q, v);
  const Vec3 lp = MakeVec3(0.3, -0.2, 0.1);
  const Real h = 1e-5;
  for (ObjectIndex obj : b.bodies) {
    SCOPED_TRACE(KindName(static_cast<ObjectKind>(L.object[obj.value].kind)));
    Kinematics K, Kp, Km;
    BodyKinematics(L, theta.data(), q.data(), v.data(), obj.value, lp, K);
    std::vector<Real> qp = q, qm = q;
    for (int j = 0; j < K.n; ++j) {
      qp[static_cast<size_t>(K.firstODE2 + j)] += h * v[static_cast<size_t>(K.firstODE2 + j)];
      qm[static_cast<size_t>(K.firstODE2 + j)] -= h * v[static_cast<size_t>(K.firstODE2 + j)];
    }
    BodyKinematics(L, theta.data(), qp.data(), v.data(), obj.value, lp, Kp);
    BodyKinematics(L, theta.data(), qm.data(), v.data(), obj.value, lp, Km);
    for (int i = 0; i < 3; ++i) {
      Real jv = 0, jw = 0;
      for (int j = 0; j < K.n; ++j) {
        jv += K.Jpos[i][j] * v[static_cast<size_t>(K.firstODE2 + j)];
        jw += K.Jrot[i][j] * v[static_cast<size_t>(K.firstODE2 + j)];
      }
      EXPECT_NEAR(K.vel[i], jv, 1e-14) << "Jpos v, component " << i;
      EXPECT_NEAR(K.omega[i], jw, 1e-14) << "Jrot v, component " << i;
      // central difference: exact for positions linear or quadratic in q, O(h^2) = 1e-10 else
      EXPECT_NEAR(K.vel[i], (Kp.pos[i] - Km.pos[i]) / (2 * h), 1e-8) << "d pos / dt, component " << i;
    }
  }
}

TEST(BodyHooks, MassAndCenterOfTheBodiesWithMass) {
  const BodyModel b = AllBodies();
  const Layout layout = b.m.Compile();
  const LayoutView L = layout.View();
  const std::vector<Real> theta = b.m.Theta0();
  for (size_t k = 0; k < b.bodies.size(); ++k) {
    const int obj = b.bodies[k].value;
    SCOPED_TRACE(KindName(static_cast<ObjectKind>(L.object[obj].kind)));
    Vec3 com;
    EXPECT_EQ(BodyMassAndCenter(L, theta.data(), obj, com), b.masses[k]);
    const ObjectKind kind = static_cast<ObjectKind>(L.object[obj].kind);
    const Vec3 expected = kind == ObjectKind::RigidBody2D ? MakeVec3(0.1, -0.05, 0)
                          : kind == ObjectKind::RigidBody ? MakeVec3(0.05, 0.1, -0.02)
                                                          : MakeVec3(0, 0, 0);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(com[i], expected[i]) << "component " << i;
  }
}

}  // namespace
}  // namespace mbsweep
