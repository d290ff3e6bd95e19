/// @file hostdevice.h
/// The one host/device annotation macro of the project. Item physics, integrators and
/// objectives are written once as plain C++ marked with MBS_HD; under nvcc the mark
/// expands to `__host__ __device__`, under a host compiler to nothing.
#pragma once

#if defined(__CUDACC__)
#define MBS_HD __host__ __device__
#define MBS_HD_INLINE __host__ __device__ __forceinline__
#else
#define MBS_HD
#define MBS_HD_INLINE inline
#endif
