/// @file study_pipeline.h
/// The one path of a chunked study's results: a driver evaluates the study's points chunk by
/// chunk and hands each chunk's rows to sinks (the results.txt writer, the results.csv writer,
/// the summary accumulator, a caller's callback: study_sinks.h), then records the chunk in
/// the checkpoint manifest (checkpoint.h), so that a killed run resumes after its last
/// completed chunk. ParameterVariation (parameter_variation.h) and the command line's sweep
/// (grids and sampling designs) run through RunChunkedStudy. Host only.
///
/// Order per chunk k: evaluate, then every sink's Append in the order given (each writes and
/// flushes its file), then MarkCompleted(k). A kill before MarkCompleted loses only chunk k:
/// on resume the manifest cuts every guarded output back to its size after chunk k-1.
///
/// Over MPI ranks (ChunkedStudyPlan::ranks, ranks.h): rank 0 hands the chunks out dynamically
/// (Ranks::Map) to every rank, itself included, and appends and records them in chunk order
/// while the ranks evaluate the next ones; the other ranks evaluate with ServeChunks. The
/// outputs and the manifest are those of one rank, so a run resumes with any number of ranks.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "studies/grid.h"
#include "studies/ranks.h"

namespace mbsweep {

/// One evaluated point of a study, as it passes from the driver to the sinks.
struct StudyRow {
  std::uint64_t index = 0;          ///< computation index: flat grid index or design row
  std::vector<double> point;        ///< parameter values, in the study's parameter order
  std::vector<PyNumber> pyPoint;    ///< the same as written into results files (ints for int-type grid parameters)
  std::vector<double> values;       ///< every objective value of the point
  double value = std::numeric_limits<double>::quiet_NaN();  ///< the study objective's value
  std::string status = "ok";        ///< SolveStatusName of the system
  std::string reason;               ///< why the system failed ("" for ok)
};

/// The rows of one chunk, in computation-index order.
using StudyRowChunk = std::vector<StudyRow>;

/// Receives the rows of a chunked study. A sink that writes a file writes and flushes it in
/// Append; the driver marks the chunk completed only after every sink's Append returned.
class StudySink {
 public:
  virtual ~StudySink() = default;
  /// Called once, before the first chunk and after the manifest has cut the guarded outputs
  /// back: `resumedRows` rows (the completed chunks of an earlier run) are kept; 0 for a
  /// fresh start (the sink creates its output afresh).
  virtual void Start(std::uint64_t resumedRows) = 0;
  /// The rows of the next chunk.
  virtual void Append(const StudyRowChunk& rows) = 0;
  /// After the last chunk (closes files, checked).
  virtual void Finish() {}
};

/// What a chunked study evaluates and where its checkpoint lives.
struct ChunkedStudyPlan {
  std::uint64_t total = 0;      ///< number of points
  std::uint64_t chunkSize = 1;  ///< points per chunk (>= 1)
  /// Manifest path; empty: no checkpoint (no resume, nothing guarded).
  std::string manifestPath;
  std::string fingerprint;           ///< ChunkManifest::Open's fingerprint
  std::vector<std::string> outputs;  ///< the files the manifest guards, in this order
  bool resume = false;               ///< continue from the manifest (ChunkManifest::Open)
  /// For the message of a manifest with more chunks than the study: "<name>: resume: the
  /// manifest '<path>' records K chunks, the <what> has N".
  std::string name = "study", what = "study";
  /// The ranks that evaluate the chunks (nullptr or one rank: this process alone).
  Ranks* ranks = nullptr;
};

/// Fills `rows` with the evaluated points [begin, end) (one row per point, in order).
using ChunkEvaluator = std::function<void(std::uint64_t begin, std::uint64_t end, StudyRowChunk& rows)>;

/// What RunChunkedStudy did.
struct ChunkedStudyRun {
  std::uint64_t chunks = 0;         ///< chunks of the study
  std::uint64_t resumedChunks = 0;  ///< taken from the checkpoint, not evaluated
  std::uint64_t evaluatedChunks = 0;
  double evaluationSeconds = 0;     ///< the evaluator calls' wall time, summed over the chunks (and ranks)
};

/// Runs the plan: opens the manifest (if any), starts the sinks, then evaluates and appends
/// chunk after chunk from the first one not completed; `onChunk(end)` (optional) after each
/// completed chunk. Throws ValidationError for chunkSize 0 or a manifest with more chunks
/// than the study, and whatever the manifest, the evaluator and the sinks throw (the
/// completed chunks stay recorded: resume continues from there).
ChunkedStudyRun RunChunkedStudy(const ChunkedStudyPlan& plan, const ChunkEvaluator& evaluate,
                                const std::vector<StudySink*>& sinks,
                                const std::function<void(std::uint64_t end)>& onChunk = {});

/// Ranks other than 0: evaluates the chunks that rank 0's RunChunkedStudy hands out, until rank
/// 0 calls Ranks::Release. `plan` is this rank's plan of the same study (plan.ranks set): a
/// chunk whose plan has another fingerprint, total or chunk size fails (rank 0 reports it).
void ServeChunks(const ChunkedStudyPlan& plan, const ChunkEvaluator& evaluate);

}  // namespace mbsweep
