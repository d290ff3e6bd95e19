#include "common/parameters.h"

#include <muParser.h>

#include "common/expression_compiler.h"

namespace mbsweep {

struct ParameterMap::Definition {
  int thetaIndex;
  std::string expression;
  mu::Parser parser;
};

ParameterMap::ParameterMap(const Layout& layout, std::vector<Real> theta0)
    : layout_(&layout), theta0_(std::move(theta0)), variables_(std::make_unique<std::vector<double>>()) {
  if (static_cast<int>(theta0_.size()) != layout.ThetaSize())
    throw ValidationError("ParameterMap: theta0 has " + std::to_string(theta0_.size()) + " values but the layout has " +
                          std::to_string(layout.ThetaSize()) + " theta slots");
}
ParameterMap::~ParameterMap() = default;
ParameterMap::ParameterMap(ParameterMap&&) noexcept = default;
ParameterMap& ParameterMap::operator=(ParameterMap&&) noexcept = default;

void ParameterMap::SetParameters(const std::vector<std::string>& names) {
  if (!bindings_.empty() || !definitions_.empty())
    throw ValidationError("ParameterMap: declare the study parameters before binding them");
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    if (!IsExpressionName(n))
      throw ValidationError("study parameter '" + n +
                            "': names must be identifiers (letters, digits and '_', not starting with a digit)");
    for (size_t j = 0; j < i; ++j)
      if (names[j] == n) throw ValidationError("study parameter '" + n + "' is declared twice");
  }
  names_ = names;
  variables_->assign(names.size(), 0.);
}

void ParameterMap::Bind(const std::string& path, const std::string& parameter) {
  const int idx = layout_->ThetaIndex(path);
  for (size_t k = 0; k < names_.size(); ++k)
    if (names_[k] == parameter) {
      bindings_.emplace_back(idx, static_cast<int>(k));
      return;
    }
  std::string all;
  for (size_t k = 0; k < names_.size(); ++k) all += (k ? ", " : "") + names_[k];
  throw ValidationError("binding of '" + path + "': '" + parameter + "' is not a declared study parameter (declared: " +
                        (all.empty() ? "none" : all) + ")");
}

void ParameterMap::Define(const std::string& path, const std::string& expression) {
  const int idx = layout_->ThetaIndex(path);
  auto d = std::make_unique<Definition>();
  d->thetaIndex = idx;
  d->expression = expression;
  try {
    DefineExpressionConstants(d->parser);
    for (size_t k = 0; k < names_.size(); ++k) d->parser.DefineVar(names_[k], &(*variables_)[k]);
    d->parser.SetExpr(expression);
    d->parser.Eval();  // parses now: malformed expressions and unknown variables fail here
  } catch (const mu::Parser::exception_type& e) {
    throw ValidationError("definition of '" + path + "' = '" + expression + "': " + e.GetMsg());
  }
  definitions_.push_back(std::move(d));
}

bool ParameterMap::Varies(int thetaIndex) const {
  for (const auto& b : bindings_)
    if (b.first == thetaIndex) return true;
  for (const auto& d : definitions_)
    if (d->thetaIndex == thetaIndex) return true;
  return false;
}

std::string ParameterMap::BuildRow(const Real* parameters, Real* row) const {
  std::copy(theta0_.begin(), theta0_.end(), row);
  for (const auto& [idx, k] : bindings_) row[idx] = parameters[k];
  if (!definitions_.empty()) {
    std::copy(parameters, parameters + names_.size(), variables_->begin());
    for (const auto& d : definitions_) {
      try {
        row[d->thetaIndex] = d->parser.Eval();
      } catch (const mu::Parser::exception_type& e) {
        return layout_->thetaPaths[static_cast<size_t>(d->thetaIndex)] + " = '" + d->expression + "': " + e.GetMsg();
      }
    }
  }
  auto check = [&](int idx) -> std::string {
    const Rule r = layout_->thetaRules[static_cast<size_t>(idx)];
    if (SatisfiesRule(row[idx], r)) return "";
    return layout_->thetaPaths[static_cast<size_t>(idx)] + " = " + FormatReal(row[idx]) + " violates " + RuleName(r) +
           " (" + RuleCondition(r) + ")";
  };
  for (const auto& b : bindings_)
    if (auto msg = check(b.first); !msg.empty()) return msg;
  for (const auto& d : definitions_)
    if (auto msg = check(d->thetaIndex); !msg.empty()) return msg;
  return "";
}

}  // namespace mbsweep
