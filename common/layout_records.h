/// @file layout_records.h
/// Integer-record formats of compiled items (offsets into LayoutView::ints) and their
/// accessors for host/device code. Written by Model::Compile, read by the physics code.
///
/// Node record:    [nODE2, ode2Begin, nODE1, ode1Begin, nAE, aeBegin]
///                 (nAE = 1 for NodeRigidBodyEP with addConstraintEquation: the EP norm)
///   theta:        ODE2 nodes: referenceCoordinates[n], initialCoordinates[n], initialVelocities[n]
///                 ODE1 nodes: referenceCoordinates[n], initialCoordinates[n]
///                 NodePointGround: referenceCoordinates[3]
/// Object record:  [nLocalODE2, nLocalODE1, nAE, aeBegin, ltgODE2[nLocalODE2], ltgODE1[nLocalODE1], extra...]
///   extra:        bodies: [node]; ObjectGenericODE2: [hasM, hasK, hasD, hasF];
///                 ObjectGenericODE1: [hasA, hasB]; connectors: [marker0, marker1, activeConnector, ...]
///                 (ObjectConnectorCoordinateSpringDamper appends its user function's program, -1 if none;
///                 ObjectConnectorCoordinate velocityLevel, time function type and data)
///                 (ObjectJointSpherical / ObjectJointGeneric append constrainedAxes[3 / 6])
///   theta:        the item's Real fields in Fields() order (only given matrices/vectors)
/// Marker record:  [target (body object or node), node (-1 if none), coordinate, nCoords]
///   theta:        MarkerBodyPosition/MarkerBodyRigid: localPosition[3]; others none
/// Load record:    [marker, bodyFixed, timeFunctionType, timeFunctionData (Table: length; Expression: program),
///                  userFunction (the program of its first value, the others after it; -1: none)]
///   theta:        value (1 or 3), then the time function's parameters
/// Sensor record:  [target, outputVariableType]
///   theta:        SensorBody: localPosition[3]; others none
/// ODE2 force list: [kind, item, a, b] per entry (ForceEntry), at LayoutView::forceList: the
///                 objects and loads that may add to the ODE2 right-hand side, in item order
///                 (objects, then loads), with indices resolved when the model is compiled;
///                 the same entries once more in two lists, in the same order: the constant
///                 loads (constantForceList: SplitForceList) and the others
///                 (variableForceList)
/// Constraint list: at LayoutView::constraintList, the indices of the nodes with algebraic
///                 equations (nConstraintNodes), then of the constraint objects
///                 (nConstraintObjects), in item order
/// Planar marker table: at LayoutView::planarMarkers, [kind, ode2Begin, nODE2, itemTheta,
///                 markerTheta] per marker
///                 (PlanarMarker): how the marker's planar point is computed, decided when the
///                 model is compiled
/// Elimination table: at LayoutView::eliminationTable, [ode2, object] per entry
///                 (nEliminated entries, in item order): the coordinate constraints that the
///                 explicit solvers eliminate (simulationSettings.timeIntegration.
///                 explicitIntegration.eliminateConstraints, as Exudyn's explicit solver):
///                 each active ObjectConnectorCoordinate whose markers are a MarkerNodeCoordinate
///                 on a NodePointGround and a MarkerNodeCoordinate on a node with ODE2
///                 coordinates (velocityLevel false); ode2 is the global index of the
///                 constrained coordinate (the node's first ODE2 index + the marker's
///                 coordinate), object the constraint (its theta: offset, factor1, ...).
///                 An inactive one (activeConnector false, lambda = 0) is eliminable but not
///                 listed: its coordinate stays free. LayoutView::constraintsEliminable is 0 if
///                 some algebraic equation is of another kind (Layout::eliminationRefusal).
#pragma once

#include <type_traits>

#include "common/layout.h"

