// Evaluators by name (CreateEvaluator, CudaAvailable; declared in common/batch.h): the one
// place that knows every backend, above both (target mbsweep::backends, which links
// mbsweep::cpu and, when built, mbsweep::cuda; the backends know only common/).
#include "common/batch.h"

#include <algorithm>
#include <cstdio>
#include <future>

#include "common/explicit_rk.h"
#include "common/rules.h"
#include "common/system_runner.h"
#include "cpu/evaluator_cpu.h"
#include "cpu/jit.h"
#ifdef MBSWEEP_HAVE_CUDA
#include "cuda/evaluator_cuda.h"
#include "cuda/nvrtc_model.h"
#endif

namespace mbsweep {

#ifndef MBSWEEP_HAVE_CUDA
int CudaDeviceCount() { return 0; }
std::string CudaDeviceArchitecture(int) { return ""; }
#endif

bool CudaAvailable(std::string* why) {
#ifdef MBSWEEP_HAVE_CUDA
  return CudaDeviceAvailable(why);
#else
  if (why) *why = "this build has no CUDA backend (configured without a CUDA compiler)";
  return false;
#endif
}

std::unique_ptr<Evaluator> CreateEvaluator(const std::string& name, const EvaluatorOptions& o) {
  if (name == "cpu") {
    CpuEvaluatorOptions c;
    c.threads = o.threads;
    return CreateCpuEvaluator(c);
  }
  if (name == "cpu-jit") {
    CpuJitEvaluatorOptions c;
    c.threads = o.threads;
    return CreateCpuJitEvaluator(c);
  }
  if (name == "cuda" || name == "cuda-thread" || name == "cuda-warp" || name == "cuda-interp" ||
      name == "cuda-interp-thread" || name == "cuda-cublas" || name == "auto") {
    std::string why;
    if (!CudaAvailable(&why)) {
      if (name == "auto") {
        CpuJitEvaluatorOptions c;
        c.threads = o.threads;
        c.compileAfterSeconds = kAutoCompileAfterSeconds;
        return CreateCpuJitEvaluator(c);
      }
      throw ValidationError("evaluator '" + name + "' is not available: " + why);
    }
#ifdef MBSWEEP_HAVE_CUDA
    CudaEvaluatorOptions c;
    c.device = o.device;
    c.maxChunkSystems = o.maxChunkSystems;
    if (name == "cuda-thread" || name == "cuda-interp-thread") c.mapping = KernelMapping::threadPerSystem;
    c.generated = name.rfind("cuda-interp", 0) != 0;
    if (name == "cuda-warp") c.mapping = KernelMapping::warpPerSystem;
    return name == "cuda-cublas" ? CreateCublasEvaluator(c) : CreateCudaEvaluator(c);
#endif
  }
  throw ValidationError("unknown evaluator '" + name + "' (valid: cpu, cpu-jit, cuda, cuda-thread, cuda-warp, cuda-interp, cuda-interp-thread, cuda-cublas, auto)");
}

std::vector<AheadOfTimeModel> CompileAhead(const Layout& layout, DynamicSolverType solver, int objectives,
                                           const std::vector<std::string>& archs) {
#ifdef MBSWEEP_HAVE_CUDA
  const std::vector<std::string> valid = NvrtcArchitectures();
  for (const std::string& arch : archs)
    if (std::find(valid.begin(), valid.end(), arch) == valid.end()) {
      std::string list;
      for (const std::string& a : valid) list += (list.empty() ? "" : ", ") + a;
      throw ValidationError("--arch " + arch + ": NVRTC " + NvrtcVersion() + " does not compile for it (valid: " + list +
                            ")");
    }
#else
  if (!archs.empty())
    throw ValidationError("--arch " + archs.front() + ": this build has no CUDA backend (configured without a CUDA compiler)");
#endif
  // one thread per target (common/batch.h): `mbsweep compile` waits for the longest, not the sum
  std::vector<std::future<AheadOfTimeModel>> jobs;
  jobs.push_back(std::async(std::launch::async, [&layout, objectives] {
    AheadOfTimeModel cpu;
    cpu.target = "cpu-jit";
    if (const auto m = CompileModel(layout, objectives, &cpu.error)) {
      cpu.error.clear();
      cpu.path = m->library;
      cpu.cacheHit = m->cacheHit;
      cpu.seconds = m->cacheHit ? m->loadSeconds : m->compileSeconds;
    }
    return cpu;
  }));
#ifdef MBSWEEP_HAVE_CUDA
  const bool explicitSolver = IsExplicitSolverType(solver);
  const LayoutView v = layout.View();
  const int unknowns = v.nODE2 + v.nODE1 + v.nAE;
  // the kernel `cuda` runs (ChooseKernelMapping): one thread or one warp per system
  std::string runs;
  bool warp = false;
  try {
    warp = ChooseKernelMapping(BatchCapacityFor(unknowns), explicitSolver) == KernelMapping::warpPerSystem;
    runs = warp ? "cuda and cuda-warp run it (a warp per system of " + std::to_string(unknowns) + " unknowns)"
                : "cuda and cuda-thread run it";
  } catch (const ValidationError& e) {
    runs = std::string("no evaluator runs it: ") + e.what();
  }
  for (const std::string& arch : archs)
    jobs.push_back(std::async(std::launch::async, [&layout, objectives, explicitSolver, warp, runs, arch] {
      AheadOfTimeModel k;
      k.target = "cuda " + arch;
      if (const auto b = CompileCudaModel(layout, explicitSolver, objectives, arch, &k.error, warp)) {
        k.error.clear();
        k.path = b->path;
        k.cacheHit = b->cacheHit;
        k.seconds = b->seconds;
        char text[160];
        std::snprintf(text, sizeof text, "%d registers, %d B stack, %d B spill stores per thread; ", b->registers,
                      b->stackBytes, b->spillStores);
        k.details = text + runs;
      }
      return k;
    }));
#else
  (void)solver;
#endif
  std::vector<AheadOfTimeModel> out;
  for (std::future<AheadOfTimeModel>& job : jobs) out.push_back(job.get());
  return out;
}

}  // namespace mbsweep
