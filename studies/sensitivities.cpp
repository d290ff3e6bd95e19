/// @file sensitivities.cpp
/// ComputeSensitivities (see sensitivities.h).
#include "studies/sensitivities.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <set>

#include "common/rules.h"
#include "studies/memory_limit.h"

namespace mbsweep {
namespace {

void Validate(const std::vector<SensitivityParameter>& parameters) {
  if (parameters.empty()) throw ValidationError("ComputeSensitivities: no parameters");
  std::set<std::string> seen;
  for (const SensitivityParameter& p : parameters) {
    const std::string where = "ComputeSensitivities: parameter '" + p.name + "'";
    if (p.name.empty()) throw ValidationError("ComputeSensitivities: empty parameter name");
    if (!seen.insert(p.name).second) throw ValidationError(where + ": duplicate name");
    if (!std::isfinite(p.ref)) throw ValidationError(where + ": ref = " + FormatReal(p.ref) + " must be finite");
    if (!std::isfinite(p.relStep) || p.relStep == 0.0)
      throw ValidationError(where + ": relStep = " + FormatReal(p.relStep) + " must be finite and non-zero");
    if (p.n < 0) throw ValidationError(where + ": n = " + std::to_string(p.n) + " must be >= 0");
  }
  // the reference, then 2n points (or 1 with n = 0) per parameter, all in one batch
  double points = 1;
  for (const SensitivityParameter& p : parameters) points += p.n == 0 ? 1.0 : 2.0 * p.n;
  if (points > 2147483647.0)
    throw ValidationError("ComputeSensitivities: " + FormatReal(points) +
                          " points violate points <= 2^31-1 (they are evaluated as one batch); use smaller n");
  RequireMemory(points * (8.0 * static_cast<double>(parameters.size()) + 64.0),
                "ComputeSensitivities: " + FormatReal(points) + " points x " + std::to_string(parameters.size()) +
                    " parameters",
                "use smaller n");
}

}  // namespace

SensitivityPoints SensitivityPointsFor(const std::vector<SensitivityParameter>& parameters) {
  Validate(parameters);
  std::vector<double> ref;
  for (const SensitivityParameter& p : parameters) ref.push_back(p.ref);
  SensitivityPoints points{ref};
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const SensitivityParameter& p = parameters[i];
    if (p.n == 0) {
      points.push_back(ref);
      points.back()[i] = p.ref * (1.0 + p.relStep);
      continue;
    }
    for (long long k = 0; k < 2LL * p.n; ++k) {
      const long long j = k < p.n ? k - p.n : k - p.n + 1;
      points.push_back(ref);
      double& v = points.back()[i];
      v = p.ref * (1.0 + static_cast<double>(j) * p.relStep);
      if (v == 0.0) v += std::max(p.relStep, 1e-6);
    }
  }
  return points;
}

SensitivityResult ComputeSensitivities(const std::vector<SensitivityParameter>& parameters,
                                       const SensitivityObjective& evaluate, const SensitivityOptions& options) {
  if (!evaluate) throw ValidationError("ComputeSensitivities: empty objective");
  SensitivityResult r;
  r.parameterList = SensitivityPointsFor(parameters);
  for (const SensitivityParameter& p : parameters) r.names.push_back(p.name);

  const std::vector<std::vector<double>> values = evaluate(r.parameterList);
  if (values.size() != r.parameterList.size())
    throw ValidationError("ComputeSensitivities: objective returned " + std::to_string(values.size()) +
                          " rows for " + std::to_string(r.parameterList.size()) + " points");
  const std::size_t nOut = values[0].size();
  if (nOut == 0) throw ValidationError("ComputeSensitivities: objective returned no outputs");
  for (std::size_t e = 0; e < values.size(); ++e)
    if (values[e].size() != nOut)
      throw ValidationError("ComputeSensitivities: objective returned " + std::to_string(values[e].size()) +
                            " outputs for point " + std::to_string(e) + ", expected " + std::to_string(nOut));

  r.valRef = values[0];
  std::size_t first = 1;  // index of parameter i's first evaluation
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const SensitivityParameter& p = parameters[i];
    const std::size_t count = p.n == 0 ? 1 : 2 * static_cast<std::size_t>(p.n);
    const std::size_t iForward = p.n == 0 ? first : first + static_cast<std::size_t>(p.n);
    const std::size_t iBackward = p.n == 0 ? 0 : iForward - 1;
    std::vector<double> row(nOut);
    for (std::size_t k = 0; k < nOut; ++k) {
      row[k] = (values[iForward][k] - values[iBackward][k]) /
               (r.parameterList[iForward][i] - r.parameterList[iBackward][i]);
      if (options.scaledByReference) row[k] = row[k] * p.ref;
    }
    r.sensitivity.push_back(row);
    r.valuesSorted.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(first),
                                values.begin() + static_cast<std::ptrdiff_t>(first + count));
    first += count;
  }
  return r;
}

}  // namespace mbsweep
