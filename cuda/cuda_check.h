/// @file cuda_check.h
/// Every CUDA runtime and cuBLAS call goes through one checking macro that throws
/// std::runtime_error naming the call, the file/line and the error string.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace mbsweep::cuda {

[[noreturn]] inline void ThrowCudaError(const char* call, const char* file, int line, const std::string& what) {
  throw std::runtime_error(std::string("CUDA error in ") + call + " (" + file + ":" + std::to_string(line) + "): " + what);
}

}  // namespace mbsweep::cuda

#define MBS_CUDA_CHECK(call)                                                                        \
  do {                                                                                              \
    const cudaError_t mbs_err_ = (call);                                                            \
    if (mbs_err_ != cudaSuccess)                                                                    \
      ::mbsweep::cuda::ThrowCudaError(#call, __FILE__, __LINE__, cudaGetErrorString(mbs_err_));     \
  } while (0)

#define MBS_CUBLAS_CHECK(call)                                                                      \
  do {                                                                                              \
    const cublasStatus_t mbs_st_ = (call);                                                          \
    if (mbs_st_ != CUBLAS_STATUS_SUCCESS)                                                           \
      ::mbsweep::cuda::ThrowCudaError(#call, __FILE__, __LINE__, cublasGetStatusString(mbs_st_));   \
  } while (0)
