/// @file results_file.h
/// Results files in Exudyn's format (exudyn.processing.WriteToFile in
/// Exudyn's main/pythonDev/exudyn/processing.py), a reader for them (round trips, --resume), and a
/// plain CSV results writer. Host only.
///
/// Exudyn format (every line ends with '\n'):
///   #EXUDYN <fileType> results file:<resultsFile>
///   #results stored columnwise for every parameter and individual
///   #<version line>        mbsweep writes "mbsweep version = <v>; <OS><release> V<os version>;
///                          <machine>; [(processing=<mode>)]" (Exudyn: "Exudyn version = ...")
///   #                      or "functionData:<text>" (Exudyn writes that line without '#')
///   #columns:
///   #globalIndex,value,<key1>,...,<keyN>,computationIndex   (computationIndex always)
///   #parameter ranges [format: (begin, end, numberOfVariations) or list, parameters separated with ";"]:
///   #<str(range1)>;<str(range2)>...
/// then one line per evaluation, fields joined by ", ", each as Python's str():
///   <globalIndex>, <value>, <p1>, ..., <pN>[, <computationIndex>]
/// e.g. "3, 0.09814894553165972, 10, 100.0, 3" or "0, [1.0, 2.0], 0, 1.0, 0".
/// The first line is kept exactly as Exudyn writes it so Exudyn's readers
/// (exudyn.plot.ParseOutputFileHeader) recognize the file; mbsweep names itself in line 3.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/output_file.h"
#include "studies/grid.h"

namespace mbsweep {

/// Version written into results files.
inline constexpr const char* kMbsweepVersion = MBSWEEP_VERSION;  // CMakeLists.txt's project version

/// "mbsweep version = 0.1.0; Linux6.1.0 V#1 SMP ...; x86_64; " plus "(processing=<mode>)" if
/// mode is not empty (the layout of Exudyn's GetVersionPlatformString; the processor field,
/// empty on Linux in Python, is left empty).
std::string VersionPlatformString(const std::string& processingMode = "");

/// Result of one evaluation as it is printed: one number, or a list of numbers.
struct ResultValue {
  std::vector<PyNumber> items;
  bool isList = false;

  static ResultValue Float(double v) { return ResultValue{{PyNumber::Float(v)}, false}; }
  static ResultValue Int(long long v) { return ResultValue{{PyNumber::Int(v)}, false}; }
  static ResultValue List(const std::vector<double>& v);
  static ResultValue List(std::vector<PyNumber> v) { return ResultValue{std::move(v), true}; }
  /// Python's str(): "0.1", "nan", "[1.0, 2.0]".
  std::string ToPythonString() const;
  bool operator==(const ResultValue& o) const;
};

/// One line of a results file.
struct ResultsRow {
  long long globalIndex = 0;
  ResultValue value;
  std::vector<PyNumber> parameters;
  long long computationIndex = -1;  ///< < 0: not written (Exudyn without addComputationIndex)
};

/// Header fields of a results file.
struct ResultsFileHeader {
  std::string fileType = "parameter variation";  ///< or "genetic optimization", ...
  std::string resultsFile;                       ///< text after "results file:"
  std::string versionLine;                       ///< line 3 without the leading '#'
  std::string functionData;                      ///< non-empty: line 4 is "functionData:<this>"
  std::vector<std::string> parameterNames;
  std::vector<std::string> parameterRanges;      ///< str() of each range, e.g. "(1, 10, 2)"
};

/// Header of a parameter variation over `grid` (names, ranges; versionLine =
/// VersionPlatformString(processingMode)).
ResultsFileHeader MakeResultsHeader(const ParameterGrid& grid, const std::string& resultsFile,
                                    const std::string& processingMode = "serial");
/// The 8 header lines, each ending with '\n'.
std::string FormatResultsHeader(const ResultsFileHeader& header);
/// One data line, ending with '\n'.
std::string FormatResultsRow(const ResultsRow& row);
/// Row of grid point `flat` with computationIndex = flat (and globalIndex = flat).
ResultsRow MakeGridRow(const ParameterGrid& grid, std::uint64_t flat, const ResultValue& value);

/// Writes results files; every Append writes its lines and flushes the file.
class ResultsFileWriter {
 public:
  /// Creates missing parent directories, truncates the file and writes the header (IoError
  /// naming the path and the reason if it cannot be written).
  static ResultsFileWriter Create(const std::string& path, const ResultsFileHeader& header);
  /// Opens an existing file for appending rows (e.g. to resume a study); no header is written.
  static ResultsFileWriter OpenAppend(const std::string& path);

