/// @file item_types.h
/// The value types item fields are made of (vectors, matrices, time functions), the field
/// visitor protocol every item follows, and what sensors share. The items themselves live in
/// common/items/<Name>.h, one file each; common/items.h gathers them.
///
/// Coordinates of nodes are displacements relative to `referenceCoordinates`.
#pragma once

#include <array>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/kinds.h"
#include "common/rules.h"
#include "common/types.h"

namespace mbsweep {

using Vector1D = std::array<Real, 1>;
using Vector2D = std::array<Real, 2>;
using Vector3D = std::array<Real, 3>;
using Vector6D = std::array<Real, 6>;
using Vector7D = std::array<Real, 7>;
using Vector = std::vector<Real>;

/// A field's name in Exudyn before 1.12.258 (an item's `fieldAliases`): the readers take it
/// for the current name, which is the one every message, path and output uses.
struct FieldAlias {
  const char* old;
  const char* current;
};

/// The item's earlier field names (none for most items).
template <class T, class = void> struct ItemFieldAliases {
  static constexpr const FieldAlias* begin() { return nullptr; }
  static constexpr const FieldAlias* end() { return nullptr; }
};
template <class T> struct ItemFieldAliases<T, std::void_t<decltype(T::fieldAliases)>> {
  static constexpr const FieldAlias* begin() { return std::begin(T::fieldAliases); }
  static constexpr const FieldAlias* end() { return std::end(T::fieldAliases); }
};
/// Exudyn's short name of the item type (MassPoint for ObjectMassPoint); nullptr if it has none.
template <class T, class = void> struct ItemShortName {
  static constexpr const char* value = nullptr;
};
template <class T> struct ItemShortName<T, std::void_t<decltype(T::shortName)>> {
  static constexpr const char* value = T::shortName;
};

namespace detail {
/// A field visitor that collects the field names (FieldNamesOf).
struct FieldNameCollector {
  std::vector<std::string> names;
  template <class T, class... R> void operator()(const char* n, T&, R...) { names.emplace_back(n); }
};
}  // namespace detail

/// 3x3 matrix, row-major; defaults to the identity (rotation matrices in Exudyn do).
struct Matrix3D {
  std::array<Real, 9> data{1, 0, 0, 0, 1, 0, 0, 0, 1};
};
/// 6x6 matrix, row-major; defaults to zeros.
struct Matrix6D {
  std::array<Real, 36> data{};
};
/// Dense matrix, row-major. An empty matrix (0x0) means "not given".
struct Matrix {
  int rows = 0, cols = 0;
  std::vector<Real> data;
  Matrix() = default;
  Matrix(int r, int c, std::vector<Real> d) : rows(r), cols(c), data(std::move(d)) {}
  Real operator()(int i, int j) const { return data[static_cast<size_t>(i * cols + j)]; }
};

/// A time function scaling a load value: load(t) = value * f(t), built in or an expression of
/// t. Only the parameters of the selected type are part of the model's theta.
struct TimeFunction {
  TimeFunctionType type = TimeFunctionType::Constant;
  Real amplitude = 1;         ///< Harmonic, Sweep
  Real angularFrequency = 0;  ///< Harmonic: omega in rad/s
  Real phase = 0;             ///< Harmonic: phase in rad
  Real offset = 0;            ///< Harmonic: constant added to the sine
  Real startFrequency = 0;    ///< Sweep: f0 in Hz
  Real endFrequency = 0;      ///< Sweep: f1 in Hz
  Real duration = 1;          ///< Sweep: T in s (PReal)
  Real startTime = 0;         ///< Ramp
  Real endTime = 0;           ///< Ramp (>= startTime; equal means a step)
  Real startValue = 0;        ///< Ramp
  Real endValue = 1;          ///< Ramp
  Vector times;               ///< Table: strictly increasing sample times
  Vector values;              ///< Table: values at `times`
  std::string expression;     ///< Expression: muParser text in t and the names of `parameters`
  /// Expression: named values the text uses (each a theta slot "<field>.<name>", varied by a
  /// study like any other number).
  std::vector<std::pair<std::string, Real>> parameters;

