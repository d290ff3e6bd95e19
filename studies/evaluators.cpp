// Evaluators by name (CreateEvaluator, CudaAvailable; declared in common/batch.h): the one
// place that knows every backend, above both (target mbsweep::backends, which links
// mbsweep::cpu and, when built, mbsweep::cuda; the backends know only common/).
#include "common/batch.h"

#include "common/rules.h"
#include "cpu/evaluator_cpu.h"
#ifdef MBSWEEP_HAVE_CUDA
#include "cuda/evaluator_cuda.h"
#endif

namespace mbsweep {

#ifndef MBSWEEP_HAVE_CUDA
int CudaDeviceCount() { return 0; }
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
      if (name == "auto") return CreateEvaluator("cpu", o);
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

}  // namespace mbsweep
