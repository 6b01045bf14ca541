//===--- moe.cuh - reference family: CUDA-core NVFP4 MoE, the oracle -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Deliberately plain: one warp per dot product, every weight decoded with the
// shared codec (nvfp4.h), fp32 accumulation, no tensor cores and no sorting, so
// it runs on any sm_75+ GPU and is easy to check by reading. Two launches:
//   gateUpSwiglu  one warp per (pair, i): gate and up over H, SwiGLU -> fp32
//   downCombine   one warp per (token, h): sum over the k slots of
//                 weight * W2 row h . act(pair); writes `out` (no atomics)
// Workspace: the fp32 activations, [T*k][I].
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/moe_device.cuh"

namespace archscope::reference_family {

constexpr int kWarpsPerBlock = 8;

/// One warp: sum over k of W[row][k] * v[k] for a bf16 (V = MoeBf16) or fp32
/// vector, one 16-element scale block per lane per step. Excludes the global scale.
template <class V>
__device__ float warpDot(const uint8_t* packedRow, const uint8_t* scaleRow, const V* v, int K) {
  float sum = 0.0f;
  for (int block = threadIdx.x % 32; block < K / 16; block += 32) {
    const uint2 bytes = *reinterpret_cast<const uint2*>(packedRow + block * 8);
    float partial = 0.0f;
    for (int i = 0; i < 16; ++i) {
      const uint32_t word = i < 8 ? bytes.x : bytes.y;
      const float w = device::e2m1ToFloat(word >> (4 * (i % 8)));
      partial += w * float(v[block * 16 + i]);
    }
    sum += partial * device::ue4m3ToFloat(scaleRow[block]);
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  return sum;
}

__global__ void __launch_bounds__(kWarpsPerBlock * 32) gateUpSwiglu(MoeDeviceArgs a, float* act) {
  const MoeShape s = a.shape;
  const int64_t item = int64_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
  if (item >= s.pairs() * s.inter) return;
  const int64_t pair = item / s.inter;
  const int i = int(item % s.inter);
  const int e = a.topkIds[pair];
  const MoeBf16* x = a.x + (pair / s.topk) * s.hidden;
  const size_t gateRow = size_t(e) * 2 * s.inter + i, upRow = gateRow + s.inter;
  const float global = a.w1Global[e];
  const float gate = global * warpDot(a.w1Packed + gateRow * (s.hidden / 2), a.w1Scales + gateRow * (s.hidden / 16), x, s.hidden);
  const float up = global * warpDot(a.w1Packed + upRow * (s.hidden / 2), a.w1Scales + upRow * (s.hidden / 16), x, s.hidden);
  if (threadIdx.x % 32 == 0) act[item] = gate / (1.0f + expf(-gate)) * up;
}

__global__ void __launch_bounds__(kWarpsPerBlock * 32) downCombine(MoeDeviceArgs a, const float* act) {
  const MoeShape s = a.shape;
  const int64_t item = int64_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
  if (item >= int64_t(s.tokens) * s.hidden) return;
  const int64_t token = item / s.hidden;
  const int h = int(item % s.hidden);
  float total = 0.0f;
  for (int j = 0; j < s.topk; ++j) {
    const int64_t pair = token * s.topk + j;
    const int e = a.topkIds[pair];
    const size_t row = size_t(e) * s.hidden + h;
    const float y = a.w2Global[e] * warpDot(a.w2Packed + row * (s.inter / 2), a.w2Scales + row * (s.inter / 16),
                                            act + pair * s.inter, s.inter);
    total += a.topkWeights[pair] * y;
  }
  if (threadIdx.x % 32 == 0) a.out[item] = total;
}

} // namespace archscope::reference_family

inline cudaError_t launchMoe_reference(const archscope::MoeDeviceArgs& a, cudaStream_t stream) {
  using namespace archscope::reference_family;
  const archscope::MoeShape& s = a.shape;
  if (a.workspaceBytes < size_t(s.pairs()) * s.inter * sizeof(float)) return cudaErrorInvalidValue;
  float* act = static_cast<float*>(a.workspace);
  const int64_t upWarps = s.pairs() * s.inter, downWarps = int64_t(s.tokens) * s.hidden;
  gateUpSwiglu<<<unsigned((upWarps + kWarpsPerBlock - 1) / kWarpsPerBlock), kWarpsPerBlock * 32, 0, stream>>>(a, act);
  downCombine<<<unsigned((downWarps + kWarpsPerBlock - 1) / kWarpsPerBlock), kWarpsPerBlock * 32, 0, stream>>>(a, act);
  return cudaGetLastError();
}
