/// @file device_buffer.h
/// Move-only owner of a device allocation (cudaMalloc/cudaFree), sized in elements.
#pragma once

#include <cstddef>
#include <vector>

#include "cuda/cuda_check.h"

namespace mbsweep::cuda {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) { Resize(n); }
  ~DeviceBuffer() { Free(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : d_(o.d_), n_(o.n_) {
    o.d_ = nullptr;
    o.n_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      Free();
      d_ = o.d_;
      n_ = o.n_;
      o.d_ = nullptr;
      o.n_ = 0;
    }
    return *this;
  }
  /// Reallocates only when growing; contents are not preserved.
  void Resize(size_t n) {
    if (n <= n_ && d_) return;
    Free();
    if (n) MBS_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_), n * sizeof(T)));
    n_ = n;
  }
  void CopyFromHost(const T* h, size_t n, cudaStream_t s) {
    Resize(n);
    if (n) MBS_CUDA_CHECK(cudaMemcpyAsync(d_, h, n * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void CopyToHost(T* h, size_t n, cudaStream_t s) const {
    if (n) MBS_CUDA_CHECK(cudaMemcpyAsync(h, d_, n * sizeof(T), cudaMemcpyDeviceToHost, s));
  }
  T* get() { return d_; }
  const T* get() const { return d_; }
  size_t size() const { return n_; }

 private:
  void Free() {
    if (d_) cudaFree(d_);
    d_ = nullptr;
    n_ = 0;
  }
  T* d_ = nullptr;
  size_t n_ = 0;
};

}  // namespace mbsweep::cuda
