#include "common/rules.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace mbsweep {

const char* RuleName(Rule r) {
  switch (r) {
    case Rule::Real: return "Real";
    case Rule::PReal: return "PReal";
    case Rule::UReal: return "UReal";
    case Rule::PInt: return "PInt";
    case Rule::UInt: return "UInt";
    case Rule::Int: return "Int";
  }
  return "?";
}

const char* RuleCondition(Rule r) {
  switch (r) {
    case Rule::Real: return "must be finite";
    case Rule::PReal: return "must be > 0";
    case Rule::UReal: return "must be >= 0";
    case Rule::PInt: return "must be an integer > 0";
    case Rule::UInt: return "must be an integer >= 0";
    case Rule::Int: return "must be an integer";
  }
  return "?";
}

bool SatisfiesRule(double v, Rule r) {
  if (!std::isfinite(v)) return false;
  const bool integral = std::floor(v) == v;
  switch (r) {
    case Rule::Real: return true;
    case Rule::PReal: return v > 0;
    case Rule::UReal: return v >= 0;
    case Rule::PInt: return integral && v > 0;
    case Rule::UInt: return integral && v >= 0;
    case Rule::Int: return integral;
  }
  return false;
}

std::string FormatReal(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);  // shortest round-trip form
  return std::string(buf, r.ptr);
}

}  // namespace mbsweep
