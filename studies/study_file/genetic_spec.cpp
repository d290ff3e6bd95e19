// GeneticOptimization's spec and reader (study_types.h): `name: [min, max]` per parameter
// and Exudyn's GeneticOptimization options (also Identification's `genetic:` section).
#include "studies/study_file/study_types.h"

namespace mbsweep::study_reader {

std::vector<Setting> GeneticTree(StudySpec& s) {
  GeneticOptions& g = s.genetic;
  return {IntS("populationSize", g.populationSize),
          IntS("numberOfGenerations", g.numberOfGenerations),
          DoubleS("elitistRatio", g.elitistRatio),
          DoubleS("crossoverProbability", g.crossoverProbability),
          DoubleS("crossoverAmount", g.crossoverAmount),
          DoubleS("rangeReductionFactor", g.rangeReductionFactor),
          DoubleS("distanceFactor", g.distanceFactor),
          Setting{"childDistribution",
                  [&g](const Reader& r, const YAML::Node& v, const std::string& w) {
                    static const std::vector<std::string> names = {"uniform", "normal"};
                    g.childDistribution = ParseChildDistribution(names[r.Choice(v, w, names)]);
                  },
                  {}},
          IntS("distanceFactorGenerations", g.distanceFactorGenerations),
          IntS("initialPopulationSize", g.initialPopulationSize),
          Setting{"randomizerInitialization",
                  [&g](const Reader& r, const YAML::Node& v, const std::string& w) {
                    g.randomizerInitialization = r.Integer(v, w);
                  },
                  {}},
          Setting{"randomStream",
                  [&g](const Reader& r, const YAML::Node& v, const std::string& w) {
                    static const std::vector<std::string> names = {"numpy", "philox"};
                    g.randomStream = ParseGeneticRandomStream(names[r.Choice(v, w, names)]);
                  },
                  {}}};
}

void ReadGeneticParameters(const StudyInput& in, const Entry* geneticSection, StudySpec& s) {
  for (const auto& p : in.ps.entries) {
    const auto [lo, hi] = ReadPair(in.r, p.value, "study.parameters." + p.key, "[min, max]");
    PyNumber a, b;  // ints as Python reads them, for the results file's ranges line
    ParsePyNumber(p.value[0].Scalar(), a);
    ParsePyNumber(p.value[1].Scalar(), b);
    s.geneticParameters.push_back(GeneticParameter{p.key, lo, hi, a.isInt, b.isInt});
    try {
      ValidateGeneticSetup({s.geneticParameters.back()}, GeneticOptions{});
    } catch (const ValidationError& err) {
      in.Fail(p.value, err);
    }
  }
  try {
    GeneticOptions g = s.genetic;
    ValidateGeneticSetup(s.geneticParameters, g);
  } catch (const ValidationError& err) {
    // Point at the option the message names (the longest matching key), else the study.
    YAML::Node where = in.node;
    size_t best = 0;
    const std::string msg = err.what();
    const Section* opts = &in.sec;
    Section genetic;
    if (geneticSection) {
      genetic = in.r.Map(geneticSection->value, "study.genetic", {});
      opts = &genetic;
      where = geneticSection->value;
    }
    for (const auto& en : opts->entries)
      if (en.key.size() > best && en.key != "parameters" && en.key != "type" &&
          msg.find(en.key + " =") != std::string::npos)
        best = en.key.size(), where = en.value;
    in.Fail(where, err);
  }
}

namespace {

void ReadGenetic(const StudyInput& in, StudySpec& s) { ReadGeneticParameters(in, nullptr, s); }

}  // namespace

const StudyTypeReader& GeneticStudy() {
  static const StudyTypeReader reader{StudyType::GeneticOptimization, GeneticTree, {}, nullptr, ReadGenetic};
  return reader;
}

}  // namespace mbsweep::study_reader
