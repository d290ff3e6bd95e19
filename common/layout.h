/// @file layout.h
/// The compiled, immutable, pointer-free model structure shared read-only by every system
/// of a batch, plus the theta vector that holds every Real parameter of the model.
///
/// Structure vs numbers: item kinds, item references, coordinate indices and counts live in
/// integer arrays; all Real parameters (masses, stiffnesses, reference and initial
/// coordinates, local positions, load values, time-function parameters, ...) live in one
/// flat `theta` vector. A batch is one layout plus P rows of theta.
///
/// Integer record of each item kind (offsets into `ints`, documented per kind in
/// layout_records.h), and Real record (offsets into theta).
#pragma once

#include <string>
#include <vector>

#include "common/kinds.h"
#include "common/rules.h"
#include "common/types.h"

namespace mbsweep {

struct Layout;
struct ExpressionHost;  // common/expression.h

/// One item of the compiled structure: its kind, where its integer record starts in
/// LayoutView::ints and where its Real parameters start in theta.
struct ItemRec {
  int kind;   ///< NodeKind / ObjectKind / MarkerKind / LoadKind / SensorKind as int
  int ints;   ///< offset of the item's integer record in LayoutView::ints
  int theta;  ///< offset of the item's first Real parameter in theta
};

/// Non-owning view of a compiled layout; valid on host or device depending on where its
/// arrays live. Trivially copyable (passed by value to kernels).
struct LayoutView {
  int nODE2 = 0;   ///< number of second-order coordinates (q, q_t, q_tt)
  int nODE1 = 0;   ///< number of first-order coordinates (y)
  int nAE = 0;     ///< number of algebraic variables (Lagrange multipliers)
  int nTheta = 0;  ///< length of a theta row
  int nNodes = 0, nObjects = 0, nMarkers = 0, nLoads = 0, nSensors = 0;
  const ItemRec* node = nullptr;    ///< [nNodes]
  const ItemRec* object = nullptr;  ///< [nObjects]
  const ItemRec* marker = nullptr;  ///< [nMarkers]
  const ItemRec* load = nullptr;    ///< [nLoads]
  const ItemRec* sensor = nullptr;  ///< [nSensors]
  const int* ints = nullptr;        ///< integer records of all items
  int constantMassMatrix = 1;       ///< 1 if the mass matrix does not depend on q
  int maxLocalODE2 = 0;             ///< largest number of ODE2 coordinates of one object
  int forceList = 0;                ///< offset in ints of the ODE2 force list (layout_records.h)
  int nForces = 0;                  ///< entries in the ODE2 force list
  int constantForceList = 0;        ///< offset in ints of the constant force list (layout_records.h)
  int nConstantForces = 0;          ///< its entries
  int variableForceList = 0;        ///< offset in ints of the variable force list (layout_records.h)
  int nVariableForces = 0;          ///< its entries
  int constraintList = 0;           ///< offset in ints of the constraint list (layout_records.h)
  int nConstraintNodes = 0;         ///< nodes with algebraic equations (first in the constraint list)
  int nConstraintObjects = 0;       ///< constraint objects (after the nodes in the constraint list)
  int planarMarkers = 0;            ///< offset in ints of the planar marker table (layout_records.h)
  int eliminationTable = 0;         ///< offset in ints of the explicit solvers' elimination table (layout_records.h)
  int nEliminated = 0;              ///< its entries (active coordinate constraints to ground)
  /// 1 if an explicit solver can eliminate every algebraic equation (no node equations,
  /// every constraint object an eliminable coordinate constraint: layout_records.h)
  int constraintsEliminable = 1;
  /// The reference solver's evaluator of the model's expressions (muParser), or nullptr: the
  /// programs in `ints` are evaluated (common/expression.h). Host only.
  const ExpressionHost* expressionHost = nullptr;
};

/// Code generated for one model (common/codegen.h) defines MBSWEEP_MODEL_LAYOUT as its
/// constexpr LayoutView before any header: the integrators and the objective observer then hold
/// the layout and its sizes as compile-time constants instead of members, every call passes the
/// one constant, and the compiler can fold the structure (counts, kinds, indices) where it
/// inlines. The layout member is then a static mbsweep_model::ModelLayout, which the generated
/// source defines after its constants: without state, it converts to the constant at compile
/// time (device code cannot read a static reference member, and a conversion through `this`
/// kept the integrator's object, and with it the whole workspace, in a kernel's local memory).
/// Without it (the interpreter and its kernels) they are members set from the constructor's
/// layout. MBS_LAYOUT_CONSTANT(L) is the constant itself in generated code (a reference
/// initialized with it is usable in constant expressions, the parameter L is not), L otherwise.
#ifdef MBSWEEP_MODEL_LAYOUT
#define MBS_LAYOUT_MEMBER(name) static constexpr mbsweep_model::ModelLayout name{}
#define MBS_LAYOUT_SIZE_MEMBER(name, field) static constexpr int name = MBSWEEP_MODEL_LAYOUT.field
#define MBS_LAYOUT_INIT(name, value)
#define MBS_LAYOUT_SIZE_INIT(name, value)
#define MBS_LAYOUT_CONSTANT(L) MBSWEEP_MODEL_LAYOUT
#else
#define MBS_LAYOUT_MEMBER(name) const LayoutView& name
#define MBS_LAYOUT_SIZE_MEMBER(name, field) int name = 0
#define MBS_LAYOUT_INIT(name, value) name(value),
#define MBS_LAYOUT_SIZE_INIT(name, value) name = value;
#define MBS_LAYOUT_CONSTANT(L) L
#endif

/// A user-function expression of the model (common/expression.h): where its program starts in
/// Layout::ints, its text and the names of its arguments and parameters (its theta slots).
struct ExpressionInfo {
  int program = 0;
  std::string owner;  ///< "load0.timeFunction"
  std::string text;
  std::vector<std::string> args, params;
};

/// Owning, host-side compiled layout.
struct Layout {
  int nODE2 = 0, nODE1 = 0, nAE = 0;
  std::vector<ItemRec> nodes, objects, markers, loads, sensors;
  std::vector<int> ints;
  bool constantMassMatrix = true;
  int maxLocalODE2 = 0;
  int forceList = 0, nForces = 0;                                 ///< see LayoutView
  int constantForceList = 0, nConstantForces = 0;                 ///< see LayoutView
  int variableForceList = 0, nVariableForces = 0;                 ///< see LayoutView
  int constraintList = 0, nConstraintNodes = 0, nConstraintObjects = 0;  ///< see LayoutView
  int planarMarkers = 0;                                                ///< see LayoutView
  int eliminationTable = 0, nEliminated = 0;                            ///< see LayoutView
  bool constraintsEliminable = true;                                    ///< see LayoutView
  /// Why an explicit solver with eliminateConstraints cannot eliminate the first constraint
  /// object it cannot ("" if it can eliminate all of them): names the item, the field and
  /// the rule. Node equations (NodeRigidBodyEP) are not covered; explicit solvers refuse
  /// those nodes by their kind.
  std::string eliminationRefusal;
  /// Human-readable path of each theta slot, e.g. "spring.stiffness" or
  /// "n0.initialVelocities[0]"; same length as a theta row.
  std::vector<std::string> thetaPaths;
  /// Rule of each theta slot (PReal, UReal, Real), for per-system checks of parameter rows.
  std::vector<Rule> thetaRules;
  /// Names of the items (given or Exudyn-style default names node0, object3, ...).
  std::vector<std::string> nodeNames, objectNames, markerNames, loadNames, sensorNames;
  /// Owner of each AE variable (for messages): the object index, or -1 for an equation
  /// owned by a node (then aeOwnerNode holds the node index, otherwise -1). Node equations
  /// (the Euler-parameter norm of NodeRigidBodyEP) come first, then object equations.
  std::vector<int> aeOwnerObject;
  std::vector<int> aeOwnerNode;
  /// The model's expressions, in the order of their programs in `ints`.
  std::vector<ExpressionInfo> expressions;

  LayoutView View() const;
  int ThetaSize() const { return static_cast<int>(thetaPaths.size()); }
  /// Index of the theta slot with the given path; throws ValidationError naming the
  /// closest known paths if there is none.
  int ThetaIndex(const std::string& path) const;
};

}  // namespace mbsweep
