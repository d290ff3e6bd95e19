// Registers, stack frame and spills of the CUDA kernels generated per model (common/codegen.h:
// CudaModelSource), from ptxas's report on NVRTC's compilation (cuda/nvrtc_model.h, as the
// `cuda` evaluator compiles them): no GPU needed. For each model (the benchmark models and the
// models of the study files in studies/examples/) compiles the generalized-alpha thread- and
// warp-per-system kernels and the explicit kernel for the architecture (or finds them in the
// cache: JitCacheDirectory), writes NVRTC's messages to OUT/<model>-alpha.log, -warp.log and
// -rk.log and prints one line per kernel: unknowns, objectives (the study's; bench_batch's two
// for a benchmark model), registers, stack frame bytes, spill store and load bytes, compile
// seconds and whether the cache had it.
//
//   kernel_resources [--out DIR] [--arch sm_90] [--models a,b,...]   (a benchmark model or a study file)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/models.h"
#include "cuda/nvrtc_model.h"
#include "studies/study_file.h"

using namespace mbsweep;
namespace fs = std::filesystem;

/// The compiled model of a study file, and the number of its objectives.
static Layout StudyLayout(const std::string& path, int& objectives) {
  const StudyFile study = LoadStudyFile(path);
  objectives = study.ObjectiveCount();
  return study.model.Compile();
}

int main(int argc, char** argv) {
  std::string out = "kernel_resources", arch = "sm_90";
  std::vector<std::string> models{"oscillator", "pendulum2d", "slidercrank", "chain3d"};
  for (const auto& e : fs::directory_iterator(fs::path(MBSWEEP_SOURCE_DIR) / "studies/examples"))
    if (e.path().extension() == ".yaml") models.push_back(e.path().string());
  for (int i = 1; i < argc; i += 2) {
    const std::string a = argv[i], v = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--out" && !v.empty()) out = v;
    else if (a == "--arch" && !v.empty()) arch = v;
    else if (a == "--models" && !v.empty()) models = bench::SplitList(v);
    else {
      std::fprintf(stderr,
                   "usage: kernel_resources [--out DIR] [--arch sm_90] [--models a,b,...]\n"
                   "  each model a benchmark model (bench/models.h) or a study file (.yaml)\n");
      return 2;
    }
  }
  fs::create_directories(out);
  std::printf("NVRTC %s, %s\n%-34s %8s %10s  %-6s %9s %11s %12s %11s %9s %6s\n", NvrtcVersion().c_str(),
              arch.c_str(), "model", "unknowns", "objectives", "kernel", "registers", "stack bytes", "spill stores",
              "spill loads", "seconds", "cached");
  int failures = 0;
  for (const std::string& model : models) {
    const bool file = fs::path(model).extension() == ".yaml";
    Layout layout;
    int objectives = 2;  // bench_batch's two MaxAbs objectives
    try {
      layout = file ? StudyLayout(model, objectives) : bench::BuildBenchModel(model).Compile();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kernel_resources: %s\n", e.what());
      ++failures;
      continue;
    }
    const std::string name = file ? fs::path(model).stem().string() : model;
    const LayoutView v = layout.View();
    // generalized-alpha one thread and one warp per system, explicit one thread per system
    for (const int kind : {0, 1, 2}) {
      const bool explicitSolver = kind == 1, warp = kind == 2;
      const char* kernel = warp ? "warp" : explicitSolver ? "rk" : "alpha";
      std::string why;
      const auto binary = CompileCudaModel(layout, explicitSolver, objectives, arch, &why, warp);
      if (!binary) {
        std::printf("%-34s %-6s %s\n", name.c_str(), kernel, why.c_str());
        ++failures;
        continue;
      }
      std::ofstream((fs::path(out) / (name + "-" + kernel + ".log")).string()) << binary->log;
      const CudaModelBinary& k = *binary;
      std::printf("%-34s %8d %10d  %-6s %9d %11d %12d %11d %9.1f %6s\n", name.c_str(), v.nODE2 + v.nODE1 + v.nAE,
                  objectives, kernel, k.registers, k.stackBytes, k.spillStores, k.spillLoads, k.seconds,
                  k.cacheHit ? "yes" : "no");
      std::fflush(stdout);
    }
  }
  return failures == 0 ? 0 : 1;
}
