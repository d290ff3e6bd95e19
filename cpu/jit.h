/// @file jit.h
/// Compiling a model's generated code (common/codegen.h) with the system's C++ compiler into a
/// shared object, cached on disk, and loading it: what the `cpu-jit` evaluator runs.
///
/// The compiler: $MBSWEEP_JIT_CXX if set (empty or "none": no compilation), else the compiler
/// that built this program if it is still there, else `c++` on PATH. Flags: -std=c++17 -O3
/// -march=native -ffp-contract=off (no contraction into fused multiply-adds: the compiled code
/// rounds as the interpreter does; with GCC also -fwhole-program), then the words of
/// $MBSWEEP_JIT_FLAGS. The cache: $MBSWEEP_JIT_CACHE, else $XDG_CACHE_HOME/mbsweep/jit, else
/// ~/.cache/mbsweep/jit; one shared object per hash of the generated source, the embedded
/// headers, the compiler and its flags and the processor's instruction-set extensions (machines
/// that share the cache load only code they can run), written under a temporary name and
/// renamed, so that concurrent processes share it safely.
#pragma once

#include <memory>
#include <string>

#include "common/codegen.h"  // JitCacheDirectory
#include "common/layout.h"

namespace mbsweep {

struct SystemRangeArgs;

/// A loaded compiled model: RunSystemRange (common/batch_range.h) on the model's constexpr
/// layout with the exact number of unknowns as LU capacity.
struct CompiledModel {
  using RunFunction = void (*)(const SystemRangeArgs*, int*);
  RunFunction run = nullptr;
  std::string key;            ///< the cache key (16 hexadecimal digits)
  std::string library;        ///< path of the shared object
  bool cacheHit = false;      ///< the shared object was in the disk cache
  double compileSeconds = 0;  ///< generation, compilation and loading (0 on a cache hit's compile)
  double loadSeconds = 0;     ///< generation (for the key) and loading, on a cache hit
};

/// The compiler command the JIT would use ("" if none is usable; then `why` says why).
std::string JitCompiler(std::string* why = nullptr);

/// Generates, compiles (or finds in the cache) and loads the model of `layout` for batches of
/// up to ObjectiveBound(objectives) objectives (common/objectives.h; one shared object serves
/// each bound). Models loaded before in this process are returned at once. Returns null and sets
/// `why` (one line naming the compiler log) if no compiler is usable or the compilation fails.
std::shared_ptr<const CompiledModel> CompileModel(const Layout& layout, int objectives, std::string* why);

/// The model CompileModel would return if it is loaded in this process or in the disk cache
/// already; null otherwise (no compilation, no compiler, or a cached file that does not load).
std::shared_ptr<const CompiledModel> FindCompiledModel(const Layout& layout, int objectives);
}  // namespace mbsweep
