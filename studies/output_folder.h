/// @file output_folder.h
/// The output folder of a study run, prepared before anything runs: created if missing,
/// refused if it is a file, locked against a second run writing into it at the same time,
/// and checked for an earlier run's outputs that this run replaces. Host only (POSIX).
#pragma once

#include <string>
#include <vector>

namespace mbsweep {

/// An output folder held by this process: an exclusive advisory lock (flock) on
/// `<path>/.mbsweep.lock`, released when the object is destroyed or the process ends (also
/// by a kill, so a killed run never leaves a stale lock). Move-only.
class OutputFolder {
 public:
  /// Prepares `dir` for a run described by `run` (e.g. "mbsweep sweep study.yaml", written
  /// into the lock file for the message another run gets):
  ///  * ValidationError if `dir` exists and is not a folder (naming it);
  ///  * IoError (naming the folder and the reason) if it cannot be created;
  ///  * ValidationError if another process holds the folder's lock, naming that run (its
  ///    pid, command and start time);
  ///  * unless `resume`: a warning (Warnings()) listing those of `outputs` (names relative to
  ///    the folder) that exist already: the outputs of an earlier run, replaced by this one.
  /// Where the file system offers no locks (some network file systems), a warning says so
  /// and the run goes on unlocked.
  static OutputFolder Open(const std::string& dir, const std::string& run, const std::vector<std::string>& outputs,
                           bool resume);

  OutputFolder() = default;
  OutputFolder(OutputFolder&& o) noexcept { *this = std::move(o); }
  OutputFolder& operator=(OutputFolder&& o) noexcept;
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  ~OutputFolder();

  /// The folder, absolute and canonical (symbolic links resolved), so that a run resumed
  /// through another path to the same folder finds the same outputs.
  const std::string& Path() const { return path_; }
  /// `<Path()>/<name>`.
  std::string File(const std::string& name) const;
  const std::vector<std::string>& Warnings() const { return warnings_; }

 private:
  std::string path_;
  std::vector<std::string> warnings_;
  int lockFd_ = -1;
};

}  // namespace mbsweep
