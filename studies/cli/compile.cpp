// mbsweep compile: the code generated for a study's model, compiled into the cache of compiled
// models before any run (commands.h): the cpu-jit shared object and the cuda kernel for each
// --arch, so that a study's first batch on a GPU node does not wait for NVRTC.
#include <cstdio>
#include <string>

#include "common/batch.h"
#include "common/codegen.h"
#include "studies/cli/commands.h"
#include "studies/cli/session.h"

namespace mbsweep::cli {

int RunCompile(const Options& o) {
  const StudyFile f = LoadStudy(o, false);
  const Layout layout = f.model.Compile();
  std::vector<std::string> archs = o.archs;
  if (archs.empty()) {  // the GPU of this machine, if it has one
    const std::string arch = CudaDeviceArchitecture(0);
    if (!arch.empty()) archs.push_back(arch);
  }
  const std::vector<AheadOfTimeModel> compiled = CompileAhead(layout, f.solver, f.ObjectiveCount(), archs);
  const LayoutView v = layout.View();
  std::printf("model of %s: %d unknowns, %d objectives, %s; cache %s\n", f.path.c_str(), v.nODE2 + v.nODE1 + v.nAE,
              f.ObjectiveCount(), DynamicSolverTypeName(f.solver), JitCacheDirectory().c_str());
  int failed = 0;
  for (const AheadOfTimeModel& m : compiled) {
    if (!m.error.empty()) {
      std::printf("%-12s failed: %s\n", m.target.c_str(), m.error.c_str());
      ++failed;
      continue;
    }
    std::printf("%-12s %s in %.3g s: %s\n", m.target.c_str(), m.cacheHit ? "found in the cache" : "compiled", m.seconds,
                m.path.c_str());
    if (!m.details.empty()) std::printf("%-12s %s\n", "", m.details.c_str());
  }
  if (o.archs.empty() && archs.empty())
    std::printf("no GPU here: --arch sm_XX compiles the cuda kernel for the GPU nodes that share this cache\n");
  return failed == 0 ? 0 : 3;
}

}  // namespace mbsweep::cli
