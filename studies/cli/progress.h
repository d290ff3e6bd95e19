/// @file progress.h
/// Progress of long command-line runs on stderr, unless quiet: fraction, count, rate, ETA and
/// a detail (failures so far, the GA's best value). On a terminal a bar redrawn at most five
/// times per second once the run has lasted a second; otherwise (a log file, a batch job)
/// one line every MBSWEEP_PROGRESS_SECONDS seconds (default 10; 0: at every update) and a
/// last one at the end if any was written.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace mbsweep::cli {

class Progress {
 public:
  /// `unit` names what is counted ("systems", "generations"); total 0 = unknown; `start`:
  /// units already done before this run (a resumed study), left out of the rate.
  Progress(std::string label, std::uint64_t total, std::string unit, bool quiet, std::uint64_t start = 0);
  ~Progress();
  /// Sets the number of finished units (monotone: a smaller count is ignored) and the detail
  /// shown after them ("" none).
  void Update(std::uint64_t done, const std::string& detail = "");
  /// Also counts what finishes inside a long step (the systems of a chunk being evaluated):
  /// `offset` + `finished` is read every 0.2 s on a thread of its own until Finish(), and shown
  /// when it is ahead of the last Update. `finished` must outlive this Progress's Finish().
  void Follow(const std::atomic<std::uint64_t>& finished, std::uint64_t offset);
  /// Draws the final state (if anything was drawn) and ends the line.
  void Finish();
  /// "[######......]  45.2%  1234/4096 systems  5.2e+03 systems/s  ETA 0:12" (no colours;
  /// width 0: no bar); the rate counts the units after `start`.
  static std::string Format(const std::string& label, std::uint64_t done, std::uint64_t total,
                            const std::string& unit, double seconds, int width = 24, std::uint64_t start = 0);

 private:
  void Draw(bool force);
  std::mutex mutex_;  ///< Update, Finish and the follower's updates draw one at a time
  std::condition_variable stop_;
  std::thread follower_;
  std::string label_, unit_, detail_;
  std::uint64_t total_ = 0, done_ = 0, start_count_ = 0, drawnDone_ = 0;
  bool enabled_ = false, terminal_ = false, drawn_ = false, finished_ = false;
  double interval_ = 10;  ///< seconds between lines when stderr is not a terminal
  std::chrono::steady_clock::time_point start_, lastDraw_;
};

/// "0:07", "12:34", "1:02:03".
std::string FormatDuration(double seconds);

}  // namespace mbsweep::cli
