// Registers, stack frame and spills of the CUDA kernels generated per model (common/codegen.h:
// CudaModelSource), from ptxas's report on NVRTC's compilation (cuda/nvrtc_model.h, as the
// `cuda` evaluator compiles them): no GPU needed. For each model (the benchmark models and the
// models of the study files in studies/examples/) compiles the generalized-alpha and the
// explicit kernel for the architecture (or finds them in the cache: JitCacheDirectory), writes
// NVRTC's messages to OUT/<model>-alpha.log and OUT/<model>-rk.log and prints one line per
// kernel: unknowns, registers, stack frame bytes, spill store and load bytes, compile seconds
// and whether the cache had it.
//
//   kernel_resources [--out DIR] [--arch sm_90] [--models a,b,...]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "bench/models.h"
#include "cuda/nvrtc_model.h"
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
  std::string out = "kernel_resources", arch = "sm_90";
  std::vector<std::string> models{"oscillator", "pendulum2d", "slidercrank", "chain3d"};
  for (const auto& e : fs::directory_iterator(fs::path(MBSWEEP_SOURCE_DIR) / "studies/examples"))
    if (e.path().extension() == ".yaml") models.push_back(e.path().string());
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--out") out = v;
    else if (a == "--arch") arch = v;
    else if (a == "--models") models = bench::SplitList(v);
    else {
      std::fprintf(stderr, "usage: kernel_resources [--out DIR] [--arch sm_90] [--models a,b,...]\n");
      return 2;
    }
  }
  fs::create_directories(out);
  std::printf("NVRTC %s, %s\n%-34s %8s  %-6s %9s %11s %12s %11s %9s %6s\n", NvrtcVersion().c_str(), arch.c_str(),
              "model", "unknowns", "kernel", "registers", "stack bytes", "spill stores", "spill loads", "seconds",
              "cached");
  int failures = 0;
  for (const std::string& model : models) {
    const bool file = model.size() > 5 && model.substr(model.size() - 5) == ".yaml";
    const Model m = file ? LoadStudyFile(model).model : bench::BuildBenchModel(model);
    const Layout layout = m.Compile();
    const std::string name = file ? fs::path(model).stem().string() : model;
    const LayoutView v = layout.View();
    for (const bool explicitSolver : {false, true}) {
      const char* kernel = explicitSolver ? "rk" : "alpha";
      std::string why;
      const auto binary = CompileCudaModel(layout, explicitSolver, arch, &why);
      if (!binary) {
        std::printf("%-34s %-6s %s\n", name.c_str(), kernel, why.c_str());
        ++failures;
        continue;
      }
      std::ofstream((fs::path(out) / (name + "-" + kernel + ".log")).string()) << binary->log;
      for (const Kernel& k : ParsePtxas(binary->log))
        std::printf("%-34s %8d  %-6s %9d %11d %12d %11d %9.1f %6s\n", name.c_str(), v.nODE2 + v.nODE1 + v.nAE, kernel,
                    k.registers, k.stack, k.spillStores, k.spillLoads, binary->seconds, binary->cacheHit ? "yes" : "no");
      std::fflush(stdout);
    }
  }
  return failures == 0 ? 0 : 1;
}
