/// @file cli.h
/// The `mbsweep` command line as a library function, so that tests run it in-process:
///   mbsweep simulate|sweep|optimize|sensitivity|identify|compare|plot ... (see README's CLI
///   reference, or `mbsweep <command> --help`).
/// Exit codes: 0 success, 1 usage error (bad command line), 2 invalid input (study file,
/// parameters, unavailable backend), 3 a run-time failure (solver error, I/O error).
#pragma once

#include <string>
#include <vector>

namespace mbsweep::cli {

/// Runs the command line `args` (args[0] is the program name). Never throws: errors are
/// printed to stderr and turned into the exit code.
int RunCli(const std::vector<std::string>& args);

}  // namespace mbsweep::cli
