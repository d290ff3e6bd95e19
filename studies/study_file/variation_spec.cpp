// ParameterVariation's spec and reader (study_types.h): `name: [begin, end, n]` or
// `{values: [...]}` per parameter (Exudyn's ranges, int rule included); options useLogSpace,
// addComputationIndex, chunkSize.
#include "studies/study_file/study_types.h"

namespace mbsweep::study_reader {

namespace {

std::vector<Setting> VariationOptions(StudySpec& s) {
  return {BoolS("useLogSpace", s.useLogSpace), BoolS("addComputationIndex", s.addComputationIndex),
          UInt64S("chunkSize", s.chunkSize)};
}

/// One parameter's range.
ParameterRange ReadRange(const StudyInput& in, const Entry& p) {
  const std::string what = "study.parameters." + p.key;
  if (p.value.IsSequence()) {
    if (p.value.size() != 3)
      in.r.Fail(p.value, what + " expects [begin, end, n] or {values: [...]}, got a list of " +
                             std::to_string(p.value.size()) + " values");
    return ParameterRange::Tuple(p.key, in.r.PyNum(p.value[0], what + "[0]"), in.r.PyNum(p.value[1], what + "[1]"),
                                 in.r.Number(p.value[2], what + "[2]"));
  }
  if (!p.value.IsMap()) in.r.Fail(p.value, what + " expects [begin, end, n] or {values: [...]}, got " + Got(p.value));
  const Section m = in.r.Map(p.value, what, {"values"});
  const Entry* v = m.Find("values");
  if (!v) in.r.Fail(p.value, what + " expects [begin, end, n] or {values: [...]}");
  const YAML::Node& seq = in.r.Sequence(v->value, what + ".values");
  std::vector<PyNumber> vals;
  for (size_t k = 0; k < seq.size(); ++k) vals.push_back(in.r.PyNum(seq[k], what + ".values[" + std::to_string(k) + "]"));
  return ParameterRange::List(p.key, vals);
}

void ReadVariation(const StudyInput& in, StudySpec& s) {
  for (const auto& p : in.ps.entries) {
    const ParameterRange range = ReadRange(in, p);
    try {
      ParameterGrid g({range}, s.useLogSpace);
    } catch (const ValidationError& err) {
      in.Fail(p.value, err);
    }
    s.ranges.push_back(range);
  }
  try {
    ParameterGrid g(s.ranges, s.useLogSpace);
  } catch (const ValidationError& err) {
    in.Fail(in.params->value, err);
  }
  if (s.chunkSize == 0) in.r.Fail(in.sec.Find("chunkSize")->value, "study.chunkSize = 0 violates PInt (must be > 0)");
}

}  // namespace

const StudyTypeReader& VariationStudy() {
  static const StudyTypeReader reader{StudyType::ParameterVariation, VariationOptions, {}, nullptr, ReadVariation};
  return reader;
}

}  // namespace mbsweep::study_reader
