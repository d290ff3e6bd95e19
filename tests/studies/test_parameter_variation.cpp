// ParameterVariation against Exudyn's exudyn.processing.ParameterVariation: the
// ParameterVariation part of Exudyn's geneticOptimizationTest evaluated chunk by chunk as
// mbsweep batches, chunk-size independence, the results file (round trip, per-chunk flush,
// 'nan' for failed systems) and validation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/rules.h"
#include "cpu/evaluator_cpu.h"
#include "cpu/simulation.h"
#include "oscillator_fixture.h"
#include "studies/parameter_variation.h"
#include "studies/results_file.h"

namespace mbsweep {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("mbsweep_test_pv_" + name)).string();
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  return lines;
}

using test::Oscillator;

/// geneticOptimizationTest's ParameterFunction with mbsweep batches: 100 steps, tEnd 1, rho 1,
/// displacement every 2e-3 s, error = sqrt(sum diff^2)/100 against the nominal run (mass 1.6,
/// spring 4000, force 80); the grid varies mass and spring (force stays 80).
struct OscillatorStudy {
  SimulationSettings settings = test::GeneticTestSettings();
  Model model = Oscillator(1.6, 4000, 80);
  Layout layout = model.Compile();
  ParameterMap map{layout, model.Theta0()};
  CompiledObjectives objectives;
  std::unique_ptr<Evaluator> evaluator = CreateCpuEvaluator();

  OscillatorStudy() {
    Simulation ref(Oscillator(1.6, 4000, 80));
    ref.SolveDynamic(settings);
    const auto& rows = ref.GetSensorStoredData(SensorIndex(0));
    map.SetParameters({"mass", "spring"});
    map.Bind("mass.mass", "mass");
    map.Bind("spring.stiffness", "spring");
    objectives = BuildObjectives(test::GeneticTestObjective(rows), layout, model.Theta0());
  }

  /// One batch per chunk; counts the batches.
  GridChunkObjective Objective(const ParameterGrid& grid, int* batches) {
    GridChunkObjective f = MakeGridObjective(*evaluator, layout, map, grid, DynamicSolverType::GeneralizedAlpha,
                                             settings, objectives);
    return [f, batches](const GridPoints& points) {
      ++*batches;
      return f(points);
    };
  }
};

/// Exudyn: ParameterVariation(ParameterFunction, {'mass':(1,10,2), 'spring':(100,10000,3)},
/// useLogSpace=True); mass is int type ((10-1+1)/2 = 5), spring float.
ParameterGrid ExudynTestGrid() {
  return ParameterGrid({ParameterRange::Tuple("mass", PyNumber::Int(1), PyNumber::Int(10), 2),
                        ParameterRange::Tuple("spring", PyNumber::Int(100), PyNumber::Int(10000), 3)},
                       true);
}

// geneticOptimizationTest, ParameterVariation part: v[3] (mass 10, spring 100) =
// 0.09814894553165972 (Exudyn 1.11; part of testResult 0.10117518366826603).
TEST(ParameterVariation, ExudynGeneticOptimizationTestGrid) {
  OscillatorStudy s;
  const ParameterGrid grid = ExudynTestGrid();
  int batches = 0;
  const ParameterVariationResult r = ParameterVariation(grid, s.Objective(grid, &batches), {});
  EXPECT_EQ(batches, 1);
  EXPECT_EQ(r.chunks, 1u);
  ASSERT_EQ(r.values.size(), 6u);
  EXPECT_EQ(r.Names(), (std::vector<std::string>{"mass", "spring"}));
  const auto cols = r.Columns();
  EXPECT_EQ(cols[0], (std::vector<double>{1, 1, 1, 10, 10, 10}));
  ASSERT_EQ(cols[1].size(), 6u);
  EXPECT_EQ(cols[1][3], 100.0);
  EXPECT_NEAR(cols[1][1], 1000.0, 1e-9);
  EXPECT_NEAR(cols[1][2], 10000.0, 1e-9);
  EXPECT_EQ(r.ComputationIndices(), (std::vector<long long>{0, 1, 2, 3, 4, 5}));
  const double v3 = 0.09814894553165972;
  EXPECT_NEAR(r.values[3], v3, 1e-12 * v3);
  EXPECT_NEAR(r.values[3] + 0.0030262381366063158, 0.10117518366826603, 1e-12 * 0.10117518366826603);
  for (double v : r.values) {
    EXPECT_TRUE(std::isfinite(v));
    EXPECT_GT(v, 0.0);
  }
}

