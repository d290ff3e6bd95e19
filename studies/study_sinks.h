/// @file study_sinks.h
/// The sinks of a chunked study (study_pipeline.h): the Exudyn-format results.txt writer of
/// a grid, the results.csv writer, the summary accumulator (status counts and the optimum,
/// accumulated from the rows as they pass) and a callback. Host only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "studies/results_file.h"
#include "studies/study_pipeline.h"

namespace mbsweep {

/// Exudyn's 'parameter variation' results file of a grid (results_file.h): a fresh start
/// writes the header, a resumed one appends; each row is MakeGridRow(grid, index, value),
/// without the computationIndex column unless addComputationIndex.
class GridResultsFileSink : public StudySink {
 public:
  /// `grid` is referenced: it must outlive the sink.
  GridResultsFileSink(std::string path, const ParameterGrid& grid, std::string processingMode,
                      bool addComputationIndex);
  void Start(std::uint64_t resumedRows) override;
  void Append(const StudyRowChunk& rows) override;
  void Finish() override { writer_.Close(); }

 private:
  std::string path_, processingMode_;
  const ParameterGrid& grid_;
  bool addComputationIndex_ = false;
  ResultsFileWriter writer_;
  std::vector<ResultsRow> buffer_;
};

/// An Exudyn-format results file of evaluated individuals (a 'genetic optimization' file of
/// GeneticOptimization's generations, results_file.h): a fresh start writes `header`, a
/// resumed one appends; each row is "index, value, p1, ..., pN" with the parameters as
/// written (pyPoint) and no computationIndex column.
class ResultsFileSink : public StudySink {
 public:
  ResultsFileSink() = default;
  ResultsFileSink(std::string path, ResultsFileHeader header) : path_(std::move(path)), header_(std::move(header)) {}
  void Start(std::uint64_t resumedRows) override;
  void Append(const StudyRowChunk& rows) override;
  void Finish() override { writer_.Close(); }
  bool IsOpen() const { return writer_.IsOpen(); }

 private:
  std::string path_;
  ResultsFileHeader header_;
  ResultsFileWriter writer_;
  std::vector<ResultsRow> buffer_;
};

/// results.csv (CsvResultsWriter): computationIndex, parameters (as written: pyPoint),
/// every objective value, status and reason. A fresh start writes the header, a resumed one
/// appends.
class ResultsCsvSink : public StudySink {
 public:
  ResultsCsvSink(std::string path, std::vector<std::string> parameterNames, std::vector<std::string> objectiveNames);
  void Start(std::uint64_t resumedRows) override;
  void Append(const StudyRowChunk& rows) override;
  void Finish() override { writer_.Close(); }

 private:
  std::string path_;
  std::vector<std::string> parameterNames_, objectiveNames_;
  CsvResultsWriter writer_;
  CsvResultsWriter::Row row_;
};

/// The summary of a chunked study, accumulated from the rows as they pass: rows by status
/// and the optimum (the first row with the smallest finite study value, and its parameters
/// as written).
class SummaryAccumulator : public StudySink {
 public:
  /// Rows of the completed chunks of an earlier run: called by Start on resume, it hands
  /// each kept row to `add` (e.g. ReadResultsCsvRows on the kept results.csv, read before
  /// this run appends to it).
  using ResumeSource = std::function<void(const std::function<void(const StudyRow&)>& add)>;

  explicit SummaryAccumulator(ResumeSource resume = {}) : resume_(std::move(resume)) {}
  void Start(std::uint64_t resumedRows) override;
  void Append(const StudyRowChunk& rows) override;
  void Add(const StudyRow& row);

  std::uint64_t Rows() const { return rows_; }
  /// Rows by status name (sorted by name).
  const std::map<std::string, std::uint64_t>& Counts() const { return counts_; }
  /// The smallest finite study value (NaN if none).
  double BestValue() const { return bestValue_; }
  /// The optimum's parameters as written (empty if no finite value).
  const std::vector<double>& BestPoint() const { return bestPoint_; }
  bool HasBest() const { return hasBest_; }

 private:
  ResumeSource resume_;
  std::uint64_t rows_ = 0;
  std::map<std::string, std::uint64_t> counts_;
  double bestValue_;
  std::vector<double> bestPoint_;
  bool hasBest_ = false;
};

/// Calls a function with each chunk's rows (and, optionally, one with the resumed rows at
/// the start).
class CallbackSink : public StudySink {
 public:
  explicit CallbackSink(std::function<void(const StudyRowChunk&)> append,
                        std::function<void(std::uint64_t resumedRows)> start = {})
      : append_(std::move(append)), start_(std::move(start)) {}
  void Start(std::uint64_t resumedRows) override {
    if (start_) start_(resumedRows);
  }
  void Append(const StudyRowChunk& rows) override { append_(rows); }

 private:
  std::function<void(const StudyRowChunk&)> append_;
  std::function<void(std::uint64_t)> start_;
};

/// Hands every well-formed data row of a results.csv written by ResultsCsvSink to `add`,
/// with point and pyPoint (floats) from the columns `parameters`, value from the column
/// `objective` and the status (index, values and reason are not filled). Rows with another
/// field count are skipped. std::runtime_error if the file cannot be read or
/// lacks a column.
void ReadResultsCsvRows(const std::string& path, const std::vector<std::string>& parameters,
                        const std::string& objective, const std::function<void(const StudyRow&)>& add);

/// The fields of one CSV line ("" quoting, a trailing '\r' dropped).
std::vector<std::string> SplitCsvLine(const std::string& line);

}  // namespace mbsweep
