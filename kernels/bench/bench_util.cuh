//===--- bench_util.cuh - what the read-ceiling measurements share ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// read_patterns.cu and gemv_ceiling.cu each time reads of weight-shaped
// memory against the device-to-device copy bandwidth of the same run; the
// error check, the plain grid-stride read and the buffers live here.
//===----------------------------------------------------------------------===//
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

namespace archscope::bench {

constexpr uint32_t kNever = 0x9e3779b9u; // an XOR the 0x5a-filled inputs never give: keeps the loads

inline bool check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) err = cudaGetLastError();
  if (err != cudaSuccess) std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
  return err == cudaSuccess;
}

/// Grid-stride 16-byte loads, 4 in flight per thread, through LOAD (the
/// caller's cache hint): the read ceiling.
template <class LOAD> __global__ void plainRead(const uint4* data, size_t n, uint32_t* sink) {
  uint32_t acc = 0;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = LOAD()(data + i + j * stride);
#pragma unroll
    for (int j = 0; j < 4; ++j) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  for (; i < n; i += stride) acc ^= data[i].x;
  if (acc == kNever) sink[0] = acc;
}

/// A 1 GiB buffer of 0x5a bytes, the copy's destination and a 4-byte sink.
struct ReadBuffers {
  static constexpr size_t kBytes = size_t(1) << 30;
  uint8_t *data = nullptr, *copy = nullptr;
  uint32_t* sink = nullptr;
  bool allocate() {
    return check(cudaMalloc(&data, kBytes), "malloc") && check(cudaMalloc(&copy, kBytes), "malloc") &&
           check(cudaMalloc(&sink, 4), "malloc") && check(cudaMemset(data, 0x5a, kBytes), "memset");
  }
  /// GB/s of cudaMemcpy device to device, read + written bytes, timed by TIME_MS.
  template <class TIME_MS> double copyGbps(TIME_MS timeMs) const {
    const float ms = timeMs([&] { cudaMemcpyAsync(copy, data, kBytes, cudaMemcpyDeviceToDevice); });
    return 2.0 * kBytes / ms / 1e6;
  }
};

} // namespace archscope::bench
