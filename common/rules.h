/// @file rules.h
/// Parameter rules of Exudyn's notation (PReal, UReal, Real, PInt, UInt, ...) and the
/// exception that reports a violated rule. Host only.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace mbsweep {

/// Rule a parameter value must satisfy.
enum class Rule {
  Real,   ///< any finite real
  PReal,  ///< finite, > 0
  UReal,  ///< finite, >= 0
  PInt,   ///< integer > 0
  UInt,   ///< integer >= 0
  Int,    ///< any integer
};

/// Name of a rule as written in Exudyn's documentation, e.g. "UReal".
const char* RuleName(Rule r);
/// Human-readable condition of a rule, e.g. "must be >= 0".
const char* RuleCondition(Rule r);
/// True if a value satisfies the rule.
bool SatisfiesRule(double value, Rule r);

/// Error in user input (bad item parameter, dangling index, wrong item type, malformed
/// settings). The message names the item, the field, the value and the rule.
class ValidationError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Formats a number the way messages print it (shortest round-trip form, e.g. -1.6).
std::string FormatReal(double v);

/// `s` without leading and trailing white space (for parsing user text and files).
std::string Trim(const std::string& s);

/// Levenshtein distance (insertions, deletions, substitutions), for "did you mean" hints.
std::size_t EditDistance(const std::string& a, const std::string& b);

}  // namespace mbsweep