// Chunk size 2 (three batches) gives the same values and the same results file as one chunk;
// the file is flushed after every chunk and round-trips through ReadResultsFile.
TEST(ParameterVariation, ChunkSizeIndependenceAndResultsFile) {
  OscillatorStudy s;
  const ParameterGrid grid = ExudynTestGrid();
  const std::string path = TempPath("chunks/results.txt");
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());

  ParameterVariationOptions o;
  o.resultsFile = path;
  o.addComputationIndex = true;
  int batchesA = 0;
  const ParameterVariationResult a = ParameterVariation(grid, s.Objective(grid, &batchesA), o);
  EXPECT_EQ(batchesA, 1);
  const std::string fileA = ReadText(path);

  o.chunkSize = 2;
  std::vector<std::uint64_t> firsts;
  o.onChunk = [&](std::uint64_t first, const GridPoints& points, const std::vector<double>& values) {
    EXPECT_EQ(points.size(), 2u);
    EXPECT_EQ(values.size(), 2u);
    firsts.push_back(first);
    // the chunk's lines are already flushed: 8 header lines + first + 2 rows
    EXPECT_EQ(Lines(ReadText(path)).size(), 8 + first + 2);
  };
  int batchesB = 0;
  const ParameterVariationResult b = ParameterVariation(grid, s.Objective(grid, &batchesB), o);
  EXPECT_EQ(batchesB, 3);
  EXPECT_EQ(b.chunks, 3u);
  EXPECT_EQ(firsts, (std::vector<std::uint64_t>{0, 2, 4}));
  EXPECT_EQ(a.values, b.values);  // bit for bit
  EXPECT_EQ(ReadText(path), fileA);

  const std::vector<std::string> lines = Lines(fileA);
  ASSERT_EQ(lines.size(), 14u);
  EXPECT_EQ(lines[0], "#EXUDYN parameter variation results file:" + path);
  EXPECT_NE(lines[2].find("(processing=serial)"), std::string::npos);
  EXPECT_EQ(lines[5], "#globalIndex,value,mass,spring,computationIndex");
  EXPECT_EQ(lines[7], "#(1, 10, 2);(100, 10000, 3)");
  EXPECT_EQ(lines[8 + 3], "3, " + PyStr(a.values[3]) + ", 10, 100.0, 3");

  const ResultsFileContents c = ReadResultsFile(path);
  EXPECT_FALSE(c.droppedIncompleteLastLine);
  EXPECT_EQ(c.header.fileType, "parameter variation");
  EXPECT_EQ(c.header.resultsFile, path);
  EXPECT_EQ(c.header.parameterNames, (std::vector<std::string>{"mass", "spring"}));
  EXPECT_EQ(c.header.parameterRanges, (std::vector<std::string>{"(1, 10, 2)", "(100, 10000, 3)"}));
  ASSERT_EQ(c.rows.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    SCOPED_TRACE("row " + std::to_string(i));
    EXPECT_EQ(c.rows[i].globalIndex, static_cast<long long>(i));
    EXPECT_EQ(c.rows[i].computationIndex, static_cast<long long>(i));
    ASSERT_FALSE(c.rows[i].value.isList);
    EXPECT_EQ(c.rows[i].value.items[0].value, a.values[i]);  // Python str() round-trips
    ASSERT_EQ(c.rows[i].parameters.size(), 2u);
    EXPECT_TRUE(c.rows[i].parameters[0].isInt);
    EXPECT_EQ(c.rows[i].parameters[0].intValue, i < 3 ? 1 : 10);
    EXPECT_FALSE(c.rows[i].parameters[1].isInt);
    EXPECT_EQ(c.rows[i].parameters[1].value, grid.Value(i, 1));
  }
  // the grid is recovered from the header
  const ParameterGrid back(RangesFromHeader(c.header), true);
  EXPECT_EQ(back.Columns(), grid.Columns());

  // without addComputationIndex the rows end with the last parameter (the header keeps the column)
  o.addComputationIndex = false;
  o.onChunk = nullptr;
  int batchesC = 0;
  ParameterVariation(grid, s.Objective(grid, &batchesC), o);
  const ResultsFileContents d = ReadResultsFile(path);
  ASSERT_EQ(d.rows.size(), 6u);
  EXPECT_EQ(d.rows[5].computationIndex, -1);
  EXPECT_EQ(Lines(ReadText(path))[5], "#globalIndex,value,mass,spring,computationIndex");
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

