/// @file checkpoint.h
/// Interruption-safe chunked studies: a manifest of completed chunks next to a study's output
/// files, so that a killed run can be resumed without recomputing or losing finished work.
///
/// Protocol for a study that writes its results chunk by chunk (a ParameterVariation chunk, a
/// sampling chunk written by the CLI, a GeneticOptimization generation):
///  1. `ChunkManifest::Open(path, fingerprint, outputFiles, resume)` BEFORE opening the output
///     files. It returns the manifest; `CompletedChunks()` = K chunks that are already done
///     (0 for a fresh run). On resume the output files have been cut back to their sizes after
///     chunk K-1, so a partly written chunk K (killed mid-write) is gone.
///  2. If K == 0 create the outputs afresh (headers etc.); otherwise open them for appending
///     and take the results of chunks 0..K-1 from them.
///  3. For each chunk k >= K: compute, append its output, flush every output file, then call
///     `MarkCompleted(k)`. A kill before MarkCompleted loses only chunk k.
///
/// Manifest file (text, one record per line):
///   #mbsweep chunk manifest v1
///   fingerprint <text, escaped: \\ \n \r>
///   output <path, escaped>                       (one line per output file, in order)
///   chunk <k> <size_1> ... <size_n> <checksum>   (one line per completed chunk, appended)
/// The header is written atomically (temporary file synced, then renamed); a chunk line is appended and
/// flushed, and its checksum (FNV-1a 64 of the text before it, 16 hex digits) lets a torn last
/// line be recognised and ignored. The sizes are byte sizes of the output files after chunk k.
/// The files survive a killed process; no fsync is done, so a power loss may lose the tail.
/// Host only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/output_file.h"

namespace mbsweep {

/// Manifest of the completed chunks of one study run (see the file comment).
class ChunkManifest {
 public:
  /// The manifest path used for an output file by the study drivers: `<outputFile>.manifest`.
  static std::string DefaultPath(const std::string& outputFile) { return outputFile + ".manifest"; }

  /// Opens the manifest at `path` for a study described by `fingerprint` (any text that
  /// changes whenever a finished chunk would change: ranges, options, seed, model hash...)
  /// writing `outputFiles` (paths as the caller opens them; may be empty).
  ///  * resume == false, or no manifest at `path`: a fresh manifest is written (an existing
  ///    one is replaced) and every existing output file is truncated to 0 bytes;
  ///    CompletedChunks() = 0.
  ///  * resume == true and a manifest exists: its fingerprint must equal `fingerprint` and its
  ///    output list must equal `outputFiles` (ValidationError naming the manifest and both
  ///    values otherwise: "the study changed since the checkpoint"). The valid chunk lines
  ///    are kept up to the first torn, corrupt or out-of-order line and up to the last chunk
  ///    whose recorded sizes every output file still reaches (a missing file has size 0);
  ///    each output file is truncated to its recorded size after that chunk (dropping a
  ///    partly written chunk) and the manifest is rewritten with just those chunks. If none
  ///    remains, the outputs are truncated to 0 bytes as for a fresh run.
  /// Creates missing parent directories. Throws ValidationError for an unreadable or
  /// malformed manifest header, IoError (naming the file and the reason) for a file that
  /// cannot be written.
  static ChunkManifest Open(const std::string& path, const std::string& fingerprint,
                            const std::vector<std::string>& outputFiles, bool resume);

  ChunkManifest() = default;
  ChunkManifest(ChunkManifest&&) noexcept = default;
  ChunkManifest& operator=(ChunkManifest&&) noexcept = default;

  /// Number of chunks completed so far (chunks 0 .. CompletedChunks()-1).
  std::uint64_t CompletedChunks() const { return static_cast<std::uint64_t>(sizes_.size()); }
  /// Chunks that were already complete when the manifest was opened (0 for a fresh run).
  std::uint64_t ResumedChunks() const { return resumedChunks_; }

  /// Records chunk `chunkIndex` as completed with the current byte sizes of the output files
  /// (the caller has flushed them). Chunks must be marked in order: chunkIndex ==
  /// CompletedChunks(), otherwise ValidationError. Throws IoError naming the manifest and the
  /// reason if the line cannot be written, std::logic_error if the manifest is not open.
  void MarkCompleted(std::uint64_t chunkIndex);

  /// Byte size of output file `output` recorded after chunk `chunk` (std::out_of_range if
  /// either index is out of range).
  std::uint64_t RecordedSize(std::uint64_t chunk, std::size_t output) const;

  const std::string& Path() const { return path_; }
  const std::string& Fingerprint() const { return fingerprint_; }
  const std::vector<std::string>& OutputFiles() const { return outputs_; }
  bool IsOpen() const { return file_.IsOpen(); }
  /// Closes the manifest file, checked (the file stays; it is also closed by the destructor).
  void Close() { file_.Close(); }

 private:
  std::string path_;
  std::string fingerprint_;
  std::vector<std::string> outputs_;
  std::vector<std::vector<std::uint64_t>> sizes_;  ///< sizes_[chunk][output]
  std::uint64_t resumedChunks_ = 0;
  OutputFile file_;
};

/// What differs between two fingerprints, for the refusal of a resume: fingerprints are lines
/// "key=value"; the result lists each changed key as "key 'old' -> 'new'" ("(none)" for a
/// key on one side only), joined by "; ".
std::string DescribeFingerprintChange(const std::string& recorded, const std::string& now);

/// FNV-1a 64-bit hash of `text` (the manifest's line checksum; also handy to put a long
/// description, e.g. a model file, into a fingerprint).
std::uint64_t Fnv1a64(const std::string& text);

}  // namespace mbsweep
