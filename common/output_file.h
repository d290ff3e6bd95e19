/// @file output_file.h
/// Checked file output: every write, flush and close is checked, and a failure throws an
/// IoError that names the file and gives the operating system's reason ("No space left on
/// device"), so that nothing a user asked to be written is lost without a word. Host only.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mbsweep {

/// A file could not be created, written, flushed, closed or renamed. The message names the
/// file (and what it is, e.g. "sensor file") and the operating system's reason.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "<what> '<path>': cannot <action>: <strerror(err)>", the message of an IoError.
std::string IoErrorMessage(const std::string& what, const std::string& path, const std::string& action, int err);

/// A file written sequentially through a stdio buffer. Write and Flush throw IoError on any
/// failure (a short write: a full disk, a file size limit, an I/O error); Close flushes,
/// closes and checks both. The destructor closes a file that was not closed explicitly
/// without reporting (an exception is already on its way): call Close() on the normal path.
class OutputFile {
 public:
  /// Creates (or truncates) `path` for writing; `what` names the file in messages, e.g.
  /// "sensor file". Missing parent directories are created.
  static OutputFile Create(const std::string& path, const std::string& what);
  /// Opens `path` for appending (creating it if missing).
  static OutputFile Append(const std::string& path, const std::string& what);

  OutputFile() = default;
  OutputFile(OutputFile&& o) noexcept { *this = std::move(o); }
  OutputFile& operator=(OutputFile&& o) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  void Write(std::string_view text);
  /// printf-style formatted write (checked like Write).
  void Printf(const char* format, ...) __attribute__((format(printf, 2, 3)));
  /// Hands the buffered text to the operating system (fflush), checked.
  void Flush();
  /// Flushes and closes, checked; the object is then closed (IsOpen() false).
  void Close();
  bool IsOpen() const { return file_ != nullptr; }
  const std::string& Path() const { return path_; }

 private:
  static OutputFile Open(const std::string& path, const std::string& what, const char* mode);
  OutputFile(std::FILE* f, std::string path, std::string what)
      : file_(f), path_(std::move(path)), what_(std::move(what)) {}
  [[noreturn]] void Fail(const std::string& action, int err);

  std::FILE* file_ = nullptr;
  std::string path_;
  std::string what_;
};

/// Writes `text` to `path` atomically: into a temporary file next to it, synced to the disk
/// and closed (each step checked), then renamed over `path`. A reader sees the old file or
/// the new one, never a part; a failure leaves the old file in place and throws IoError.
/// The folder must exist.
void WriteFileAtomic(const std::string& path, std::string_view text, const std::string& what);

/// Creates `dir` and its parents; IoError with the reason if that fails.
void CreateDirectories(const std::string& dir, const std::string& what);

}  // namespace mbsweep
