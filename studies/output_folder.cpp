#include "studies/output_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <filesystem>

#include "common/output_file.h"
#include "common/rules.h"

namespace mbsweep {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockName = ".mbsweep.lock";

/// The lock file's text: "pid <n>\n<run>\nstarted <date>\n" (one line each, read back for
/// the message another run gets).
std::string LockText(const std::string& run) {
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  return "pid " + std::to_string(::getpid()) + "\n" + run + "\nstarted " + date + "\n";
}

std::string ReadHolder(int fd) {
  std::string text;
  char buf[512];
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    at += n;
  }
  std::string holder;
  for (char c : text) holder += c == '\n' ? std::string("; ") : std::string(1, c);
  while (!holder.empty() && (holder.back() == ' ' || holder.back() == ';')) holder.pop_back();
  return holder.empty() ? "holder unknown" : holder;
}

}  // namespace

OutputFolder& OutputFolder::operator=(OutputFolder&& o) noexcept {
  if (this != &o) {
    if (lockFd_ >= 0) ::close(lockFd_);
    path_ = std::move(o.path_);
    warnings_ = std::move(o.warnings_);
    lockFd_ = o.lockFd_;
    o.lockFd_ = -1;
  }
  return *this;
}

OutputFolder::~OutputFolder() {
  if (lockFd_ >= 0) ::close(lockFd_);  // closing the descriptor releases the lock
}

std::string OutputFolder::File(const std::string& name) const { return (fs::path(path_) / name).string(); }

OutputFolder OutputFolder::Open(const std::string& dir, const std::string& run, const std::vector<std::string>& outputs,
                                bool resume) {
  std::error_code ec;
  const fs::path given = fs::absolute(dir, ec);
  if (fs::exists(given, ec) && !fs::is_directory(given, ec))
    throw ValidationError("output folder '" + dir + "' is a file, not a folder; name a folder (it is created if missing)");
  CreateDirectories(given.string(), "output folder");
  OutputFolder f;
  f.path_ = fs::weakly_canonical(given, ec).string();
  if (ec || f.path_.empty()) f.path_ = given.lexically_normal().string();

  const std::string lockPath = f.File(kLockName);
  f.lockFd_ = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (f.lockFd_ < 0) throw IoError(IoErrorMessage("output folder lock", lockPath, "create the file", errno));
  if (::flock(f.lockFd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    if (err == EWOULDBLOCK)
      throw ValidationError("output folder '" + f.path_ + "' is in use by another mbsweep run (" + ReadHolder(f.lockFd_) +
                            "); wait for it to finish or choose another --out");
    f.warnings_.push_back("output folder '" + f.path_ + "' cannot be locked (" + IoErrorMessage("lock file", lockPath, "lock", err) +
                          "); a second run writing into it at the same time would not be noticed");
  } else {
    const std::string text = LockText(run);
    if (::ftruncate(f.lockFd_, 0) != 0 || ::pwrite(f.lockFd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()))
      throw IoError(IoErrorMessage("output folder lock", lockPath, "write", errno));
  }

  if (!resume) {
    std::string existing;
    for (const auto& name : outputs)
      if (fs::exists(f.File(name), ec)) existing += (existing.empty() ? "" : ", ") + name;
    if (!existing.empty())
      f.warnings_.push_back("output folder '" + f.path_ + "' holds outputs of an earlier run (" + existing +
                            "); this run replaces them");
  }
  return f;
}

}  // namespace mbsweep
