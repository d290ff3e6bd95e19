// mbsweep command line entry point (studies/cli/cli.h).
#include <string>
#include <vector>

#include "studies/cli/cli.h"
#include "studies/ranks.h"

int main(int argc, char** argv) {
  const int code = mbsweep::cli::RunCli(std::vector<std::string>(argv, argv + argc));
  mbsweep::Ranks::World().Finalize();
  return code;
}
