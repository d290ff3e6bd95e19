#include "studies/study_sinks.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <utility>

namespace mbsweep {

GridResultsFileSink::GridResultsFileSink(std::string path, const ParameterGrid& grid, std::string processingMode,
                                         bool addComputationIndex)
    : path_(std::move(path)), processingMode_(std::move(processingMode)), grid_(grid),
      addComputationIndex_(addComputationIndex) {}

void GridResultsFileSink::Start(std::uint64_t resumedRows) {
  writer_ = resumedRows > 0 ? ResultsFileWriter::OpenAppend(path_)
                            : ResultsFileWriter::Create(path_, MakeResultsHeader(grid_, path_, processingMode_));
}

void GridResultsFileSink::Append(const StudyRowChunk& rows) {
  buffer_.clear();
  for (const StudyRow& r : rows) {
    ResultsRow row = MakeGridRow(grid_, r.index, ResultValue::Float(r.value));
    if (!addComputationIndex_) row.computationIndex = -1;
    buffer_.push_back(std::move(row));
  }
  writer_.Append(buffer_);
}

void ResultsFileSink::Start(std::uint64_t resumedRows) {
  writer_ = resumedRows > 0 ? ResultsFileWriter::OpenAppend(path_) : ResultsFileWriter::Create(path_, header_);
}

void ResultsFileSink::Append(const StudyRowChunk& rows) {
  buffer_.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    buffer_[i].globalIndex = static_cast<long long>(rows[i].index);
    buffer_[i].value = ResultValue::Float(rows[i].value);
    buffer_[i].parameters = rows[i].pyPoint;
    buffer_[i].computationIndex = -1;
  }
  writer_.Append(buffer_);
}

ResultsCsvSink::ResultsCsvSink(std::string path, std::vector<std::string> parameterNames,
                               std::vector<std::string> objectiveNames)
    : path_(std::move(path)), parameterNames_(std::move(parameterNames)), objectiveNames_(std::move(objectiveNames)) {}

void ResultsCsvSink::Start(std::uint64_t resumedRows) {
  writer_ = resumedRows > 0 ? CsvResultsWriter::OpenAppend(path_, parameterNames_, objectiveNames_)
                            : CsvResultsWriter::Create(path_, parameterNames_, objectiveNames_);
}

void ResultsCsvSink::Append(const StudyRowChunk& rows) {
  std::string text;
  for (const StudyRow& r : rows) {  // one row reused: no copy of the chunk
    row_.computationIndex = r.index;
    row_.parameters = r.pyPoint;
    row_.objectives = r.values;
    row_.status = r.status;
    row_.reason = r.reason;
    text += writer_.FormatRow(row_);
  }
  writer_.AppendFormatted(text);
}

void SummaryAccumulator::Start(std::uint64_t resumedRows) {
  rows_ = 0;
  counts_.clear();
  bestValue_ = std::numeric_limits<double>::quiet_NaN();
  bestPoint_.clear();
  hasBest_ = false;
  if (resumedRows > 0 && resume_) resume_([this](const StudyRow& row) { Add(row); });
}

void SummaryAccumulator::Add(const StudyRow& row) {
  ++rows_;
  ++counts_[row.status];
  const double v = row.value;
  if (std::isfinite(v) && !(v >= bestValue_)) {  // the first of equal values stays
    bestValue_ = v;
    hasBest_ = true;
    bestPoint_.resize(row.pyPoint.size());
    for (std::size_t k = 0; k < row.pyPoint.size(); ++k) bestPoint_[k] = row.pyPoint[k].value;
  }
}

void SummaryAccumulator::Append(const StudyRowChunk& rows) {
  for (const StudyRow& r : rows) Add(r);
}

std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
      else if (c == '"') quoted = false;
      else cur += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur), cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

void ReadResultsCsvRows(const std::string& path, const std::vector<std::string>& parameters,
                        const std::string& objective, const std::function<void(const StudyRow&)>& add) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::string line;
  std::getline(f, line);
  const std::vector<std::string> header = SplitCsvLine(line);
  auto col = [&](const std::string& n) {
    const auto it = std::find(header.begin(), header.end(), n);
    if (it == header.end()) throw std::runtime_error(path + " has no column '" + n + "'");
    return static_cast<size_t>(it - header.begin());
  };
  const size_t vc = col(objective), sc = col("status");
  std::vector<size_t> pc;
  for (const auto& p : parameters) pc.push_back(col(p));
  StudyRow row;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> r = SplitCsvLine(line);
    if (r.size() != header.size()) continue;
    row.status = r[sc];
    row.value = std::strtod(r[vc].c_str(), nullptr);
    row.point.resize(pc.size());
    row.pyPoint.resize(pc.size());
    for (size_t k = 0; k < pc.size(); ++k) {
      row.point[k] = std::strtod(r[pc[k]].c_str(), nullptr);
      row.pyPoint[k] = PyNumber::Float(row.point[k]);
    }
    add(row);
  }
}

}  // namespace mbsweep
