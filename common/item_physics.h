/// @file item_physics.h
/// What an item file declares beyond its fields, and the types its host/device physics
/// functions take. Every object names its category; the core (system.h, outputs.h, model.cpp)
/// dispatches on it through the generated item list, so an item's force law and outputs live
/// in its own file. A position connector (category PositionConnector) declares:
///   struct Params { ... };   its Real fields, in Fields() order (the item derives from it, so
///                            the fields are read by name on the host and on the device)
///   static constexpr OutputVariableType outputs[] = {...};   what a SensorObject may ask for
///   MBS_HD static void Evaluate(const Params& p, PositionConnectorState& s, bool active);
///                            the force law: s.k0, s.k1 (marker kinematics) are given
/// docs/adding-an-item.md walks through a new one.
#pragma once

#include <array>
#include <type_traits>

#include "common/kinematics.h"

namespace mbsweep {

/// How the core treats an object.
enum class ObjectCategory : int {
  Ground,               ///< fixed body without coordinates
  Body,                 ///< node-based body with a mass matrix
  Generic,              ///< ObjectGenericODE2 / ObjectGenericODE1 (matrices)
  PositionConnector,    ///< force law between two position markers (Evaluate)
  RigidConnector,       ///< force/torque law between two Position+Orientation markers
  CoordinateConnector,  ///< force law between two coordinates
  Constraint,           ///< algebraic equations (Lagrange multipliers)
};

/// State of a position connector: the kinematics of its markers (given), its force law's
/// results (Evaluate fills them; the force is zero when the connector is inactive).
struct PositionConnectorState {
  Kinematics k0, k1;
  Vec3 force;         ///< force vector acting on marker 0 (marker 1 gets -force)
  Real scalarForce;   ///< scalar force along the connector (OutputVariableType::ForceLocal)
  Vec3 displacement;  ///< OutputVariableType::Displacement
  Vec3 velocity;      ///< OutputVariableType::Velocity
  Real distance;      ///< OutputVariableType::Distance
};

/// The typed parameters of an item whose Real fields are a fixed-size Params struct, read in
/// place from the item's theta slots (item T derives from T::Params; theta holds its Real
/// fields in Fields() order, which tests/items/test_item_params.cpp checks for every item).
template <class T> MBS_HD_INLINE const typename T::Params& ParamsAt(const Real* itemTheta) {
  static_assert(std::is_standard_layout_v<typename T::Params> && std::is_trivially_copyable_v<typename T::Params>,
                "an item's Params is a plain struct of Real fields");
  static_assert(sizeof(typename T::Params) % sizeof(Real) == 0, "an item's Params holds Real fields only");
  return *reinterpret_cast<const typename T::Params*>(itemTheta);
}

/// Converts a fixed-size vector field to the physics vector type.
MBS_HD_INLINE Vec3 ToVec3(const std::array<Real, 3>& a) { return MakeVec3(a[0], a[1], a[2]); }

}  // namespace mbsweep
