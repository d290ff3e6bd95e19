// mbsweep command line entry point (studies/cli/cli.h).
#include <string>
#include <vector>

#include "studies/cli/cli.h"

int main(int argc, char** argv) { return mbsweep::cli::RunCli(std::vector<std::string>(argv, argv + argc)); }