// A system that fails (negative mass from a list-valued parameter) gives NaN; the variation
// keeps going and the results file says 'nan' (Python's str(float('nan'))).
TEST(ParameterVariation, FailedSystemGivesNaN) {
  OscillatorStudy s;
  const ParameterGrid grid({ParameterRange::List("mass", std::vector<double>{1.6, -1.0, 10.0}),
                            ParameterRange::List("spring", std::vector<double>{4000.0, 100.0})});
  const std::string path = TempPath("nan.txt");
  ParameterVariationOptions o;
  o.resultsFile = path;
  o.addComputationIndex = true;
  o.chunkSize = 4;
  int batches = 0;
  const ParameterVariationResult r = ParameterVariation(grid, s.Objective(grid, &batches), o);
  EXPECT_EQ(batches, 2);
  ASSERT_EQ(r.values.size(), 6u);
  EXPECT_NEAR(r.values[0], 0.0, 1e-12);  // the nominal system
  EXPECT_TRUE(std::isfinite(r.values[1]));
  EXPECT_TRUE(std::isnan(r.values[2]));
  EXPECT_TRUE(std::isnan(r.values[3]));
  const double v3 = 0.09814894553165972;  // mass 10, spring 100: after the failed systems
  EXPECT_NEAR(r.values[5], v3, 1e-12 * v3);
  EXPECT_TRUE(std::isfinite(r.values[4]));

  const std::vector<std::string> lines = Lines(ReadText(path));
  ASSERT_EQ(lines.size(), 14u);
  EXPECT_EQ(lines[8 + 2], "2, nan, -1.0, 4000.0, 2");
  EXPECT_EQ(lines[8 + 3], "3, nan, -1.0, 100.0, 3");
  const ResultsFileContents c = ReadResultsFile(path);
  ASSERT_EQ(c.rows.size(), 6u);
  EXPECT_TRUE(std::isnan(c.rows[2].value.items[0].value));
  EXPECT_EQ(c.rows[5].value.items[0].value, r.values[5]);
  std::remove(path.c_str());
}

// Chunking on an analytic objective: order, sizes, the last partial chunk, and validation.
TEST(ParameterVariation, AnalyticChunksAndValidation) {
  const ParameterGrid grid({ParameterRange::Tuple("a", PyNumber::Int(0), PyNumber::Int(9), 5),
                            ParameterRange::List("b", std::vector<double>{0.5, 1.5, 2.5})});
  std::vector<std::size_t> sizes;
  const GridChunkObjective f = [&](const GridPoints& pts) {
    sizes.push_back(pts.size());
    std::vector<double> v;
    for (const auto& p : pts) v.push_back(10 * p[0] + p[1]);
    return v;
  };
  ParameterVariationOptions o;
  o.chunkSize = 4;
  const ParameterVariationResult r = ParameterVariation(grid, f, o);
  EXPECT_EQ(sizes, (std::vector<std::size_t>{4, 4, 4, 3}));
  ASSERT_EQ(r.values.size(), 15u);
  const std::vector<double> a = {0, 2, 4, 6, 9};  // Exudyn's int() quirk
  for (std::size_t i = 0; i < 15; ++i) EXPECT_EQ(r.values[i], 10 * a[i / 3] + (0.5 + static_cast<double>(i % 3)));
  EXPECT_FALSE(r.addComputationIndex);

  o.chunkSize = 0;
  EXPECT_THROW(ParameterVariation(grid, f, o), ValidationError);
  o.chunkSize = 4;
  EXPECT_THROW(ParameterVariation(grid, GridChunkObjective{}, o), ValidationError);
  const GridChunkObjective wrong = [](const GridPoints& pts) { return std::vector<double>(pts.size() + 1, 0.0); };
  EXPECT_THROW(ParameterVariation(grid, wrong, o), ValidationError);

  // a grid without parameters is one point (Exudyn with an empty dict)
  const ParameterVariationResult one = ParameterVariation(ParameterGrid(std::vector<ParameterRange>{}), [](const GridPoints& pts) {
    EXPECT_EQ(pts.size(), 1u);
    EXPECT_TRUE(pts[0].empty());
    return std::vector<double>{kNaN};
  });
  ASSERT_EQ(one.values.size(), 1u);
  EXPECT_TRUE(std::isnan(one.values[0]));

  // the map's parameters must be the grid's
  OscillatorStudy s;
  EXPECT_THROW(MakeGridObjective(*s.evaluator, s.layout, s.map, grid, DynamicSolverType::GeneralizedAlpha, s.settings,
                                 s.objectives),
               ValidationError);
  EXPECT_THROW(MakeGridObjective(*s.evaluator, s.layout, s.map, ExudynTestGrid(), DynamicSolverType::GeneralizedAlpha,
                                 s.settings, s.objectives, 1),
               ValidationError);
}

}  // namespace
}  // namespace mbsweep
