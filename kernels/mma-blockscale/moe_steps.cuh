//===--- moe_steps.cuh - device side of the shared non-GEMM MoE steps -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Kernels for the steps before the GEMMs, shared by mma-blockscale and tcgen05:
// per-expert pair lists, x quantized to NVFP4, `out` cleared (the GEMM2
// epilogues add into it). Free of any Blackwell-only instruction, so an ISA
// probe that includes it fails or passes on its family's instruction alone.
// Kernels have internal linkage: each family's translation unit has its own.
//===----------------------------------------------------------------------===//
#pragma once
#include <cuda_runtime.h>

#include "../common/moe_device.cuh"
#include "moe_steps.h"

namespace archscope::nvfp4moe {

static __global__ void routingKernel(const int32_t *topkIds, int pairs, int experts, Workspace w) {
  for (int e = threadIdx.x; e < experts; e += blockDim.x)
    w.counts[e] = countPairs(topkIds, pairs, e);
  __syncthreads();
  if (threadIdx.x == 0)
    prefixOffsets(w.counts, experts, w.offsets);
  __syncthreads();
  for (int e = threadIdx.x; e < experts; e += blockDim.x)
    listPairs(topkIds, pairs, e, w.pairList + w.offsets[e]);
}

/// One thread per 16-element block of x.
static __global__ void quantizeXKernel(const MoeBf16 *x, int64_t blocks, float global, Workspace w) {
  const int64_t block = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (block >= blocks)
    return;
  float v[nvfp4::kBlock];
  for (int i = 0; i < nvfp4::kBlock; ++i)
    v[i] = device::bf16ToFloat(x[block * nvfp4::kBlock + i]);
  quantizeBlock16(v, 1, global, w.xPacked + block * 8, w.xScales + block);
}

/// Checks the arguments, carves the workspace and enqueues the prologue.
/// cudaErrorInvalidValue for a bad shape or a workspace smaller than needed.
inline cudaError_t launchPrologue(const MoeDeviceArgs &a, Workspace &w, cudaStream_t stream) {
  const MoeShape &s = a.shape;
  if (!s.valid() || a.workspace == nullptr || carveWorkspace(s, nullptr, nullptr) > a.workspaceBytes)
    return cudaErrorInvalidValue;
  carveWorkspace(s, a.workspace, &w);
  routingKernel<<<1, 256, 0, stream>>>(a.topkIds, int(s.pairs()), s.experts, w);
  const int64_t blocks = int64_t(s.tokens) * (s.hidden / nvfp4::kBlock);
  quantizeXKernel<<<unsigned((blocks + 255) / 256), 256, 0, stream>>>(a.x, blocks, a.xGlobalScale, w);
  return cudaMemsetAsync(a.out, 0, size_t(s.tokens) * s.hidden * sizeof(float), stream);
}

} // namespace archscope::nvfp4moe
