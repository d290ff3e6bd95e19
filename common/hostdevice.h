/// @file hostdevice.h
/// The one host/device annotation macro of the project. Item physics, integrators and
/// objectives are written once as plain C++ marked with MBS_HD; under nvcc the mark
/// expands to `__host__ __device__`, under a host compiler to nothing.
#pragma once

/// MBS_HD_INLINE forces inlining where MBS_HD_INLINE_HINT leaves it to the compiler.
#if defined(__CUDACC__) && defined(MBSWEEP_INLINE_ALL)
/// A generated thread-per-system kernel of a small model (common/codegen.h) inlines everything:
/// with the layout's constants folded, its loops unroll and its arrays become registers.
#define MBS_HD __host__ __device__ __forceinline__
#define MBS_HD_INLINE __host__ __device__ __forceinline__
#define MBS_HD_INLINE_HINT __host__ __device__ __forceinline__
#define MBS_HD_NOINLINE __host__ __device__ __forceinline__
#elif defined(__CUDACC__)
#define MBS_HD __host__ __device__
#define MBS_HD_INLINE __host__ __device__ __forceinline__
#define MBS_HD_INLINE_HINT __host__ __device__ inline
/// Large physics functions: kept out of line in device code, so that each kernel
/// instantiation calls one copy instead of inlining it at every call site (this bounds the
/// device compile time; the calls are cheap compared to the functions' work). `inline` keeps
/// the header definitions legal in more than one .cu translation unit.
#define MBS_HD_NOINLINE __host__ __device__ __noinline__ inline
#else
#define MBS_HD
#define MBS_HD_INLINE inline
#define MBS_HD_INLINE_HINT inline
#define MBS_HD_NOINLINE inline
#endif

/// Thin wrappers that must not add a call level for the host compiler's inliner (its budget
/// decides whether the item physics around the integrator is inlined): always inlined.
#if defined(__CUDACC__)
#define MBS_HD_FORCEINLINE __host__ __device__ __forceinline__
#elif defined(__GNUC__)
#define MBS_HD_FORCEINLINE inline __attribute__((always_inline))
#else
#define MBS_HD_FORCEINLINE inline
#endif

/// After the parameter list of a lambda that the host compiler must inline, as it does
/// MBS_HD_FORCEINLINE functions (the bodies of ForEachIndex, common/layout_records.h).
#if defined(__GNUC__) && !defined(__CUDACC__)
#define MBS_LAMBDA_FORCEINLINE __attribute__((always_inline))
#else
#define MBS_LAMBDA_FORCEINLINE
#endif

/// Rarely taken paths of the integrators (the start of a run, rejected steps, Newton
/// restarts): out of line on the host and the device, so that the hot Newton loop around
/// them stays small where the integrator is inlined into its caller.
#if defined(__CUDACC__) && defined(MBSWEEP_INLINE_ALL)
#define MBS_HD_COLD __host__ __device__ __forceinline__
#elif defined(__CUDACC__)
#define MBS_HD_COLD __host__ __device__ __noinline__
#elif defined(__GNUC__)
#define MBS_HD_COLD __attribute__((noinline, cold))
#else
#define MBS_HD_COLD
#endif

/// Host/device function kept out of line in host builds only (`inline` included): an
/// integrator's Run(), so that the host compiler does not spend its inlining budget on the one
/// call per system (the kernels inline it as before).
#if defined(__CUDACC__) && defined(MBSWEEP_INLINE_ALL)
#define MBS_HD_HOST_NOINLINE __host__ __device__ __forceinline__
#elif defined(__CUDACC__)
#define MBS_HD_HOST_NOINLINE __host__ __device__ inline
#elif defined(__GNUC__)
#define MBS_HD_HOST_NOINLINE __attribute__((noinline)) inline
#else
#define MBS_HD_HOST_NOINLINE inline
#endif

/// Before a loop over a model's items or their coordinates: unrolled where every call is inlined
/// (MBSWEEP_INLINE_ALL), so that the layout's constants index registers, not local memory.
#if defined(__CUDACC__) && defined(MBSWEEP_INLINE_ALL)
#define MBS_UNROLL _Pragma("unroll")
#else
#define MBS_UNROLL
#endif

/// Marks a loop over distinct workspace arrays (state, residual, increments) as free of
/// overlap, so that the host compiler drops its run-time overlap checks: for the few
/// coordinates of a typical study model they cost more than the loop itself.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define MBS_NO_OVERLAP _Pragma("GCC ivdep")
#else
#define MBS_NO_OVERLAP
#endif

/// Brackets code whose loops run over the coordinates of one system (an integrator's
/// predictor, updates and norms) to keep the host compiler from vectorizing them: for the few
/// coordinates of a typical study model the vector loop's set-up and remainder cost more than
/// the loop, and the integrator waits on each of them in turn (with scalar loops in the
/// generalized-alpha integrator the benchmark oscillator's steps ran 1.4x faster, the
/// pendulum's and the slider-crank's 1.02-1.04x; the same for the item evaluations or the
/// dense LU made the slider-crank and the 3D chain 2-16% slower). Also around the planar
/// joints' residual (planar marker kinematics and reactions), where the vectorizer paired the
/// x and y rows with more shuffles than it saved (pendulum 1.02x, 1 % fewer instructions).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define MBS_SCALAR_LOOPS_BEGIN _Pragma("GCC push_options") _Pragma("GCC optimize(\"no-tree-vectorize\")")
#define MBS_SCALAR_LOOPS_END _Pragma("GCC pop_options")
#else
#define MBS_SCALAR_LOOPS_BEGIN
#define MBS_SCALAR_LOOPS_END
#endif
