// Checked file output (common/output_file.h): every failure names the file and the operating
// system's reason; an atomic replace leaves the old file whole when the new one cannot be written.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/output_file.h"

namespace mbsweep {
namespace {

namespace fs = std::filesystem;

std::string Dir(const std::string& name) {
  const fs::path p = fs::path(::testing::TempDir()) / ("mbsweep_output_file_" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

std::string Read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(OutputFile, WritesAppendsAndCloses) {
  const std::string path = Dir("write") + "/sub/a.txt";  // the parent folder is created
  OutputFile f = OutputFile::Create(path, "test file");
  f.Write("x = ");
  f.Printf("%d, %.3g\n", 42, 0.5);
  f.Close();
  EXPECT_FALSE(f.IsOpen());
  OutputFile g = OutputFile::Append(path, "test file");
  g.Printf("%s\n", std::string(1000, 'y').c_str());  // longer than the formatting buffer
  g.Close();
  EXPECT_EQ(Read(path), "x = 42, 0.5\n" + std::string(1000, 'y') + "\n");
}

TEST(OutputFile, FullDiskNamesTheFileAndTheReason) {
  // /dev/full accepts the open and fails every write that reaches it with ENOSPC; the small
  // write stays in the buffer until Close, where it must not be lost without a word
  OutputFile f = OutputFile::Create("/dev/full", "sensor file");
  f.Write("t,value\n");
  try {
    f.Close();
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_STREQ(e.what(), "sensor file '/dev/full': cannot write: No space left on device");
  }
  OutputFile g = OutputFile::Create("/dev/full", "results file");
  EXPECT_THROW(g.Write(std::string(1 << 20, 'x')), IoError);  // larger than the buffer: fails at once
  const std::string file = Dir("not_a_folder") + "/a-file";
  std::ofstream(file) << "a file where a folder would have to be";
  EXPECT_THROW(OutputFile::Create(file + "/x.txt", "x"), IoError);
}

TEST(OutputFile, AtomicReplaceKeepsTheOldFileWhenTheNewCannotBeWritten) {
  const std::string dir = Dir("atomic");
  const std::string path = dir + "/summary.json";
  WriteFileAtomic(path, "old\n", "summary file");
  EXPECT_EQ(Read(path), "old\n");
  // in a child whose files may not grow beyond 16 bytes (EFBIG, as a full disk does)
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{16, 16};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      WriteFileAtomic(path, std::string(100, 'n'), "summary file");
    } catch (const IoError& e) {
      const std::string m = e.what();
      ::_exit(m == "summary file '" + path + "': cannot write: File too large" ? 0 : 2);
    }
    ::_exit(1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: no IoError, 2: another message";
  EXPECT_EQ(Read(path), "old\n");  // the old file whole
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // no temporary left
  WriteFileAtomic(path, "new\n", "summary file");
  EXPECT_EQ(Read(path), "new\n");
  EXPECT_THROW(WriteFileAtomic(dir + "/no-such-folder/x.json", "x", "summary file"), IoError);
}

}  // namespace
}  // namespace mbsweep
