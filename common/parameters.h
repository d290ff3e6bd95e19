/// @file parameters.h
/// Study parameters mapped onto theta rows: a study parameter binds to a theta slot by its
/// path (`spring.stiffness`, `crank.centerOfMass[0]`), or a theta slot is defined as
/// an expression of study parameters (`m1*L1^2/12`, muParser syntax), evaluated per system
/// when the theta rows of a batch are built. Host only.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/layout.h"

namespace mbsweep {

/// Builds theta rows from study-parameter vectors.
class ParameterMap {
 public:
  /// theta0: the model's theta (Model::Theta0()), the values of every unbound slot.
  ParameterMap(const Layout& layout, std::vector<Real> theta0);
  ~ParameterMap();
  ParameterMap(ParameterMap&&) noexcept;
  ParameterMap& operator=(ParameterMap&&) noexcept;

  /// Declares the study parameters. Names are identifiers (letters, digits, '_', not
  /// starting with a digit); throws ValidationError otherwise or for duplicates.
  void SetParameters(const std::vector<std::string>& names);
  /// theta[path] = study parameter `parameter`. Throws ValidationError for an unknown path
  /// (with near matches) or an undeclared parameter.
  void Bind(const std::string& path, const std::string& parameter);
  /// theta[path] = expression of the study parameters. Throws ValidationError naming the
  /// path, the expression and the parser's message for a malformed expression or an
  /// unknown variable.
  void Define(const std::string& path, const std::string& expression);

  /// True if a binding or definition sets theta slot `thetaIndex` (its value may differ
  /// between rows); false for a slot that keeps the model's value.
  bool Varies(int thetaIndex) const;

  int NumParameters() const { return static_cast<int>(names_.size()); }
  const std::vector<std::string>& ParameterNames() const { return names_; }
  int ThetaSize() const { return static_cast<int>(theta0_.size()); }
  const std::vector<Real>& Theta0() const { return theta0_; }

  /// Fills one theta row (ThetaSize values) from one parameter vector (NumParameters
  /// values). Returns an empty string if every bound or defined slot satisfies its rule,
  /// otherwise a message naming the path, value and rule (the system's status is then
  /// invalid_parameter; the row is still filled). Not thread-safe (shares parser state).
  std::string BuildRow(const Real* parameters, Real* row) const;

 private:
  struct Definition;
  const Layout* layout_;
  std::vector<Real> theta0_;
  std::vector<std::string> names_;
  std::vector<std::pair<int, int>> bindings_;  // (theta index, parameter index)
  std::vector<std::unique_ptr<Definition>> definitions_;
  std::unique_ptr<std::vector<double>> variables_;  // parser variables (stable addresses)
};

}  // namespace mbsweep
