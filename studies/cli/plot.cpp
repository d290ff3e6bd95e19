// mbsweep plot: the figures of an output folder, a results file or a sensor file, drawn with
// matplotlib by studies/python/mbsweep/plot.py, which is built into the program
// (cmake/embed_files.cmake) and run by a Python interpreter (commands.h).
#include "studies/cli/session.h"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "common/codegen.h"

extern char** environ;

namespace mbsweep {
/// studies/python/mbsweep/plot.py as built into the program (generated at build time).
const std::vector<EmbeddedHeader>& EmbeddedPlotScript();
}  // namespace mbsweep

namespace mbsweep::cli {

namespace {

constexpr const char* kScriptPath = "studies/python/mbsweep/plot.py";
constexpr const char* kFix =
    "run scripts/setup.sh (it makes <build>/python-venv with matplotlib and configures the build to use it), "
    "or set MBSWEEP_PYTHON to a Python 3 that has numpy and matplotlib (pip install matplotlib)";

/// $MBSWEEP_PYTHON, else the interpreter the build was configured with (MBSWEEP_PLOT_PYTHON).
std::string PlotInterpreter() {
  const char* env = std::getenv("MBSWEEP_PYTHON");
  return env != nullptr && *env != '\0' ? env : MBSWEEP_PLOT_PYTHON;
}

const char* PlotScript() {
  for (const EmbeddedHeader& f : EmbeddedPlotScript())
    if (std::strcmp(f.path, kScriptPath) == 0) return f.text;
  throw std::runtime_error(std::string("this mbsweep was built without ") + kScriptPath);
}

/// The folder the figures go to: --out, else the output folder itself, else the file's folder.
std::string FigureFolder(const Options& o) {
  if (!o.out.empty()) return o.out;
  if (fs::is_directory(o.plotInput)) return o.plotInput;
  const std::string parent = fs::path(o.plotInput).parent_path().string();
  return parent.empty() ? "." : parent;
}

/// python -c <plot.py> RESULTS --out DIR ...: the options of `mbsweep plot` passed through.
std::vector<std::string> ScriptCommand(const Options& o, const std::string& python, const std::string& out) {
  std::vector<std::string> a{python, "-c", PlotScript(), o.plotInput, "--out", out, "--format", o.plotFormat,
                             "--scatter-limit", std::to_string(o.plotScatterLimit)};
  if (o.plotLogX) a.push_back("--logx");
  if (o.plotLogY) a.push_back("--logy");
  if (o.quiet) a.push_back("--quiet");
  return a;
}

/// Runs `args` (args[0] looked up in PATH) with this process's stdout and stderr; returns its
/// exit code. An interpreter that cannot be started is an input error naming it and the fix.
int RunInterpreter(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& s : args) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);  // our buffered output before the interpreter's
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (rc != 0)
    throw ValidationError("mbsweep plot runs Python with numpy and matplotlib; the interpreter '" + args[0] +
                          "' (MBSWEEP_PYTHON, else the build's MBSWEEP_PLOT_PYTHON) cannot be started: " +
                          std::strerror(rc) + "; " + kFix);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(std::string("waiting for the plot interpreter: ") + std::strerror(errno));
  if (WIFSIGNALED(status))
    throw std::runtime_error("the plot interpreter '" + args[0] + "' ended by signal " + std::to_string(WTERMSIG(status)));
  return WEXITSTATUS(status);
}

}  // namespace

int RunPlot(const Options& o) {
  // held while the figures are written: a run still writing into the folder is named
  const OutputFolder folder = OutputFolder::Open(FigureFolder(o), "mbsweep plot " + o.plotInput, {}, true);
  const std::string python = PlotInterpreter();
  const int code = RunInterpreter(ScriptCommand(o, python, folder.Path()));
  // plot.py reports its own errors: 2 invalid input (numpy/matplotlib missing included), 3 I/O
  if (code == 0 || code == 2 || code == 3) return code;
  throw std::runtime_error("the plot script failed in '" + python + "' (exit code " + std::to_string(code) +
                           "; its message is above); is it Python 3.8 or newer?");
}

}  // namespace mbsweep::cli
