// Tests of the constraint assembly in common/constraints.h: the items' Residual fast paths
// (ObjectJointRevolute2D, ObjectJointPrismatic2D, ObjectConnectorCoordinate) give the values of
// the general path through their Equations (ConstraintLocal, C_q^T lambda).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/constraints.h"
#include "common/creators.h"
#include "common/model.h"

namespace mbsweep {
namespace {

/// Reference for AddConstraintReactionsAndAE from ConstraintLocal: c = C (lambda for lambda
/// rows), f[ltg[j]] -= sum over r of Cq[r][j] lambda[r].
void ReferenceReactionsAndAE(const LayoutView& L, const Real* theta, Real t, const Real* q, const Real* v,
                             const Real* lambda, bool index2, Real* f, Real* c) {
  ConstraintEval e;
  for (int i = 0; i < L.nObjects; ++i) {
    if (!IsConstraint(static_cast<ObjectKind>(L.object[i].kind))) continue;
    const ObjectRecord o = GetObjectRecord(L, i);
    ConstraintLocal(L, theta, t, q, v, i, index2, e);
    for (int r = 0; r < e.nAE; ++r) c[o.aeBegin + r] = IsLambdaRow(e, r) ? lambda[o.aeBegin + r] : e.C[r];
    if (!e.active) continue;
    for (int j = 0; j < e.nLocal; ++j) {
      Real s = 0;
      for (int r = 0; r < e.nAE; ++r) s += e.Cq[r * e.nLocal + j] * lambda[o.aeBegin + r];
      f[o.ltgODE2[j]] -= s;
    }
  }
}

/// A MarkerBodyRigid (rigid) or MarkerBodyPosition at lp on body.
MarkerIndex BodyPoint(Model& m, ObjectIndex body, const Vector3D& lp, bool rigid) {
  if (rigid) {
    MarkerBodyRigid mk;
    mk.bodyNumber = body;
    mk.localPosition = lp;
    return m.AddMarker(mk);
  }
  MarkerBodyPosition mk;
  mk.bodyNumber = body;
  mk.localPosition = lp;
  return m.AddMarker(mk);
}

/// A MarkerNodeRigid (rigid) or MarkerNodePosition on node n.
MarkerIndex NodePoint(Model& m, NodeIndex n, bool rigid) {
  if (rigid) {
    MarkerNodeRigid mk;
    mk.nodeNumber = n;
    return m.AddMarker(mk);
  }
  MarkerNodePosition mk;
  mk.nodeNumber = n;
  return m.AddMarker(mk);
}

/// Fills q, v, lambda with a state away from zero and checks AddConstraintReactionsAndAE
/// against ReferenceReactionsAndAE, bit for bit, on position and velocity level.
void ExpectResidualEqualsGeneralPath(const Model& m) {
  const Layout layout = m.Compile();
  const LayoutView L = layout.View();
  const std::vector<Real> theta = m.Theta0();
  std::vector<Real> q(static_cast<size_t>(L.nODE2)), v(q.size()), lambda(static_cast<size_t>(L.nAE));
  for (size_t i = 0; i < q.size(); ++i) {
    q[i] = 0.1 * std::sin(1.7 * static_cast<double>(i) + 0.3);
    v[i] = 2.3 * std::cos(0.9 * static_cast<double>(i) + 1.1);
  }
  for (size_t i = 0; i < lambda.size(); ++i) lambda[i] = 10 * std::sin(2.1 * static_cast<double>(i) + 0.7);
  for (bool index2 : {false, true}) {
    std::vector<Real> f(q.size()), fRef(q.size()), cv(lambda.size()), cRef(lambda.size());
    for (size_t i = 0; i < f.size(); ++i) f[i] = fRef[i] = 0.5 * static_cast<double>(i) - 1;
    AddConstraintReactionsAndAE(L, theta.data(), 0.1, q.data(), v.data(), lambda.data(), index2, f.data(), cv.data());
    ReferenceReactionsAndAE(L, theta.data(), 0.1, q.data(), v.data(), lambda.data(), index2, fRef.data(), cRef.data());
    for (size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i], fRef[i]) << "f[" << i << "] index2 " << index2;
    for (size_t i = 0; i < cv.size(); ++i) EXPECT_EQ(cv[i], cRef[i]) << "c[" << i << "] index2 " << index2;
  }
}

// Revolute 2D joints on every kind of planar marker: ground body point, rigid-body points
// (MarkerBodyPosition, MarkerBodyRigid), a mass point with an offset, nodes of a rigid body, a
// point node and a ground node, one joint inactive; position and velocity level.
TEST(Constraints, PlanarRevoluteResidualEqualsGeneralPath) {
  Model m;
  const ObjectIndex ground = CreateGround(m, {0.1, -0.2, 0});
  const auto a = CreateRigidBody2D(m, "a", {0.5, 0}, 0.3, 1, 0.1);
  const auto b = CreateRigidBody2D(m, "b", {1.2, 0.4}, -0.7, 2, 0.2);
  NodePoint2D pn;
  pn.referenceCoordinates = {1.5, -0.3};
  ObjectMassPoint2D mp;
  mp.mass = 1;
  mp.nodeNumber = m.AddNode(pn);
  const ObjectIndex c = m.AddObject(mp);
  const NodeIndex g = m.AddNode(NodePointGround{});
  auto bodyPoint = [&](ObjectIndex body, Vector3D lp, bool rigid) { return BodyPoint(m, body, lp, rigid); };
  auto nodePoint = [&](NodeIndex n) { return NodePoint(m, n, false); };
  auto revolute = [&](MarkerIndex m0, MarkerIndex m1, bool active) {
    ObjectJointRevolute2D j;
    j.markerNumbers = {m0, m1};
    j.activeConnector = active;
    m.AddObject(j);
  };
  revolute(bodyPoint(ground, {0.3, 0.1, 0}, false), bodyPoint(a.body, {-0.5, 0.2, 0}, false), true);
  revolute(bodyPoint(a.body, {0.4, -0.1, 0}, true), bodyPoint(b.body, {-0.3, 0.25, 0}, false), true);
  revolute(nodePoint(b.node), bodyPoint(c, {0.05, -0.02, 0}, false), true);
  revolute(nodePoint(g), nodePoint(a.node), false);
  revolute(nodePoint(mp.nodeNumber), bodyPoint(b.body, {0.2, 0.1, 0}, true), true);
  ExpectResidualEqualsGeneralPath(m);
}

// Prismatic 2D joints on the markers the planar path takes (rigid-body points with z
// offsets, nodes of rigid bodies) and on the one it leaves to the general path (a ground body
// point); tilted axes and normals with z components, one joint without the rotation
// equation, one inactive.
TEST(Constraints, PlanarPrismaticResidualEqualsGeneralPath) {
  Model m;
  const ObjectIndex ground = CreateGround(m, {0.1, -0.2, 0.05});
  const auto a = CreateRigidBody2D(m, "a", {0.5, 0}, 0.3, 1, 0.1);
  const auto b = CreateRigidBody2D(m, "b", {1.2, 0.4}, -0.7, 2, 0.2);
  auto bodyPoint = [&](ObjectIndex body, Vector3D lp) { return BodyPoint(m, body, lp, true); };
  auto nodePoint = [&](NodeIndex n) { return NodePoint(m, n, true); };
  auto prismatic = [&](MarkerIndex m0, MarkerIndex m1, Vector3D axis, Vector3D normal, bool rotation, bool active) {
    ObjectJointPrismatic2D j;
    j.markerNumbers = {m0, m1};
    j.axisMarker0 = axis;
    j.normalMarker1 = normal;
    j.constrainRotation = rotation;
    j.activeConnector = active;
    m.AddObject(j);
  };
  prismatic(bodyPoint(a.body, {0.4, -0.1, 0.02}), bodyPoint(b.body, {-0.3, 0.25, 0.07}), {0.8, 0.6, 0}, {-0.6, 0.8, 0.1},
            true, true);
  prismatic(nodePoint(b.node), bodyPoint(a.body, {0.2, 0.1, 0}), {1, 0, 0.2}, {0, 1, 0}, false, true);
  prismatic(bodyPoint(b.body, {0.05, -0.02, 0.03}), nodePoint(a.node), {0.6, -0.8, 0}, {0.8, 0.6, 0}, true, true);
  prismatic(nodePoint(a.node), bodyPoint(b.body, {0, 0.2, 0}), {1, 0, 0}, {0, 1, 0}, true, false);
  prismatic(bodyPoint(ground, {0.3, 0.1, 0}), bodyPoint(a.body, {-0.5, 0.2, 0}), {1, 0, 0}, {0, 1, 0}, true, true);
  ExpectResidualEqualsGeneralPath(m);
}

// Coordinate constraints on node coordinates and ground coordinates (either marker), with a
// factor and an offset, a harmonic time function on the offset (its rate on the index-2
// level), one on velocity level, one inactive; position and velocity level.
TEST(Constraints, CoordinateConstraintResidualEqualsGeneralPath) {
  Model m;
  NodePoint2D pn;
  pn.referenceCoordinates = {0.4, -0.3};
  const NodeIndex point = m.AddNode(pn);
  const auto body = CreateRigidBody2D(m, "body", {0.5, 0.1}, 0.3, 1, 0.1);
  const NodeIndex ground = m.AddNode(NodePointGround{});
  auto coordinate = [&](NodeIndex n, int c) {
    MarkerNodeCoordinate mk;
    mk.nodeNumber = n;
    mk.coordinate = c;
    return m.AddMarker(mk);
  };
  auto constraint = [&](MarkerIndex m0, MarkerIndex m1, Real offset, Real factor, bool velocityLevel, bool active,
                        TimeFunction f = {}) {
    ObjectConnectorCoordinate cc;
    cc.markerNumbers = {m0, m1};
    cc.offset = offset;
    cc.factor1 = factor;
    cc.velocityLevel = velocityLevel;
    cc.activeConnector = active;
    cc.offsetTimeFunction = f;
    m.AddObject(cc);
  };
  TimeFunction harmonic;
  harmonic.type = TimeFunctionType::Harmonic;
  harmonic.amplitude = 0.7;
  harmonic.angularFrequency = 3;
  harmonic.phase = 0.2;
  harmonic.offset = 0.1;
  constraint(coordinate(point, 0), coordinate(body.node, 2), 0.3, 1.7, false, true);
  constraint(coordinate(ground, 0), coordinate(point, 1), -0.2, 1, false, true, harmonic);
  constraint(coordinate(body.node, 0), coordinate(ground, 1), 0.5, 2, false, true);
  constraint(coordinate(body.node, 1), coordinate(point, 0), 0.1, -0.6, true, true);
  constraint(coordinate(point, 1), coordinate(body.node, 2), 0.2, 1, false, false);
  ExpectResidualEqualsGeneralPath(m);
}

}  // namespace
}  // namespace mbsweep
