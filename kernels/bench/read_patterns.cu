//===--- read_patterns.cu - how fast can the decode GEMMs' weights be read? -===//
// SPDX-License-Identifier: Apache-2.0
//
// A measurement, not a kernel of the families: it reads weight-shaped memory
// the way the w4a16 decode GEMMs do, without their arithmetic, so that the
// gap between their bandwidth and the copy bandwidth splits into what the
// access pattern costs and what the compute costs.
//   plain       grid-stride 16-byte loads, 4 in flight per thread: the read ceiling
//   runs-R      CTAs of 128 threads stream a tile of rows through a 3-stage
//               cp.async ring, R contiguous bytes per row and stage, 28 stages
//               (R = 128 is the decode GEMM in the row-major layout of before
//               run 14: 64 rows x 256 e2m1 of a 3584-byte row; since run 14,
//               weight_layout.h, its stage is 4 runs of 2 KB, between R = 128
//               and R = 8192, one contiguous 224 KB block), at the decode
//               GEMM's 5 CTAs per SM (39 KB of shared memory each)
//   size-MB     plain at the T = 1 byte counts: one launch's fixed cost
// Each row: median of 20 back-to-back launches (events), GB/s of bytes read,
// and that over cudaMemcpy device-to-device (bytes read + written), same run.
// Build: nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a kernels/bench/read_patterns.cu -o read_patterns
//===----------------------------------------------------------------------===//
#include "bench_util.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

using namespace archscope::bench;

constexpr int kThreads = 128, kStageBytes = 8192, kStages = 3;

__device__ __forceinline__ void copyAsync16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(uint32_t(__cvta_generic_to_shared(dst))), "l"(src));
}

struct EvictFirst {
  __device__ uint4 operator()(const uint4* p) const { return __ldcs(p); }
};

/// One CTA: kStageBytes / RUN rows of rowBytes each, RUN bytes per row per stage.
template <int RUN> __global__ void __launch_bounds__(kThreads) rowRuns(const uint8_t* data, int rowBytes, uint32_t* sink) {
  constexpr int ROWS = kStageBytes / RUN, CHUNKS = kStageBytes / 16 / kThreads, PER_ROW = RUN / 16;
  extern __shared__ __align__(128) uint8_t smem[];
  const uint8_t* tile = data + size_t(blockIdx.x) * ROWS * rowBytes;
  const int steps = rowBytes / RUN;
  auto load = [&](int step) {
    uint8_t* stage = smem + (step % kStages) * kStageBytes;
#pragma unroll
    for (int j = 0; j < CHUNKS; ++j) {
      const int chunk = threadIdx.x * CHUNKS + j, row = chunk / PER_ROW, part = chunk % PER_ROW;
      copyAsync16(stage + chunk * 16, tile + size_t(row) * rowBytes + step * RUN + part * 16);
    }
  };
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) load(s);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  uint32_t acc = 0;
  for (int step = 0; step < steps; ++step) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kStages - 2));
    __syncthreads();
    if (step + kStages - 1 < steps) load(step + kStages - 1);
    asm volatile("cp.async.commit_group;\n" ::);
    const uint4* stage = reinterpret_cast<const uint4*>(smem + (step % kStages) * kStageBytes);
#pragma unroll
    for (int j = 0; j < CHUNKS; ++j) {
      const uint4 v = stage[threadIdx.x * CHUNKS + j];
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  }
  if (acc == kNever) sink[0] = acc;
}

struct Timer {
  cudaEvent_t start, stop;
  Timer() { cudaEventCreate(&start), cudaEventCreate(&stop); }
  template <class F> float medianMs(F launch, int iters = 20) {
    for (int i = 0; i < 3; ++i) launch();
    std::vector<float> ms;
    for (int i = 0; i < iters; ++i) {
      cudaEventRecord(start);
      launch();
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float t = 0;
      cudaEventElapsedTime(&t, start, stop);
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
};

template <int RUN> bool timeRuns(Timer& timer, const uint8_t* data, size_t bytes, uint32_t* sink, double copyGbps) {
  // 28 stages per CTA: RUN = 128 is the decode GEMM's 3584-byte row; its CTAs per SM
  constexpr int kRowBytes = RUN * 28, kSmem = 39 * 1024;
  const int ctas = int(bytes / (size_t(kStageBytes / RUN) * kRowBytes));
  if (!check(cudaFuncSetAttribute(rowRuns<RUN>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem), "smem")) return false;
  const float ms = timer.medianMs([&] { rowRuns<RUN><<<ctas, kThreads, kSmem>>>(data, kRowBytes, sink); });
  const double read = double(ctas) * (kStageBytes / RUN) * kRowBytes;
  std::printf("runs-%-6d %10.1f MB %9.4f ms %8.0f GB/s %6.1f%%\n", RUN, read / 1e6, ms, read / ms / 1e6,
              100 * read / ms / 1e6 / copyGbps);
  return check(cudaSuccess, "rowRuns");
}

} // namespace

int main() {
  ReadBuffers buffers;
  if (!buffers.allocate()) return 1;
  const size_t bytes = ReadBuffers::kBytes;
  uint8_t* data = buffers.data;
  uint32_t* sink = buffers.sink;
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  Timer timer;
  const double copyGbps = buffers.copyGbps([&](auto copy) { return timer.medianMs(copy); });
  std::printf("copy       %10.1f MB %9.4f ms %8.0f GB/s (read+write)\n", bytes / 1e6, 2.0 * bytes / copyGbps / 1e6, copyGbps);
  for (size_t size : {bytes, size_t(198) << 20, size_t(85) << 20, size_t(132) << 20, size_t(66) << 20,
                      size_t(57) << 20, size_t(28) << 20}) {
    const size_t n = size / 16;
    const int blocks = sms * 8;
    const float ms = timer.medianMs([&] { plainRead<EvictFirst><<<blocks, 256>>>(reinterpret_cast<const uint4*>(data), n, sink); });
    std::printf("%-10s %10.1f MB %9.4f ms %8.0f GB/s %6.1f%%\n", size == bytes ? "plain" : "size", size / 1e6, ms,
                size / ms / 1e6, 100 * size / ms / 1e6 / copyGbps);
  }
  const bool ok = timeRuns<128>(timer, data, bytes, sink, copyGbps) && timeRuns<256>(timer, data, bytes, sink, copyGbps) &&
                  timeRuns<512>(timer, data, bytes, sink, copyGbps) && timeRuns<1024>(timer, data, bytes, sink, copyGbps) &&
                  timeRuns<8192>(timer, data, bytes, sink, copyGbps);
  return ok && check(cudaDeviceSynchronize(), "sync") ? 0 : 1;
}
