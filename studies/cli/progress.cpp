#include "studies/cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace mbsweep::cli {

std::string FormatDuration(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) return "?";
  const long long s = static_cast<long long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  return buf;
}

std::string Progress::Format(const std::string& label, std::uint64_t done, std::uint64_t total,
                             const std::string& unit, double seconds, int width, std::uint64_t start) {
  std::string line = label + " ";
  const double rate = seconds > 0 && done > start ? static_cast<double>(done - start) / seconds : 0.0;
  char buf[160];
  if (total > 0) {
    const double f = std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
    const int filled = static_cast<int>(f * width);
    if (width > 0)
      line += "[" + std::string(static_cast<size_t>(filled), '#') + std::string(static_cast<size_t>(width - filled), '.') + "]";
    const double eta = rate > 0 ? static_cast<double>(total - std::min(done, total)) / rate : NAN;
    std::snprintf(buf, sizeof buf, " %5.1f%%  %llu/%llu %s  %.3g %s/s  ETA %s", 100.0 * f,
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total), unit.c_str(), rate,
                  unit.c_str(), FormatDuration(eta).c_str());
  } else {
    std::snprintf(buf, sizeof buf, "%llu %s  %.3g %s/s  %s", static_cast<unsigned long long>(done), unit.c_str(),
                  rate, unit.c_str(), FormatDuration(seconds).c_str());
  }
  return line + buf;
}

Progress::Progress(std::string label, std::uint64_t total, std::string unit, bool quiet, std::uint64_t start)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total), done_(start), start_count_(start),
      enabled_(!quiet), terminal_(isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()),
      lastDraw_(start_) {
  if (const char* s = std::getenv("MBSWEEP_PROGRESS_SECONDS")) {
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end != s && *end == '\0' && v >= 0 && std::isfinite(v)) interval_ = v;
  }
}

Progress::~Progress() { Finish(); }

void Progress::Update(std::uint64_t done, const std::string& detail) {
  const std::lock_guard<std::mutex> lock(mutex_);
  done_ = std::max(done_, done);
  detail_ = detail;
  Draw(false);
}

void Progress::Follow(const std::atomic<std::uint64_t>& finished, std::uint64_t offset) {
  if (!enabled_ || follower_.joinable()) return;
  follower_ = std::thread([this, &finished, offset] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!finished_) {
      stop_.wait_for(lock, std::chrono::milliseconds(200));
      const std::uint64_t done = offset + finished.load(std::memory_order_relaxed);
      if (!finished_ && done > done_) {
        done_ = done;
        Draw(false);
      }
    }
  });
}

void Progress::Draw(bool force) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double sinceLast = std::chrono::duration<double>(now - lastDraw_).count();
  if (!force && (terminal_ ? elapsed < 1.0 || sinceLast < 0.2 : sinceLast < interval_)) return;
  lastDraw_ = now;
  drawn_ = true;
  drawnDone_ = done_;
  const std::string detail = detail_.empty() ? "" : ", " + detail_;
  if (terminal_)
    std::fprintf(stderr, "\r%s%s\033[K", Format(label_, done_, total_, unit_, elapsed, 24, start_count_).c_str(),
                 detail.c_str());
  else
    std::fprintf(stderr, "%s%s\n", Format(label_ + ":", done_, total_, unit_, elapsed, 0, start_count_).c_str(),
                 detail.c_str());
  std::fflush(stderr);
}

void Progress::Finish() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return;
    finished_ = true;
  }
  stop_.notify_all();
  if (follower_.joinable()) follower_.join();
  if (drawn_ && (terminal_ || drawnDone_ != done_)) {  // a line only if it says more
    Draw(true);
    if (terminal_) std::fputc('\n', stderr);
  }
}

}  // namespace mbsweep::cli
