// Running the mbsweep command line in-process from tests (studies/cli/cli.h), and reading
// what it wrote.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "studies/cli/cli.h"

namespace mbsweep::test {

inline std::string Example(const std::string& name) { return std::string(MBSWEEP_EXAMPLES_DIR) + "/" + name; }

/// A fresh output folder for one test.
inline std::string OutDir(const std::string& name) {
  const std::filesystem::path p = std::filesystem::path(::testing::TempDir()) / ("mbsweep_cli_" + name);
  std::filesystem::remove_all(p);
  return p.string();
}

struct CliRun {
  int code = 0;
  std::string out, err;
};

/// `mbsweep <args>` in this process, stdout and stderr captured.
inline CliRun Cli(std::vector<std::string> args) {
  args.insert(args.begin(), "mbsweep");
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  CliRun r;
  r.code = cli::RunCli(args);
  r.out = ::testing::internal::GetCapturedStdout();
  r.err = ::testing::internal::GetCapturedStderr();
  return r;
}

/// `mbsweep <args>` in a child process whose files may grow to `maxFileBytes` at most
/// (RLIMIT_FSIZE; a write beyond fails with EFBIG, "File too large", as on a full disk);
/// stderr is returned in `err` (stdout is discarded).
inline CliRun CliWithFileSizeLimit(std::vector<std::string> args, rlim_t maxFileBytes) {
  args.insert(args.begin(), "mbsweep");
  int pipeFd[2];
  if (::pipe(pipeFd) != 0) return CliRun{-1, "", "pipe failed"};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipeFd[0]);
    ::dup2(pipeFd[1], 2);
    if (std::freopen("/dev/null", "w", stdout) == nullptr) ::_exit(120);
    std::signal(SIGXFSZ, SIG_IGN);  // the write fails instead of the process being killed
    const rlimit limit{maxFileBytes, maxFileBytes};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    const int code = cli::RunCli(args);
    std::fflush(stderr);
    ::_exit(code);
  }
  ::close(pipeFd[1]);
  CliRun r;
  char buf[4096];
  for (ssize_t n; (n = ::read(pipeFd[0], buf, sizeof buf)) > 0;) r.err.append(buf, static_cast<size_t>(n));
  ::close(pipeFd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

inline nlohmann::json ReadJson(const std::string& path) {
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << path;
  return nlohmann::json::parse(f);
}

inline std::string ReadText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

/// `mbsweep <args>` in a child process, stdout and stderr captured: what the run loads (compiled
/// models) stays out of this process, so a second child starts as fresh as the first.
inline CliRun CliInChild(std::vector<std::string> args) {
  args.insert(args.begin(), "mbsweep");
  const std::string base = ::testing::TempDir() + "/mbsweep_child_" + std::to_string(::getpid());
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!std::freopen((base + ".out").c_str(), "w", stdout) || !std::freopen((base + ".err").c_str(), "w", stderr))
      ::_exit(120);
    const int code = cli::RunCli(args);
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CliRun r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadText(base + ".out");
  r.err = ReadText(base + ".err");
  return r;
}

}  // namespace mbsweep::test
