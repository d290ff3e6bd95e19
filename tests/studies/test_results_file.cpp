// Tests of studies/results_file.h: Exudyn results-file text, round trip through the reader,
// incomplete last lines, plain CSV results.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/rules.h"
#include "studies/results_file.h"

namespace mbsweep {
namespace {

using P = PyNumber;

std::string TempDir() {
  const auto d = std::filesystem::temp_directory_path() / "mbsweep_test_results_file";
  return d.string();
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ParameterGrid ExudynTestGrid() {
  return ParameterGrid({ParameterRange::Tuple("mass", P::Int(1), P::Int(10), 2),
                        ParameterRange::Tuple("spring", P::Int(100), P::Int(10000), 3)},
                       /*useLogSpace=*/true);
}

TEST(ResultsFile, ExactTextLikeExudyn) {
  // Exudyn 1.13.6: ParameterVariation(lambda p: p['mass']*0.1 + p['spring'],
  //   {'mass':(1,10,2),'spring':(100,10000,3)}, useLogSpace=True, addComputationIndex=True,
  //   resultsFile='sub/res.txt') wrote this file (line 3 is Exudyn's version line instead).
  const std::string expected =
      "#EXUDYN parameter variation results file:sub/res.txt\n"
      "#results stored columnwise for every parameter and individual\n"
      "#mbsweep version = 0.1.0; test platform; (processing=serial)\n"
      "#\n"
      "#columns:\n"
      "#globalIndex,value,mass,spring,computationIndex\n"
      "#parameter ranges [format: (begin, end, numberOfVariations) or list, parameters separated with \";\"]:\n"
      "#(1, 10, 2);(100, 10000, 3)\n"
      "0, 100.1, 1, 100.0, 0\n"
      "1, 1000.1, 1, 1000.0, 1\n"
      "2, 10000.1, 1, 10000.0, 2\n"
      "3, 101.0, 10, 100.0, 3\n"
      "4, 1001.0, 10, 1000.0, 4\n"
      "5, 10001.0, 10, 10000.0, 5\n";
  const ParameterGrid g = ExudynTestGrid();
  ResultsFileHeader h = MakeResultsHeader(g, "sub/res.txt", "serial");
  h.versionLine = "mbsweep version = 0.1.0; test platform; (processing=serial)";
  const std::string path = TempDir() + "/exact/nested/dir/res.txt";
  std::filesystem::remove_all(TempDir() + "/exact");
  {
    ResultsFileWriter w = ResultsFileWriter::Create(path, h);  // creates nested/dir
    // two batches, each flushed: the file is complete after each Append
    std::vector<ResultsRow> batch;
    for (std::uint64_t i = 0; i < 3; ++i) batch.push_back(MakeGridRow(g, i, ResultValue::Float(g.Value(i, 0) * 0.1 + g.Value(i, 1))));
    w.Append(batch);
    EXPECT_EQ(ReadAll(path), expected.substr(0, expected.find("3, 101.0")));
    batch.clear();
    for (std::uint64_t i = 3; i < 6; ++i) batch.push_back(MakeGridRow(g, i, ResultValue::Float(g.Value(i, 0) * 0.1 + g.Value(i, 1))));
    w.Append(batch);
  }
  EXPECT_EQ(ReadAll(path), expected);
}

TEST(ResultsFile, VersionLine) {
  const std::string v = VersionPlatformString("multiprocessing.Pool, numberOfThreads=8");
  EXPECT_EQ(v.rfind("mbsweep version = 0.1.0; ", 0), 0u) << v;
  const std::string tail = "(processing=multiprocessing.Pool, numberOfThreads=8)";
  ASSERT_GE(v.size(), tail.size());
  EXPECT_EQ(v.substr(v.size() - tail.size()), tail) << v;
  EXPECT_EQ(MakeResultsHeader(ExudynTestGrid(), "x").versionLine, VersionPlatformString("serial"));
}

TEST(ResultsFile, RowFormats) {
  ResultsRow r;
  r.globalIndex = 7;
  r.value = ResultValue::List(std::vector<double>{1.0, 2.0});
  r.parameters = {P::Int(2), P::Float(1e-05), P::Float(1e16)};
  EXPECT_EQ(FormatResultsRow(r), "7, [1.0, 2.0], 2, 1e-05, 1e+16\n");  // no computationIndex
  r.computationIndex = 7;
  r.value = ResultValue::Float(std::nan(""));
  EXPECT_EQ(FormatResultsRow(r), "7, nan, 2, 1e-05, 1e+16, 7\n");
  r.value = ResultValue::List({P::Int(0), P::Float(2.0)});
  EXPECT_EQ(FormatResultsRow(r), "7, [0, 2.0], 2, 1e-05, 1e+16, 7\n");
}

TEST(ResultsFile, FunctionDataLineLikeExudyn) {
  ResultsFileHeader h;
  h.resultsFile = "r.txt";
  h.versionLine = "v";
  h.functionData = "{'stepSize': 0.002}";
  h.parameterNames = {"s1"};
  h.parameterRanges = {"[1, 2]"};
  const std::string text = FormatResultsHeader(h);
  EXPECT_NE(text.find("\nfunctionData:{'stepSize': 0.002}\n#columns:\n"), std::string::npos) << text;
  const ResultsFileContents c = ParseResultsText(text, "mem");
  EXPECT_EQ(c.header.functionData, h.functionData);
  EXPECT_TRUE(c.rows.empty());
}

TEST(ResultsFile, RoundTrip) {
  const ParameterGrid g({ParameterRange::Tuple("a", P::Int(0), P::Int(9), 5),
                         ParameterRange::List("b", {P::Int(1), P::Float(2.5)}),
                         ParameterRange::Tuple("c", 1e-3, 0.7, 3)});
  ResultsFileHeader h = MakeResultsHeader(g, "out/rt.txt", "mbsweep cpu, threads=2");
  const std::string path = TempDir() + "/rt.txt";
  std::vector<ResultsRow> rows;
  {
    ResultsFileWriter w = ResultsFileWriter::Create(path, h);
    for (std::uint64_t i = 0; i < g.Size(); ++i) {
      ResultValue v = i % 3 == 0   ? ResultValue::Float(1.0 / (1.0 + static_cast<double>(i)))
                      : i % 3 == 1 ? ResultValue::List(std::vector<double>{static_cast<double>(i), -0.0, 1e300})
                                   : ResultValue::Float(std::nan(""));
      rows.push_back(MakeGridRow(g, i, v));
      if (i == 5) rows.back().computationIndex = -1;  // a row without computationIndex
      w.Append(rows.back());
    }
  }
  const ResultsFileContents c = ReadResultsFile(path);
  EXPECT_FALSE(c.droppedIncompleteLastLine);
  EXPECT_EQ(c.header.fileType, h.fileType);
  EXPECT_EQ(c.header.resultsFile, h.resultsFile);
  EXPECT_EQ(c.header.versionLine, h.versionLine);
  EXPECT_EQ(c.header.functionData, "");
  EXPECT_EQ(c.header.parameterNames, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(c.header.parameterRanges, (std::vector<std::string>{"(0, 9, 5)", "[1, 2.5]", "(0.001, 0.7, 3)"}));
  ASSERT_EQ(c.rows.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(c.rows[i].globalIndex, rows[i].globalIndex);
    EXPECT_EQ(c.rows[i].computationIndex, rows[i].computationIndex);
    EXPECT_TRUE(c.rows[i].value == rows[i].value) << i << ": " << c.rows[i].value.ToPythonString();
    ASSERT_EQ(c.rows[i].parameters.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(c.rows[i].parameters[k].isInt, rows[i].parameters[k].isInt);
      EXPECT_EQ(c.rows[i].parameters[k].value, rows[i].parameters[k].value);
    }
    EXPECT_EQ(FormatResultsRow(c.rows[i]), FormatResultsRow(rows[i]));
  }
  // the header's ranges rebuild the same grid
  const ParameterGrid g2(RangesFromHeader(c.header));
  ASSERT_EQ(g2.Size(), g.Size());
  for (std::uint64_t i = 0; i < g.Size(); ++i) EXPECT_EQ(g2.Point(i), g.Point(i));
  // appending (resume) continues the same file
  {
    ResultsFileWriter w = ResultsFileWriter::OpenAppend(path);
    w.Append(MakeGridRow(g, 0, ResultValue::Int(3)));
  }
  const ResultsFileContents c2 = ReadResultsFile(path);
  ASSERT_EQ(c2.rows.size(), rows.size() + 1);
  EXPECT_EQ(c2.rows.back().value.ToPythonString(), "3");
}

TEST(ResultsFile, IncompleteLastLineDropped) {
  const ParameterGrid g = ExudynTestGrid();
  ResultsFileHeader h = MakeResultsHeader(g, "x");
  const std::string text = FormatResultsHeader(h) + FormatResultsRow(MakeGridRow(g, 0, ResultValue::Float(1))) + "1, 2.5, 1";
  const ResultsFileContents c = ParseResultsText(text, "mem");
  EXPECT_TRUE(c.droppedIncompleteLastLine);
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].value.ToPythonString(), "1.0");
}

TEST(ResultsFile, ReaderErrors) {
  const ParameterGrid g = ExudynTestGrid();
  const std::string head = FormatResultsHeader(MakeResultsHeader(g, "x"));
  const auto errorOf = [](const std::string& text) {
    try {
      ParseResultsText(text, "f.txt");
    } catch (const ValidationError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(errorOf(head + "0, 1.0, 1\n").find("f.txt:9:"), std::string::npos);
  EXPECT_NE(errorOf(head + "0, 1.0, 1, 100.0, 0\n0, abc, 1, 2, 1\n").find("f.txt:10: value = 'abc'"), std::string::npos);
  EXPECT_NE(errorOf("#EXUDYN x\n").find("8-line header"), std::string::npos);
  std::string broken = head;
  broken.replace(0, 7, "#EXUDYX");
  EXPECT_NE(errorOf(broken).find("f.txt:1:"), std::string::npos);
  EXPECT_THROW(ReadResultsFile(TempDir() + "/does-not-exist.txt"), ValidationError);
  EXPECT_THROW(ResultsFileWriter::OpenAppend(TempDir() + "/does-not-exist.txt"), ValidationError);
}

TEST(ResultsFile, ReadsExudynFileWithoutComputationIndex) {
  // Exudyn 1.13.6 with addComputationIndex=False and a list-valued function, first lines
  const std::string text =
      "#EXUDYN parameter variation results file:sub/res2.txt\n"
      "#results stored columnwise for every parameter and individual\n"
      "#Exudyn version = 1.13.6; Python3.11.15; Linux x86_64 FLOAT64; Linux6.18 V#1; x86_64; (processing=serial)\n"
      "#\n"
      "#columns:\n"
      "#globalIndex,value,a,b,c,computationIndex\n"
      "#parameter ranges [format: (begin, end, numberOfVariations) or list, parameters separated with \";\"]:\n"
      "#(0, 9, 5);[1, 2.5];(0, 10, 5)\n"
      "0, [0, 2.0], 0, 1.0, 0.0\n"
      "13, [2, 2.0], 2, 1.0, 7.5\n";
  const ResultsFileContents c = ParseResultsText(text, "res2.txt");
  EXPECT_EQ(c.header.parameterRanges, (std::vector<std::string>{"(0, 9, 5)", "[1, 2.5]", "(0, 10, 5)"}));
  ASSERT_EQ(c.rows.size(), 2u);
  EXPECT_EQ(c.rows[1].computationIndex, -1);
  EXPECT_EQ(c.rows[1].value.ToPythonString(), "[2, 2.0]");
  EXPECT_EQ(FormatResultsRow(c.rows[1]), "13, [2, 2.0], 2, 1.0, 7.5\n");
  // and our grid reproduces row 13's parameters
  const ParameterGrid g(RangesFromHeader(c.header));
  EXPECT_EQ(PyStr(g.PyPoint(13)[0]) + ", " + PyStr(g.PyPoint(13)[1]) + ", " + PyStr(g.PyPoint(13)[2]), "2, 1.0, 7.5");
}

TEST(CsvResults, Text) {
  const std::string path = TempDir() + "/csv/out.csv";
  CsvResultsWriter w = CsvResultsWriter::Create(path, {"mass", "spring"}, {"error", "max,abs"});
  w.Append(std::vector<CsvResultsWriter::Row>{
      {0, {P::Int(1), P::Float(100.0)}, {0.1, 1e-05}, "ok", ""},
      {1, {P::Int(10), P::Float(1e16)}, {std::nan(""), 2.0}, "newton_failed", "\"Newton\" did not converge, t = 0.5"}});
  EXPECT_EQ(ReadAll(path),
            "computationIndex,mass,spring,error,\"max,abs\",status,reason\n"
            "0,1,100.0,0.1,1e-05,ok,\n"
            "1,10,1e+16,nan,2.0,newton_failed,\"\"\"Newton\"\" did not converge, t = 0.5\"\n");
  EXPECT_THROW(w.Append(CsvResultsWriter::Row{2, {P::Int(1)}, {0.0, 0.0}, "ok", ""}), ValidationError);
}

}  // namespace
}  // namespace mbsweep
