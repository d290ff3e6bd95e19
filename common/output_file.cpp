#include "common/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <filesystem>
#include <vector>

namespace mbsweep {

namespace fs = std::filesystem;

std::string IoErrorMessage(const std::string& what, const std::string& path, const std::string& action, int err) {
  return what + " '" + path + "': cannot " + action + ": " + std::strerror(err);
}

void CreateDirectories(const std::string& dir, const std::string& what) {
  if (dir.empty()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError(what + " '" + dir + "': cannot create the folder: " + ec.message());
}

namespace {

void CreateParent(const std::string& path, const std::string& what) {
  const fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw IoError(what + " '" + path + "': cannot create the folder '" + parent.string() + "': " + ec.message());
}

}  // namespace

OutputFile OutputFile::Open(const std::string& path, const std::string& what, const char* mode) {
  CreateParent(path, what);
  std::FILE* f = std::fopen(path.c_str(), mode);
  if (!f) throw IoError(IoErrorMessage(what, path, "open the file for writing", errno));
  return OutputFile(f, path, what);
}

OutputFile OutputFile::Create(const std::string& path, const std::string& what) { return Open(path, what, "wb"); }
OutputFile OutputFile::Append(const std::string& path, const std::string& what) { return Open(path, what, "ab"); }

OutputFile& OutputFile::operator=(OutputFile&& o) noexcept {
  if (this != &o) {
    if (file_) std::fclose(file_);
    file_ = o.file_;
    path_ = std::move(o.path_);
    what_ = std::move(o.what_);
    o.file_ = nullptr;
  }
  return *this;
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
}

void OutputFile::Fail(const std::string& action, int err) {
  // the file is unusable after a failed write: close it (errors there add nothing)
  if (file_) std::fclose(file_);
  file_ = nullptr;
  throw IoError(IoErrorMessage(what_, path_, action, err));
}

void OutputFile::Write(std::string_view text) {
  if (!file_) throw IoError(what_ + " '" + path_ + "': cannot write: the file is not open");
  if (text.empty()) return;
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) Fail("write", errno ? errno : EIO);
}

void OutputFile::Printf(const char* format, ...) {
  char buf[512];
  std::va_list args;
  va_start(args, format);
  std::va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  if (n < 0) {
    va_end(copy);
    Fail("format the text to write", EINVAL);
  }
  if (static_cast<std::size_t>(n) < sizeof buf) {
    va_end(copy);
    Write(std::string_view(buf, static_cast<std::size_t>(n)));
    return;
  }
  std::vector<char> big(static_cast<std::size_t>(n) + 1);
  std::vsnprintf(big.data(), big.size(), format, copy);
  va_end(copy);
  Write(std::string_view(big.data(), static_cast<std::size_t>(n)));
}

void OutputFile::Flush() {
  if (!file_) throw IoError(what_ + " '" + path_ + "': cannot write: the file is not open");
  errno = 0;
  if (std::fflush(file_) != 0) Fail("write", errno ? errno : EIO);
}

void OutputFile::Close() {
  if (!file_) return;
  errno = 0;
  if (std::fflush(file_) != 0) Fail("write", errno ? errno : EIO);
  std::FILE* f = file_;
  file_ = nullptr;
  errno = 0;
  if (std::fclose(f) != 0) throw IoError(IoErrorMessage(what_, path_, "close the file", errno ? errno : EIO));
}

void WriteFileAtomic(const std::string& path, std::string_view text, const std::string& what) {
  std::string tmp = path + ".XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw IoError(IoErrorMessage(what, path, "create a temporary file next to it", errno));
  auto fail = [&](const std::string& action, int err, bool open) {
    if (open) ::close(fd);
    ::unlink(tmp.c_str());
    throw IoError(IoErrorMessage(what, path, action, err));
  };
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write", n < 0 ? errno : ENOSPC, true);
    done += static_cast<std::size_t>(n);
  }
  // the new file's data on the disk before it replaces the old one (a crash leaves either)
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) fail("sync the file to the disk", errno, true);
  if (::fchmod(fd, 0644) != 0) fail("set the file's permissions", errno, true);
  if (::close(fd) != 0) fail("close the file", errno, false);
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("replace the file", errno, false);
}

}  // namespace mbsweep
