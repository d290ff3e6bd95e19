/// @file codegen.h
/// Host only: per-model code generation. A compiled layout is fixed for a whole batch (only
/// theta varies per system), so it can be written out as C++ constants: a constexpr
/// LayoutView over constexpr item records and integer records. Code that runs the existing
/// integrators on that constant instead of a layout read at run time gives the compiler the
/// structure (item kinds, indices, counts) to fold where it inlines, and sizes the LU to the
/// exact number of unknowns (how much it folds: bench/RESULTS.md, section 10). The `cpu-jit`
/// evaluator (cpu/jit.h) compiles it with the system's C++ compiler; the headers the generated
/// code includes travel inside the program (EmbeddedHeaders).
#pragma once

#include <string>
#include <vector>

#include "common/layout.h"

namespace mbsweep {

/// The C++ definitions of `layout` in namespace mbsweep_model: kLayout (a constexpr LayoutView
/// equal to layout.View() in every field), kUnknowns (nODE2 + nODE1 + nAE) and the LU
/// capacities kCapacity (generalized-alpha) and kCapacityRK (the explicit solvers' mass matrix)
/// and kExplicitUnknowns (nODE2 + nODE1), each at least 1. Before them, ahead of any header,
/// what the headers fold: the model's item kinds, its largest sensor and
/// MBSWEEP_MODEL_OBJECTIVES, ObjectiveBound(objectives) for batches of `objectives` objectives
/// (common/objectives.h). Includes common/layout.h only; theta is not part of it.
std::string LayoutSource(const Layout& layout, int objectives);

/// The model's expressions (Layout::expressions) as C++, for code after LayoutSource: defines
/// MBSWEEP_MODEL_EXPRESSIONS and mbsweep_model::Expression (a switch over the programs'
/// offsets), which common/expression.h then calls instead of interpreting the programs. For a
/// model without expressions the function has no cases, so that the program interpreter, which
/// no item of the model reaches, is left out too (in a CUDA kernel it took 272 B of stack
/// and 38 registers per thread: the oscillator's, bench/RESULTS.md section 10).
std::string ExpressionsSource(const Layout& layout);

/// The CUDA translation unit of one model and objective count: LayoutSource (the constants in
/// device memory), ExpressionsSource and one kernel `mbsweep_model_kernel(FusedArgs, P)` on the
/// constant layout: one thread per system for the generalized-alpha family (P:
/// GeneralizedAlphaParameters) or, with explicitSolver, the explicit solvers (P:
/// ExplicitParameters), with the exact number of unknowns as LU capacity and the workspace the
/// model needs (the explicit family: for its most demanding solver type) instead of the
/// interpreter's bound (common/fused_kernel.h: what the kernel does around the integrator); with
/// warpPerSystem (generalized-alpha only; std::logic_error otherwise) one warp per system, its
/// shared slot the model's WarpSlot as literals (common/lockstep.h: RunWarpSystem, launched with
/// slot.reals Reals of dynamic shared memory per warp). cuda/nvrtc_model.h compiles it with
/// NVRTC; the `cuda` evaluator runs it. The generalized-alpha thread kernel of a model of up to
/// kRegisterKernelUnknowns unknowns defines MBSWEEP_INLINE_ALL (common/hostdevice.h) and gathers
/// the whole theta row: every call inlined and the layout folded, each array is indexed by
/// constants only, so the system's state, matrix, theta and objective accumulators stay in
/// registers (the oscillator's kernel: no stack at all, bench/RESULTS.md section 10).
std::string CudaModelSource(const Layout& layout, bool explicitSolver, int objectives, bool warpPerSystem = false);
/// Up to this many unknowns a generated generalized-alpha thread kernel keeps the system in
/// registers (CudaModelSource): the models `cuda` runs one thread per system. Explicit kernels
/// do not, as their tableau's stage count is a run-time parameter.
constexpr int kRegisterKernelUnknowns = 8;

/// A header that generated code includes: its include path ("common/types.h",
/// "mbsweep/item_list.h") and its text.
struct EmbeddedHeader {
  const char* path;
  const char* text;
};
/// Every header of common/ and common/items/ and the generated item lists, as built into this
/// program (generated at build time by cmake/embed_files.cmake).
const std::vector<EmbeddedHeader>& EmbeddedHeaders();

/// 64-bit FNV-1a hash of `text`, as 16 hexadecimal digits (cache keys of compiled models).
std::string HashHex(const std::string& text);
/// HashHex over every embedded header's path and text.
std::string EmbeddedHeadersHash();

/// The folder of compiled models (`cpu-jit`'s shared objects, `cuda`'s cubins):
/// $MBSWEEP_JIT_CACHE, else $XDG_CACHE_HOME/mbsweep/jit, else ~/.cache/mbsweep/jit, else
/// /tmp/mbsweep-jit-<uid>.
std::string JitCacheDirectory();

}  // namespace mbsweep
