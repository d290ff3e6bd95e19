#include "common/rules.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

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

std::string Trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace mbsweep