namespace mbsweep {

/// Decoded node record.
struct NodeRecord {
  int nODE2, ode2Begin, nODE1, ode1Begin, nAE, aeBegin;
};
MBS_HD_INLINE NodeRecord GetNodeRecord(const LayoutView& L, int i) {
  const int* r = L.ints + L.node[i].ints;
  return NodeRecord{r[0], r[1], r[2], r[3], r[4], r[5]};
}

/// Decoded object record.
struct ObjectRecord {
  int nLocalODE2, nLocalODE1, nAE, aeBegin;
  const int* ltgODE2;  ///< global ODE2 index of each local ODE2 coordinate
  const int* ltgODE1;  ///< global ODE1 index of each local ODE1 coordinate
  const int* extra;    ///< kind-specific integers
};
MBS_HD_INLINE ObjectRecord GetObjectRecord(const LayoutView& L, int i) {
  const int* r = L.ints + L.object[i].ints;
  return ObjectRecord{r[0], r[1], r[2], r[3], r + 4, r + 4 + r[0], r + 4 + r[0] + r[1]};
}
/// Length of an object record header before `extra`.
constexpr int kObjectRecordHeader = 4;

/// Decoded marker record.
struct MarkerRecord {
  int target, node, coordinate, nCoords;
};
MBS_HD_INLINE MarkerRecord GetMarkerRecord(const LayoutView& L, int i) {
  const int* r = L.ints + L.marker[i].ints;
  return MarkerRecord{r[0], r[1], r[2], r[3]};
}

/// Decoded load record.
struct LoadRecord {
  int marker, bodyFixed, timeFunctionType;
  int timeFunctionData;  ///< Table: its length; Expression: the offset of its program in ints
  int userFunction;      ///< loadUserFunction / loadVectorUserFunction: its first program in ints; -1: none
};
MBS_HD_INLINE LoadRecord GetLoadRecord(const LayoutView& L, int i) {
  const int* r = L.ints + L.load[i].ints;
  return LoadRecord{r[0], r[1], r[2], r[3], r[4]};
}

/// Decoded sensor record.
struct SensorRecord {
  int target, outputVariableType;
};
MBS_HD_INLINE SensorRecord GetSensorRecord(const LayoutView& L, int i) {
  const int* r = L.ints + L.sensor[i].ints;
  return SensorRecord{r[0], r[1]};
}

/// Kind of an ODE2 force-list entry [kind, item, a, b]; item is an object or load index.
enum class ForceEntry : int {
  CoordinateSpringDamper = 0,  ///< active coordinate spring-damper; a, b: global ODE2 index of each side (-1: ground)
  LocalObject = 1,             ///< body or connector with a local right-hand side; a: 1 for a body (its
                               ///< velocity terms depend on its parameters: ConstantMass)
  GenericODE2 = 2,             ///< ObjectGenericODE2 (its K, D, F)
  CoordinateLoad = 3,          ///< LoadCoordinate on a node coordinate; a: its global ODE2 index
  Load = 4,                    ///< force, torque or mass-proportional load
  BodyMassLoad = 5,            ///< LoadMassProportional on a point mass or rigid body; a: the body,
                               ///< b: its first global ODE2 index
  CoordinateSpringDamperUser = 6,  ///< CoordinateSpringDamper with springForceUserFunction; a, b as there
};
constexpr int kForceEntryInts = 4;

/// Kind of a planar marker table entry [kind, ode2Begin, nODE2, itemTheta, markerTheta]
/// (PlanarMarkerKinematics): markers on the ground or on planar bodies and nodes (the item: an
/// object or node); ode2Begin and nODE2 are the node's global coordinates (0, 0 on the
/// ground), itemTheta and markerTheta the theta offsets of the item's and the marker's
/// parameters (copied from their records, so that a residual reads them without going through
/// the records: 0 for `none`).
enum class PlanarMarker : int {
  none = 0,        ///< not a planar point: MarkerKinematics
  groundBody = 1,  ///< body marker on ObjectGround (item: the object)
  groundNode = 2,  ///< node marker on NodePointGround (item: the node)
  node = 3,        ///< node marker on NodePoint2D or NodeRigidBody2D (item: the node)
  massPoint =
      4,  ///< body marker on ObjectMassPoint2D on a NodePoint2D (item: its node; localPosition is a fixed offset)
  rigidBody = 5,  ///< body marker on ObjectRigidBody2D (item: its node; localPosition turns with it)
};
constexpr int kPlanarMarkerInts = 5;

/// A loop over a model's items: ForEachIndex(MBS_ITEM_COUNT(count), body) calls the generic lambda
/// body(k) for k from 0 to count - 1. In the interpreter a loop, k an int. In code generated for
/// one model, count is a constant expression of the constant layout (MBS_LAYOUT_CONSTANT) and, up
/// to kMaxUnrolledItems items, the calls are written out one by one, k a std::integral_constant:
/// each call is a function of its own, inlined, in which the item's index, read from the constant
/// layout by the constexpr accessors below, is a constant expression; its kind, records and
/// indices fold at compile time, and its dispatch into its one case before the inliner weighs the
/// item's physics (the slider-crank's constraint residual: half the instructions of the loop).
/// Code generated for one model includes this header after its constants.
constexpr int kMaxUnrolledItems = 64;
template <class F> MBS_HD_FORCEINLINE void ForEachIndex(int count, const F& body) {
  MBS_UNROLL for (int k = 0; k < count; ++k) body(k);
}
#ifdef MBSWEEP_MODEL_LAYOUT
#define MBS_ITEM_COUNT(count) std::integral_constant<int, (count)>()
template <int K, int N, class F> MBS_HD_FORCEINLINE void ForEachIndexFrom(const F& body) {
  if constexpr (K < N) {
    body(std::integral_constant<int, K>());
    ForEachIndexFrom<K + 1, N>(body);
  }
}
template <int N, class F> MBS_HD_FORCEINLINE void ForEachIndex(std::integral_constant<int, N>, const F& body) {
  if constexpr (N <= kMaxUnrolledItems) {
    ForEachIndexFrom<0, N>(body);
  } else {
    ForEachIndex(N, body);
  }
}
#else
#define MBS_ITEM_COUNT(count) (count)
#endif

/// Node index of the k-th node with algebraic equations (k < nConstraintNodes).
MBS_HD_INLINE int ConstraintNode(const LayoutView& L, int k) { return L.ints[L.constraintList + k]; }
/// Object index of the k-th constraint object (k < nConstraintObjects).
MBS_HD_INLINE constexpr int ConstraintObject(const LayoutView& L, int k) {
  return L.ints[L.constraintList + L.nConstraintNodes + k];
}

/// Ints per entry of the elimination table: [ode2, object].
constexpr int kEliminationEntryInts = 2;
/// Global ODE2 index of the k-th coordinate that explicit solvers eliminate (k < nEliminated).
MBS_HD_INLINE int EliminatedCoordinate(const LayoutView& L, int k) {
  return L.ints[L.eliminationTable + kEliminationEntryInts * k];
}
/// Object index of the coordinate constraint of the k-th eliminated coordinate.
MBS_HD_INLINE int EliminatedConstraint(const LayoutView& L, int k) {
  return L.ints[L.eliminationTable + kEliminationEntryInts * k + 1];
}

/// True if an explicit solver with eliminateConstraints can integrate the model with this
/// theta row: every algebraic equation is eliminable (constraintsEliminable) and each
/// eliminated constraint has offset 0 and factor1 1 (the elimination sets the
/// coordinate to 0, whatever these say; the host refuses other values with a message).
MBS_HD_INLINE bool ConstraintsEliminable(const LayoutView& L, const Real* theta) {
  if (!L.constraintsEliminable) return false;
  for (int k = 0; k < L.nEliminated; ++k) {
    const Real* p = theta + L.object[EliminatedConstraint(L, k)].theta;  // offset, factor1, ...
    if (p[0] != 0 || p[1] != 1) return false;
  }
  return true;
}

/// Largest number of coordinates of a node with position/orientation (rigid EP node).
constexpr int kMaxNodeCoords = 7;
/// Largest number of local ODE2 coordinates of a connector/joint (two rigid EP nodes).
constexpr int kMaxConnectorCoords = 2 * kMaxNodeCoords;

}  // namespace mbsweep