  ResultsFileWriter() = default;
  ResultsFileWriter(ResultsFileWriter&&) noexcept = default;
  ResultsFileWriter& operator=(ResultsFileWriter&&) noexcept = default;

  /// Appends the rows and flushes; IoError naming the path and the reason on a write error.
  void Append(const std::vector<ResultsRow>& rows);
  void Append(const ResultsRow& row);
  const std::string& Path() const { return out_.Path(); }
  bool IsOpen() const { return out_.IsOpen(); }
  /// Closes the file, checked (IoError).
  void Close();

 private:
  OutputFile out_;
};

/// Parsed contents of a results file.
struct ResultsFileContents {
  ResultsFileHeader header;
  std::vector<ResultsRow> rows;
  /// True if the last line had no '\n' (a write cut short); that line is not in rows.
  bool droppedIncompleteLastLine = false;
};

/// Parses a results file. Accepts files written by mbsweep and by Exudyn (rows with or without
/// computationIndex; values that are numbers or lists/tuples of numbers). ValidationError
/// with "<path>:<line>:" for anything else.
ResultsFileContents ReadResultsFile(const std::string& path);
/// The same for text already in memory; `where` names it in messages.
ResultsFileContents ParseResultsText(const std::string& text, const std::string& where);
/// The parameter ranges of a header parsed back (ParseParameterRange per name).
std::vector<ParameterRange> RangesFromHeader(const ResultsFileHeader& header);

/// Plain CSV results: header "computationIndex,<param1>,...,<objective1>,...,status,reason", one
/// line per evaluation (reason: why a system failed, empty for ok), numbers as Python's str() (ints for int-type parameters), fields containing
/// ',', '"' or a line break quoted. Parent directories are created; each Append flushes.
class CsvResultsWriter {
 public:
  struct Row {
    std::uint64_t computationIndex = 0;
    std::vector<PyNumber> parameters;
    std::vector<double> objectives;
    std::string status = "ok";
    std::string reason;  ///< why the system failed ("" for ok)
  };

  static CsvResultsWriter Create(const std::string& path, const std::vector<std::string>& parameterNames,
                                 const std::vector<std::string>& objectiveNames);
  /// Opens an existing file for appending rows (a resumed study); no header is written.
  static CsvResultsWriter OpenAppend(const std::string& path, const std::vector<std::string>& parameterNames,
                                     const std::vector<std::string>& objectiveNames);
  CsvResultsWriter() = default;
  CsvResultsWriter(CsvResultsWriter&&) noexcept = default;
  CsvResultsWriter& operator=(CsvResultsWriter&&) noexcept = default;

  /// Appends and flushes; ValidationError if a row has the wrong number of values, IoError
  /// naming the path and the reason on a write error.
  void Append(const std::vector<Row>& rows);
  void Append(const Row& row);
  /// One CSV line (with '\n') without writing it.
  std::string FormatRow(const Row& row) const;
  /// Appends lines made by FormatRow and flushes (IoError naming the path and the reason).
  void AppendFormatted(const std::string& lines);
  const std::string& Path() const { return out_.Path(); }
  /// Closes the file, checked (IoError).
  void Close() { out_.Close(); }

 private:
  std::size_t nParameters_ = 0, nObjectives_ = 0;
  OutputFile out_;
};

/// A CSV field, quoted (with "" for ") if it contains ',', '"', '\n' or '\r'.
std::string CsvField(const std::string& s);

}  // namespace mbsweep
