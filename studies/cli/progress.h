/// @file progress.h
/// A progress bar on stderr for long command-line runs: fraction, count, rate and ETA,
/// redrawn at most a few times per second, shown only when stderr is a terminal, the run
/// has lasted longer than a second, and quiet mode is off.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace mbsweep::cli {

class Progress {
 public:
  /// `unit` names what is counted ("systems", "generations"); total 0 = unknown; `start`:
  /// units already done before this run (a resumed study), left out of the rate.
  Progress(std::string label, std::uint64_t total, std::string unit, bool quiet, std::uint64_t start = 0);
  ~Progress();
  /// Sets the number of finished units (monotone).
  void Update(std::uint64_t done);
  /// Draws the final state (if anything was drawn) and ends the line.
  void Finish();
  /// "[######......]  45.2%  1234/4096 systems  5.2e+03 systems/s  ETA 0:12" (no colours);
  /// the rate counts the units after `start`.
  static std::string Format(const std::string& label, std::uint64_t done, std::uint64_t total,
                            const std::string& unit, double seconds, int width = 24, std::uint64_t start = 0);

 private:
  void Draw(bool force);
  std::string label_, unit_;
  std::uint64_t total_ = 0, done_ = 0, start_count_ = 0;
  bool enabled_ = false, drawn_ = false, finished_ = false;
  std::chrono::steady_clock::time_point start_, lastDraw_;
};

/// "0:07", "12:34", "1:02:03".
std::string FormatDuration(double seconds);

}  // namespace mbsweep::cli
