/// @file study_types.h
/// The study section's readers (internal to studies/study_file/): ReadStudy (study_reader.cpp)
/// reads `type`, the type's options, `objective` and `parameters`, and hands the rest to the
/// reader of the type, each in its own file with the option keys of its spec:
///   variation_spec.cpp       ParameterVariation (ranges, useLogSpace, chunkSize, ...)
///   sampling_spec.cpp        Sampling (bounds, design, count, seed, scramble, designFile, ...)
///   genetic_spec.cpp         GeneticOptimization (GA ranges and options)
///   sensitivity_spec.cpp     Sensitivity (ref, relStep, n per parameter)
///   identification_spec.cpp  Identification (measured channels, genetic:, refinement:)
#pragma once

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "studies/study_file/reader.h"

namespace mbsweep::study_reader {

/// What ReadStudy hands the reader of a study type.
struct StudyInput {
  const Reader& r;
  const YAML::Node& node;  ///< the study map
  const Section& sec;      ///< its entries
  const Entry* params;     ///< study.parameters (nullptr if not given)
  const Section& ps;       ///< study.parameters as a map (empty when given as a list of names)
  const std::string& directory;
  bool readDataFiles;
  const std::vector<NamedParameter>& declared;
  const Layout* layout;
  const std::vector<std::string>& sensorNames;

  /// Fails at `n` with the message of `err` (a ValidationError of a library check).
  [[noreturn]] void Fail(const YAML::Node& n, const std::exception& err) const { r.Fail(n, err.what()); }
};

/// One study type: its name, the option keys of its spec, the further keys its reader reads
/// itself, and the reader of its parameters and sections.
struct StudyTypeReader {
  StudyType type;
  /// Its options (each a Setting over the spec; read before the parameters). May be null.
  std::vector<Setting> (*options)(StudySpec&);
  /// Keys besides type, objective, parameters and the options (Identification's sections).
  std::vector<std::string> sections;
  /// True if `parameters` may be left out or be a list of names (a csv design). May be null.
  bool (*namesOnly)(const StudySpec&);
  /// Reads the type's parameters and sections into the spec.
  void (*read)(const StudyInput&, StudySpec&);
};

const StudyTypeReader& VariationStudy();
const StudyTypeReader& SamplingStudy();
const StudyTypeReader& GeneticStudy();
const StudyTypeReader& SensitivityStudy();
const StudyTypeReader& IdentificationStudy();

/// `study:` into `st` (nothing if the file has none). Study parameters must be declared in
/// `parameters:` or be theta paths of `layout`; the study objective one of `objectives`.
void ReadStudy(const Reader& r, const Section& top, const std::string& directory, bool readDataFiles,
               const std::vector<NamedParameter>& declared, const Layout* layout,
               const std::vector<std::string>& sensorNames, const ObjectiveSetDescription& objectives, StudySpec& st);

/// Checks a study parameter name: declared in `parameters:` or a theta path of the model.
void CheckStudyParameter(const Reader& r, const Entry& p, const std::vector<NamedParameter>& declared,
                         const Layout* layout);
/// Reads a [a, b] pair of numbers (`form` names it in the message: "[lower, upper]").
std::pair<double, double> ReadPair(const Reader& r, const YAML::Node& v, const std::string& what, const char* form);

/// The GeneticOptimization options over s.genetic (also Identification's `genetic:` section).
std::vector<Setting> GeneticTree(StudySpec& s);
/// The GA ranges `name: [min, max]` of study.parameters, each checked, then the whole GA
/// setup; an error about an option points at the option it names: among the entries of the
/// `genetic:` section when one is given (Identification), else of the study.
void ReadGeneticParameters(const StudyInput& in, const Entry* geneticSection, StudySpec& s);

}  // namespace mbsweep::study_reader
