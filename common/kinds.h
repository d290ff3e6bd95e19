/// @file kinds.h
/// Item kinds and output variable types as plain enums shared by the host model, the
/// compiled layout and host/device physics code. The item kinds come from the generated item
/// list (one item per file in common/items/, in file-name order).
#pragma once

#include "common/hostdevice.h"
#include "mbsweep/item_list.h"

namespace mbsweep {

#define MBS_KIND_ENUMERATOR(Type, Kind) Kind,

/// Node kinds: the Exudyn name without the "Node" prefix, one per file common/items/Node*.h.
enum class NodeKind : int { MBS_NODE_ITEMS(MBS_KIND_ENUMERATOR) Count };

/// Object kinds: the Exudyn name without the "Object" prefix, one per file common/items/Object*.h.
enum class ObjectKind : int { MBS_OBJECT_ITEMS(MBS_KIND_ENUMERATOR) Count };

/// Marker kinds, one per file common/items/Marker*.h.
enum class MarkerKind : int { MBS_MARKER_ITEMS(MBS_KIND_ENUMERATOR) Count };

/// Load kinds, one per file common/items/Load*.h.
enum class LoadKind : int { MBS_LOAD_ITEMS(MBS_KIND_ENUMERATOR) Count };

/// Sensor kinds, one per file common/items/Sensor*.h.
enum class SensorKind : int { MBS_SENSOR_ITEMS(MBS_KIND_ENUMERATOR) Count };

/// The kinds of one model. Code generated for one model (common/codegen.h) defines
/// MBSWEEP_MODEL_{NODE,OBJECT,MARKER,LOAD,SENSOR}_KINDS, bit sets of the kinds its layout holds
/// (bit k: kind k); ModelHasKind is then false for the kinds it lacks, and the dispatches over
/// the items leave those items' code out: no item of the model can reach it. Without them (the
/// interpreter) every kind may occur.
namespace detail {
template <class Enum> struct ModelKinds {
  static constexpr unsigned long long bits = ~0ull;
};
#define MBS_MODEL_KINDS(Enum, BITS)                  \
  static_assert(static_cast<int>(Enum::Count) <= 64); \
  template <> struct ModelKinds<Enum> {              \
    static constexpr unsigned long long bits = BITS; \
  };
#ifdef MBSWEEP_MODEL_NODE_KINDS
MBS_MODEL_KINDS(NodeKind, MBSWEEP_MODEL_NODE_KINDS)
#endif
#ifdef MBSWEEP_MODEL_OBJECT_KINDS
MBS_MODEL_KINDS(ObjectKind, MBSWEEP_MODEL_OBJECT_KINDS)
#endif
#ifdef MBSWEEP_MODEL_MARKER_KINDS
MBS_MODEL_KINDS(MarkerKind, MBSWEEP_MODEL_MARKER_KINDS)
#endif
#ifdef MBSWEEP_MODEL_LOAD_KINDS
MBS_MODEL_KINDS(LoadKind, MBSWEEP_MODEL_LOAD_KINDS)
#endif
#ifdef MBSWEEP_MODEL_SENSOR_KINDS
MBS_MODEL_KINDS(SensorKind, MBSWEEP_MODEL_SENSOR_KINDS)
#endif
#undef MBS_MODEL_KINDS
}  // namespace detail
/// False if kind k cannot occur in the model the code is compiled for (see above).
template <class Enum> MBS_HD_INLINE constexpr bool ModelHasKind(Enum k) {
  return (detail::ModelKinds<Enum>::bits >> static_cast<int>(k)) & 1ull;
}

#define MBS_KIND_NAME(Type, Kind) #Kind,
#define MBS_TYPE_NAME(Type, Kind) #Type,
/// The kind's name ("Point", "ConnectorSpringDamper", "Node" for SensorNode) and the item's
/// type name ("NodePoint", "ObjectConnectorSpringDamper", "SensorNode"); host only.
#define MBS_KIND_NAMES(Enum, LIST)                            \
  inline const char* KindName(Enum k) {                       \
    static const char* const names[] = {LIST(MBS_KIND_NAME)}; \
    return names[static_cast<int>(k)];                        \
  }                                                           \
  inline const char* TypeName(Enum k) {                       \
    static const char* const names[] = {LIST(MBS_TYPE_NAME)}; \
    return names[static_cast<int>(k)];                        \
  }
MBS_KIND_NAMES(NodeKind, MBS_NODE_ITEMS)
MBS_KIND_NAMES(ObjectKind, MBS_OBJECT_ITEMS)
MBS_KIND_NAMES(MarkerKind, MBS_MARKER_ITEMS)
MBS_KIND_NAMES(LoadKind, MBS_LOAD_ITEMS)
MBS_KIND_NAMES(SensorKind, MBS_SENSOR_ITEMS)
#undef MBS_KIND_NAMES
#undef MBS_TYPE_NAME
#undef MBS_KIND_NAME

/// Built-in time functions that scale a load (or a constraint offset); their Real
/// parameters live in theta like every other number.
enum class TimeFunctionType : int {
  Constant = 0,  ///< f(t) = 1
  Harmonic,      ///< f(t) = offset + amplitude*sin(angularFrequency*t + phase)
  Sweep,         ///< f(t) = amplitude*sin(2*pi*(f0*t + (f1-f0)*t^2/(2*T))) (t <= T), frequency f1 after T
  Ramp,          ///< startValue before startTime, endValue after endTime, linear in between (a step if equal)
  Table,         ///< piecewise-linear through (times[i], values[i]), constant beyond the ends
  Expression,    ///< a muParser expression of t and its named parameters (common/expression.h)
};

/// Dynamic solver types (Exudyn's DynamicSolverType). Shared by the CPU settings and the
/// host/device integrators (common/explicit_rk.h), hence a plain enum here.
enum class DynamicSolverType : int {
  GeneralizedAlpha = 0,
  TrapezoidalIndex2,
  ExplicitEuler,
  ExplicitMidpoint,
  RK33,
  RK44,
  RK67,
  ODE23,
  DOPRI5,
  VelocityVerlet,
};
/// The number of DynamicSolverType values (0 .. kDynamicSolverTypeCount - 1).
constexpr int kDynamicSolverTypeCount = 10;

/// Output variable types (Exudyn's OutputVariableType names).
enum class OutputVariableType : int {
  _None = 0,
  Distance,
  Position,
  Displacement,
  DisplacementLocal,
  Velocity,
  VelocityLocal,
  Acceleration,
  AccelerationLocal,
  RotationMatrix,
  AngularVelocity,
  AngularVelocityLocal,
  AngularAcceleration,
  AngularAccelerationLocal,
  Rotation,
  CoordinatesTotal,
  Coordinates,
  Coordinates_t,
  Coordinates_tt,
  SlidingCoordinate,
  Force,
  ForceLocal,
  Torque,
  TorqueLocal,
  ConstraintEquation,
  KineticEnergy,
  PotentialEnergy,
  Count
};

}  // namespace mbsweep
