// libFuzzer harness for the study-file reader: the input bytes are a study file, read as the
// command line reads one (ParseStudyText, which LoadStudyFile calls with the file's text),
// then opened as `mbsweep sweep|optimize|...` opens a study: the model compiled, the study's
// parameter mapping made, the model rebuilt at the nominal values (the `--set` path), the
// objectives built and one batch row built at the nominal values.
//
// The documented errors for bad input (StudyFileError, ValidationError) are expected and
// ignored. Anything else is a finding: another exception type escaping (libFuzzer reports it
// as a crash through std::terminate), a crash, a hang (-timeout), or a sanitizer report
// (address, undefined behaviour, float-cast-overflow; every report is fatal).
//
// Relative data-file paths in the input (signalFile, designFile, measured files) resolve
// against studies/examples, so that the seeds from there read their signal files; nothing is
// ever written.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/batch.h"
#include "common/objectives_host.h"
#include "common/parameters.h"
#include "common/rules.h"
#include "studies/study_file.h"

#ifndef MBSWEEP_FUZZ_DATA_DIR
#define MBSWEEP_FUZZ_DATA_DIR "."
#endif

namespace {

void OpenStudy(const std::string& text) {
  using namespace mbsweep;
  const StudyFile f = ParseStudyText(text, "fuzz.yaml", MBSWEEP_FUZZ_DATA_DIR);
  const Layout layout = f.model.Compile();
  const std::vector<Real> theta0 = f.model.Theta0();
  ParameterMap map(layout, theta0);
  const StudyMapping mapping = MakeStudyMapping(f, layout, map);
  const Model atNominal = BuildModelAt(f, f.parameters);
  (void)atNominal.Compile();
  if (f.objectives.objectives.empty()) return;  // the CLI refuses a study without objectives here
  CompiledObjectives objectives = BuildObjectives(f.objectives, layout, theta0);
  std::vector<double> point;
  for (const int column : mapping.studyColumn) point.push_back(mapping.nominal[static_cast<size_t>(column)]);
  const std::vector<double> rows = StudyRows(mapping, {point});
  (void)MakeBatch(layout, map, rows, f.solver, f.settings, std::move(objectives));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    OpenStudy(text);
  } catch (const mbsweep::StudyFileError&) {
  } catch (const mbsweep::ValidationError&) {
  }
  return 0;
}
