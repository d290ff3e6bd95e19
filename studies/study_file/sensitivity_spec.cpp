// Sensitivity's spec and reader (study_types.h): `name: ref`, `[ref, relStep]` or
// `[ref, relStep, n]` per parameter; option scaledByReference.
#include "studies/study_file/study_types.h"

namespace mbsweep::study_reader {

namespace {

std::vector<Setting> SensitivityOptions(StudySpec& s) {
  return {BoolS("scaledByReference", s.sensitivity.scaledByReference)};
}

void ReadSensitivity(const StudyInput& in, StudySpec& s) {
  for (const auto& p : in.ps.entries) {
    const std::string what = "study.parameters." + p.key;
    SensitivityParameter sp;
    sp.name = p.key;
    if (p.value.IsScalar()) {
      sp.ref = in.r.Number(p.value, what);
    } else if (p.value.IsSequence() && (p.value.size() == 2 || p.value.size() == 3)) {
      sp.ref = in.r.Number(p.value[0], what + "[0]");
      sp.relStep = in.r.Number(p.value[1], what + "[1]");
      if (p.value.size() == 3) sp.n = in.r.Int(p.value[2], what + "[2]");
    } else {
      in.r.Fail(p.value, what + " expects ref, [ref, relStep] or [ref, relStep, n], got " + Got(p.value));
    }
    try {
      SensitivityPointsFor({sp});
    } catch (const ValidationError& err) {
      in.Fail(p.value, err);
    }
    s.sensitivityParameters.push_back(sp);
  }
}

}  // namespace

const StudyTypeReader& SensitivityStudy() {
  static const StudyTypeReader reader{StudyType::Sensitivity, SensitivityOptions, {}, nullptr, ReadSensitivity};
  return reader;
}

}  // namespace mbsweep::study_reader
