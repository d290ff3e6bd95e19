// The CUDA kernels generated per model (common/codegen.h: CudaModelSource) and compiled by NVRTC
// (cuda/nvrtc_model.h). Without a device: NVRTC compiles a model from the embedded headers
// alone into a cubin with ptxas's resource report, caches it, and refuses an architecture it
// does not know; the small oscillator's kernel needs no stack. With a device: the generated
// thread-per-system kernel (`cuda-thread`) gives the interpreter's kernel's results
// (`cuda-interp-thread`) to 1e-13 relative, and so does the generated warp-per-system kernel
// (`cuda`, against `cuda-interp`) on the models it runs, with the same statuses and counters,
// on a pendulum grid with invalid rows and Newton failures, the 3D Euler-parameter chain, the
// index-2 slider-crank, a model with eleven expressions and an explicit RK44 batch. The
// compiled kernels go to the build tree's cache (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "common/codegen.h"
#include "cuda/evaluator_cuda.h"
#include "cuda/nvrtc_model.h"
#include "tests/cpu/test_util.h"

namespace mbsweep {
namespace {

constexpr double kRelative = 1e-13;  ///< the issue's bound: generated code equals the interpreter

// The oscillator's explicit kernel: a cubin (an ELF file) for sm_90, NVRTC's messages with
// ptxas's report of the kernel, the cubin in the cache folder, and the same binary for the same
// structure again (the process's cache).
TEST(NvrtcModel, CompilesFromEmbeddedHeadersAndCaches) {
  const test::BatchFixture f = test::OscillatorFixture();
  const Layout& layout = f.layout;
  std::string why;
  const auto binary = CompileCudaModel(layout, true, 1, "sm_90", &why);
  ASSERT_TRUE(binary) << why;
  ASSERT_GT(binary->cubin.size(), 4u);
  EXPECT_EQ(binary->cubin.substr(0, 4), "\x7f" "ELF");
  EXPECT_NE(binary->log.find("Compiling entry function 'mbsweep_model_kernel' for 'sm_90'"), std::string::npos)
      << binary->log;
  EXPECT_NE(binary->log.find("registers"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(JitCacheDirectory() + "/cuda-" + binary->key + ".cubin"));
  EXPECT_EQ(CompileCudaModel(layout, true, 1, "sm_90", &why), binary);
}

// The slider-crank's warp-per-system kernel (21 unknowns: what `cuda` runs for it) compiles
// too, into a cubin of its own, with ptxas's figures.
TEST(NvrtcModel, CompilesTheWarpKernel) {
  const test::BatchFixture f = test::SliderCrankFixture();
  std::string why;
  const auto warp = CompileCudaModel(f.layout, false, 2, "sm_90", &why, true);
  ASSERT_TRUE(warp) << why;
  EXPECT_NE(warp->log.find("Compiling entry function 'mbsweep_model_kernel' for 'sm_90'"), std::string::npos)
      << warp->log;
  EXPECT_GT(warp->registers, 0) << warp->log;
  EXPECT_GE(warp->stackBytes, 0) << warp->log;
  const auto thread = CompileCudaModel(f.layout, false, 2, "sm_90", &why);
  ASSERT_TRUE(thread) << why;
  EXPECT_NE(warp->key, thread->key);
}

// The oscillator's generalized-alpha thread kernel (3 unknowns, 2 objectives: what `cuda` runs
// for it) keeps the whole system in registers: ptxas reports no stack frame and no spills (the
// interpreter's kernel: 13 KB of stack per thread, bench/RESULTS.md section 10).
TEST(NvrtcModel, SmallModelsKernelHasNoStack) {
  const test::BatchFixture f = test::OscillatorFixture();
  std::string why;
  const auto binary = CompileCudaModel(f.layout, false, 2, "sm_90", &why);
  ASSERT_TRUE(binary) << why;
  EXPECT_GT(binary->registers, 0) << binary->log;
  EXPECT_EQ(binary->stackBytes, 0) << binary->log;
  EXPECT_EQ(binary->spillStores, 0) << binary->log;
  EXPECT_EQ(binary->spillLoads, 0) << binary->log;
}

TEST(NvrtcModel, RefusesAnUnknownArchitecture) {
  const Layout layout = bench::BuildOscillator().Compile();
  std::string why;
  EXPECT_FALSE(CompileCudaModel(layout, false, 1, "sm_1", &why));
  EXPECT_NE(why.find("sm_1"), std::string::npos) << why;
  EXPECT_NE(why.find(NvrtcVersion()), std::string::npos) << why;
}

#define REQUIRE_CUDA()                             \
  do {                                             \
    std::string why;                               \
    if (!CudaAvailable(&why)) GTEST_SKIP() << why; \
  } while (0)

// The interpreter's kernel (evaluator `interp`) against the generated one (`generated`): the
// thread-per-system kernels by default; "cuda-interp" and "cuda" map a model of more than 8
// unknowns to a warp per system.
void ExpectGeneratedEqualsInterpreter(const BatchProblem& p, const std::string& interp = "cuda-interp-thread",
                                      const std::string& gen = "cuda-thread") {
  const BatchResult interpreted = CreateEvaluator(interp)->Evaluate(p);
  const BatchResult generated = CreateEvaluator(gen)->Evaluate(p);
  EXPECT_EQ(interpreted.backend, interp);
  EXPECT_EQ(generated.backend, gen);
  EXPECT_GT(interpreted.CountStatus(SolveStatus::ok), 0);
  EXPECT_EQ(interpreted.status, generated.status);
  ASSERT_EQ(interpreted.values.size(), generated.values.size());
  for (size_t k = 0; k < interpreted.values.size(); ++k) {
    const double a = interpreted.values[k], b = generated.values[k];
    if (std::isnan(a)) {
      EXPECT_TRUE(std::isnan(b)) << "value " << k;
      continue;
    }
    EXPECT_LE(std::abs(a - b), kRelative * std::abs(a)) << "value " << k << ": " << a << " vs " << b;
  }
  for (size_t i = 0; i < interpreted.info.size(); ++i) {
    EXPECT_EQ(interpreted.info[i].steps, generated.info[i].steps) << "system " << i;
    EXPECT_EQ(interpreted.info[i].newtonIterations, generated.info[i].newtonIterations) << "system " << i;
    EXPECT_EQ(interpreted.info[i].jacobianUpdates, generated.info[i].jacobianUpdates) << "system " << i;
  }
}

TEST(CudaGenerated, PendulumGridWithFailures) {
  REQUIRE_CUDA();
  const test::BatchFixture f = test::PendulumBatchFixture();
  ExpectGeneratedEqualsInterpreter(test::PendulumGridWithFailures(f, 300));
}

TEST(CudaGenerated, EulerParameterChain3D) {
  REQUIRE_CUDA();
  const test::BatchFixture f = test::ChainBatchFixture(3);
  ExpectGeneratedEqualsInterpreter(test::ChainBatch(f, 64, 100));
}

TEST(CudaGenerated, SliderCrankIndex2) {
  REQUIRE_CUDA();
  const test::BatchFixture f = test::SliderCrankFixture();
  ExpectGeneratedEqualsInterpreter(test::SliderCrankBatch(f));
}

// The warp-per-system kernels (the automatic mapping of 21 and 33 unknowns).
TEST(CudaGenerated, WarpKernelSliderCrankIndex2) {
  REQUIRE_CUDA();
  const test::BatchFixture f = test::SliderCrankFixture();
  ExpectGeneratedEqualsInterpreter(test::SliderCrankBatch(f), "cuda-interp", "cuda");
}

TEST(CudaGenerated, WarpKernelEulerParameterChain3D) {
  REQUIRE_CUDA();
  const test::BatchFixture f = test::ChainBatchFixture(3);
  ExpectGeneratedEqualsInterpreter(test::ChainBatch(f, 64, 100), "cuda-interp", "cuda");
}

TEST(CudaGenerated, ElevenExpressions) {
  REQUIRE_CUDA();
  const test::BatchFixture f = test::ExpressionFixture();
  ExpectGeneratedEqualsInterpreter(test::ExpressionBatch(f, DynamicSolverType::GeneralizedAlpha));
}

TEST(CudaGenerated, OscillatorWithRK44) {
  REQUIRE_CUDA();
  const test::BatchFixture f = test::OscillatorFixture();
  ExpectGeneratedEqualsInterpreter(test::OscillatorRK44Batch(f, 256));
}

}  // namespace
}  // namespace mbsweep
