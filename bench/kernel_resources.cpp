// Registers, stack frame and spills of the CUDA kernels generated per model (common/codegen.h:
// CudaModelSource), from ptxas's report: no GPU needed, only nvcc. For each model (the benchmark
// models and the models of the study files in studies/examples/) writes OUT/<model>.cu, compiles
// it with `nvcc -O3 -arch=sm_90 -cubin -Xptxas -v` (the log in OUT/<model>.log) and prints one
// line per kernel: unknowns, registers, stack frame bytes, spill store and load bytes.
//
//   kernel_resources [--out DIR] [--nvcc PATH] [--arch sm_90] [--models a,b,...]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "bench/models.h"
#include "common/codegen.h"
#include "studies/study_file.h"

using namespace mbsweep;
namespace fs = std::filesystem;

namespace {

struct Kernel {
  std::string name;
  int registers = -1, stack = -1, spillStores = -1, spillLoads = -1;
};

/// The ptxas figures of each entry function in `log`.
std::vector<Kernel> ParsePtxas(const std::string& log) {
  std::vector<Kernel> kernels;
  const std::regex entry(R"(Compiling entry function '(\w+)')"), props(R"(Function properties for (\w+))"),
      frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)"),
      used(R"(Used (\d+) registers)");
  std::istringstream in(log);
  std::string current, propsOf;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, entry)) {
      kernels.push_back(Kernel{m[1].str()});
      current = m[1].str();
    } else if (std::regex_search(line, m, props)) {
      propsOf = m[1].str();
    } else if (std::regex_search(line, m, frame) && !kernels.empty() && propsOf == kernels.back().name) {
      kernels.back().stack = std::stoi(m[1].str());
      kernels.back().spillStores = std::stoi(m[2].str());
      kernels.back().spillLoads = std::stoi(m[3].str());
    } else if (std::regex_search(line, m, used) && !kernels.empty() && current == kernels.back().name) {
      kernels.back().registers = std::stoi(m[1].str());
    }
  }
  return kernels;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out = "kernel_resources", nvcc = MBSWEEP_NVCC, arch = "sm_90";
  std::vector<std::string> models{"oscillator", "pendulum2d", "slidercrank", "chain3d"};
  for (const auto& e : fs::directory_iterator(fs::path(MBSWEEP_SOURCE_DIR) / "studies/examples"))
    if (e.path().extension() == ".yaml") models.push_back(e.path().string());
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--out") out = v;
    else if (a == "--nvcc") nvcc = v;
    else if (a == "--arch") arch = v;
    else if (a == "--models") models = bench::SplitList(v);
    else {
      std::fprintf(stderr, "usage: kernel_resources [--out DIR] [--nvcc PATH] [--arch sm_90] [--models a,b,...]\n");
      return 2;
    }
  }
  fs::create_directories(out);
  std::printf("%-34s %8s  %-20s %9s %11s %12s %11s\n", "model", "unknowns", "kernel", "registers", "stack bytes",
              "spill stores", "spill loads");
  int failures = 0;
  for (const std::string& model : models) {
    const bool file = model.size() > 5 && model.substr(model.size() - 5) == ".yaml";
    const Model m = file ? LoadStudyFile(model).model : bench::BuildBenchModel(model);
    const Layout layout = m.Compile();
    const std::string name = file ? fs::path(model).stem().string() : model;
    const std::string base = (fs::path(out) / name).string();
    std::ofstream(base + ".cu") << CudaModelSource(layout);
    const std::string command = nvcc +
                                " -std=c++17 -O3 -DNDEBUG --expt-relaxed-constexpr -diag-suppress 20012 -arch=" + arch +
                                " -cubin -Xptxas -v -I" + MBSWEEP_SOURCE_DIR + " -I" + MBSWEEP_GENERATED_DIR +
                                " -x cu " + base + ".cu -o " + base + ".cubin > " + base + ".log 2>&1";
    if (std::system(command.c_str()) != 0) {
      std::printf("%-34s compilation failed: %s.log\n", name.c_str(), base.c_str());
      ++failures;
      continue;
    }
    std::ifstream in(base + ".log");
    std::stringstream log;
    log << in.rdbuf();
    const LayoutView v = layout.View();
    for (const Kernel& k : ParsePtxas(log.str()))
      std::printf("%-34s %8d  %-20s %9d %11d %12d %11d\n", name.c_str(), v.nODE2 + v.nODE1 + v.nAE, k.name.c_str(),
                  k.registers, k.stack, k.spillStores, k.spillLoads);
    std::fflush(stdout);
  }
  return failures == 0 ? 0 : 1;
}
