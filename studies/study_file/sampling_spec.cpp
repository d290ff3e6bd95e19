// Sampling's spec and reader (study_types.h): `name: [lower, upper]` per parameter; options
// design (lhs, sobol, uniform, csv), count, seed, scramble, designFile, chunkSize. A csv
// design may name its parameters in a list, or take them (and their bounds) from the file.
#include "studies/study_file/study_types.h"

#include <algorithm>

namespace mbsweep::study_reader {

namespace {

std::vector<Setting> SamplingOptions(StudySpec& s) {
  return {Setting{"design",
                  [&s](const Reader& rr, const YAML::Node& v, const std::string& w) {
                    static const std::vector<std::string> names = {"lhs", "sobol", "uniform", "csv"};
                    s.design = names[rr.Choice(v, w, names)];
                  },
                  {}},
          UInt64S("count", s.count),
          UInt64S("seed", s.seed),
          Setting{"scramble",
                  [&s](const Reader& rr, const YAML::Node& v, const std::string& w) {
                    static const std::vector<std::string> names = {SobolScrambleName(SobolScramble::None),
                                                                   SobolScrambleName(SobolScramble::DigitalShift),
                                                                   SobolScrambleName(SobolScramble::LinearMatrix)};
                    s.scramble = names[rr.Choice(v, w, names)];
                  },
                  {}},
          StringS("designFile", s.designFile),
          UInt64S("chunkSize", s.chunkSize)};
}

bool CsvDesign(const StudySpec& s) { return s.design == "csv"; }

/// design: csv: the file read (unless readDataFiles is false), its columns' names and ranges
/// as the bounds when the study names no parameters, and count = its rows.
void ReadCsvDesign(const StudyInput& in, StudySpec& s) {
  const Entry* f = in.sec.Find("designFile");
  if (!f) in.r.Fail(in.node, "study: design = csv needs 'designFile'");
  s.designFile = ResolvePath(in.directory, s.designFile);
  std::vector<std::string> names;
  for (const auto& b : s.bounds) names.push_back(b.name);
  Design d;
  if (in.readDataFiles) try {
      d = ReadDesignCsv(s.designFile, names);
    } catch (const ValidationError& err) {
      in.Fail(f->value, err);
    }
  if (s.bounds.empty()) {  // names from the file's header; bounds = the columns' ranges
    for (size_t k = 0; k < d.Dimension(); ++k) {
      ParameterBounds b{d.names[k], HUGE_VAL, -HUGE_VAL};
      for (size_t i = 0; i < d.Count(); ++i) b.lower = std::min(b.lower, d.At(i, k)), b.upper = std::max(b.upper, d.At(i, k));
      Entry en{b.name, f->value, f->value};
      CheckStudyParameter(in.r, en, in.declared, in.layout);
      s.bounds.push_back(b);
    }
  }
  s.count = d.Count();
}

/// A generated design (lhs, sobol, uniform): count required, scramble only for sobol.
void CheckGeneratedDesign(const StudyInput& in, const StudySpec& s) {
  if (const Entry* f = in.sec.Find("designFile"))
    in.r.Fail(f->keyNode, "study: designFile is only used with design: csv (design is '" + s.design + "')");
  if (!in.sec.Find("count")) in.r.Fail(in.node, "study: 'count' (number of samples) is required for design " + s.design);
  if (s.count == 0) in.r.Fail(in.sec.Find("count")->value, "study.count = 0 violates PInt (must be > 0)");
  if (!s.scramble.empty() && s.design != "sobol")
    in.r.Fail(in.sec.Find("scramble")->keyNode, "study: scramble is only used with design: sobol");
  if (s.design == "sobol" && s.bounds.size() > SobolSequence::kMaxDimension)
    in.r.Fail(in.params->value, "study: a sobol design has at most " + std::to_string(SobolSequence::kMaxDimension) +
                                    " parameters, got " + std::to_string(s.bounds.size()));
}

void ReadSampling(const StudyInput& in, StudySpec& s) {
  const bool csvDesign = CsvDesign(s);
  for (const auto& p : in.ps.entries) {
    const auto [lo, hi] = ReadPair(in.r, p.value, "study.parameters." + p.key, "[lower, upper]");
    s.bounds.push_back(ParameterBounds{p.key, lo, hi});
    if (!csvDesign) {
      try {
        ValidateBounds({s.bounds.back()});
      } catch (const ValidationError& err) {
        in.Fail(p.value, err);
      }
    }
  }
  if (s.chunkSize == 0) in.r.Fail(in.sec.Find("chunkSize")->value, "study.chunkSize = 0 violates PInt (must be > 0)");
  if (csvDesign) ReadCsvDesign(in, s);
  else CheckGeneratedDesign(in, s);
}

}  // namespace

const StudyTypeReader& SamplingStudy() {
  static const StudyTypeReader reader{StudyType::Sampling, SamplingOptions, {}, CsvDesign, ReadSampling};
  return reader;
}

}  // namespace mbsweep::study_reader
