/// @file hostdevice.h
/// The one host/device annotation macro of the project. Item physics, integrators and
/// objectives are written once as plain C++ marked with MBS_HD; under nvcc the mark
/// expands to `__host__ __device__`, under a host compiler to nothing.
#pragma once

#if defined(__CUDACC__)
#define MBS_HD __host__ __device__
#define MBS_HD_INLINE __host__ __device__ __forceinline__
/// Large physics functions: kept out of line in device code, so that each kernel
/// instantiation calls one copy instead of inlining it at every call site (this bounds the
/// device compile time; the calls are cheap compared to the functions' work).
#define MBS_HD_NOINLINE __host__ __device__ __noinline__
#else
#define MBS_HD
#define MBS_HD_INLINE inline
#define MBS_HD_NOINLINE inline
#endif

/// Marks a loop over distinct workspace arrays (state, residual, increments) as free of
/// overlap, so that the host compiler drops its run-time overlap checks: for the few
/// coordinates of a typical study model they cost more than the loop itself.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define MBS_NO_OVERLAP _Pragma("GCC ivdep")
#else
#define MBS_NO_OVERLAP
#endif