  static TimeFunction Harmonic(Real amplitude, Real omega, Real phase = 0, Real offset = 0);
  static TimeFunction Sweep(Real amplitude, Real f0, Real f1, Real duration);
  static TimeFunction Ramp(Real t0, Real t1, Real v0 = 0, Real v1 = 1);
  static TimeFunction Step(Real t0, Real v0 = 0, Real v1 = 1) { return Ramp(t0, t0, v0, v1); }
  static TimeFunction Table(Vector times, Vector values);
  static TimeFunction Expression(std::string text, std::vector<std::pair<std::string, Real>> parameters = {});
};

/// A user function written as an expression (muParser syntax, common/expression.h) of the
/// arguments its field names (a spring force: t, u, v, k, d, offset) and of named parameters,
/// each a theta slot "<field>.<name>" that a study varies like any other number. A vector
/// function's text is its components separated by commas ("F*cos(w*t), F*sin(w*t), 0"). An
/// empty expression means none (the item's built-in law).
struct UserFunction {
  std::string expression;
  std::vector<std::pair<std::string, Real>> parameters;
};
/// The arguments of the vector loads' loadVectorUserFunction (Exudyn's (mbs, t, loadVector)):
/// its value is the load vector.
constexpr const char* kLoadVectorUserFunctionArgs = "t, loadVector[0], loadVector[1], loadVector[2]";
/// The argument names of a user-function field, from its list "t, u, v".
inline std::vector<std::string> UserFunctionArgs(const char* list) {
  std::vector<std::string> names(1);
  for (const char* c = list; *c; ++c) {
    if (*c == ',') names.emplace_back();
    else if (*c != ' ') names.back() += *c;
  }
  return names;
}

// ----------------------------------------------------------------------------------------
// Field visitor protocol: an item calls, for each field in order,
//   v(name, Real&, Rule)                     Real parameter (part of theta)
//   v(name, std::array<Real,N>&, Rule)       fixed vector (part of theta)
//   v(name, Vector&, Rule)                   variable vector (part of theta)
//   v(name, Matrix3D& | Matrix6D& | Matrix&) matrices (part of theta)
//   v(name, TimeFunction&)                   time function (its parameters join theta)
//   v(name, UserFunction&, "t, u, ...", n)   user function of n values (default 1), its argument names
//                                            (its parameters join theta)
//   v(name, bool&), v(name, int&, Rule)      structural flags / integers
//   v(name, std::array<int,N>&)              axis flags, each 0 or 1 (structure; Exudyn's ArrayIndex)
//   v(name, NodeIndex& | ObjectIndex& | ...) item references (structure)
//   v(name, std::vector<NodeIndex>&), v(name, std::array<MarkerIndex,2>&)
//   v(name, OutputVariableType&), v(name, std::string&)
// ----------------------------------------------------------------------------------------

/// Common sensor settings (Exudyn's field names).
struct SensorCommon {
  bool writeToFile = true;  ///< ignored when fileName is empty
  std::string fileName;
  bool storeInternal = false;
  template <class V> void CommonFields(V& v) {
    v("writeToFile", writeToFile);
    v("fileName", fileName);
    v("storeInternal", storeInternal);
  }
};

/// Exudyn's name of an output variable type, e.g. "Position".
const char* OutputVariableTypeName(OutputVariableType t);
/// Parses an output variable type name; throws ValidationError listing the valid names.
OutputVariableType ParseOutputVariableType(const std::string& name);

/// The fields a study file may give for an item of type T: "name", then its Fields() in order.
template <class T> std::vector<std::string> FieldNamesOf() {
  detail::FieldNameCollector c;
  c.names.emplace_back("name");
  T item{};
  item.Fields(c);
  return c.names;
}

}  // namespace mbsweep
