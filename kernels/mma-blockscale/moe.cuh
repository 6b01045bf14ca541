//===--- moe.cuh - NVFP4 MoE on warp mma.sync ... kind::mxf4nvf4 ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// Family mma-blockscale (sm_120a / sm_121a, and the 12.x f targets): both
// GEMMs use
//   mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X
//       .f32.e2m1.e2m1.f32.ue4m3
// with A = 16 expert weight rows and B = 8 routed pairs; activations (x, and
// the SwiGLU output) are quantized to NVFP4 on the device with the reference's
// quantizer (moe_steps.h). Operands move only through fragments.h/moe_tiles.h.
//
// Steps on the stream: routing lists -> quantize x -> clear out -> GEMM1 with
// SwiGLU + NVFP4 epilogue -> GEMM2 with a weighted atomic combine into out.
// A simple design for correctness (operands straight from global memory, no
// shared-memory staging of A/B, no pipelining).
//
// Outside a Blackwell 12.x device pass the instruction is compiled only when
// ARCHSCOPE_ISA_PROBE is defined (isa_probe.cu), so ptxas rejects it by name on
// targets that lack it; otherwise a non-12.x device pass gets a trapping body.
//===----------------------------------------------------------------------===//
#pragma once
#include <cuda_runtime.h>

#include "../common/moe_device.cuh"
#include "moe_steps.cuh"
#include "moe_tiles.h"

#if defined(__CUDA_ARCH__) &&                                                                                \
    (defined(ARCHSCOPE_ISA_PROBE) || defined(__CUDA_ARCH_FEAT_SM120_ALL) ||                                  \
     defined(__CUDA_ARCH_FEAT_SM121_ALL) ||                                                                  \
     (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) &&                                                              \
      (__CUDA_ARCH_FAMILY_SPECIFIC__ == 1200 || __CUDA_ARCH_FAMILY_SPECIFIC__ == 1210)))
#define ARCHSCOPE_MMA_BLOCKSCALE_ENABLED 1
#endif

namespace archscope::mma_blockscale {

/// d += (A * scale_A) x (B * scale_B), one m16n8k64 step.
__device__ __forceinline__ void mmaStep(float d[4], const Fragments &f) {
#if defined(ARCHSCOPE_MMA_BLOCKSCALE_ENABLED)
  asm volatile("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X"
               ".f32.e2m1.e2m1.f32.ue4m3 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3}, "
               "{%10}, {%11, %12}, {%13}, {%14, %15};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(f.a[0]), "r"(f.a[1]), "r"(f.a[2]), "r"(f.a[3]), "r"(f.b[0]), "r"(f.b[1]), "r"(f.sfa),
                 "h"(frag::kByteIdA), "h"(frag::kThreadIdA), "r"(f.sfb), "h"(frag::kByteIdB),
                 "h"(frag::kThreadIdB));
#else
  __trap(); // this device pass has no block-scaled mma.sync
#endif
}

/// GEMM1 + SwiGLU + NVFP4: warp w of CTA x owns intermediate rows row0..+15.
__global__ void __launch_bounds__(32 * kWarpsPerBlock) gemm1Kernel(MoeDeviceArgs a, nvfp4moe::Workspace w) {
  __shared__ float stage[kWarpsPerBlock][2][frag::kM][frag::kN];
  const int H = a.shape.hidden, I = a.shape.inter, e = blockIdx.y;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = (blockIdx.x * kWarpsPerBlock + warp) * frag::kM;
  const GemmView g = expertView(a.w1Packed, a.w1Scales, 2 * I, H, w.xPacked, w.xScales, e, a.shape.topk, w);
  const float scale = a.w1Global[e] * a.xGlobalScale;
  for (int nTile = blockIdx.z; nTile < pairTiles(g.count); nTile += gridDim.z) {
    float gate[4] = {0, 0, 0, 0}, up[4] = {0, 0, 0, 0};
    Fragments f;
    for (int kStep = 0; kStep < H / frag::kK; ++kStep) {
      loadStep(g, row0, nTile, kStep, lane, f);
      mmaStep(gate, f);
      loadStep(g, I + row0, nTile, kStep, lane, f);
      mmaStep(up, f);
    }
    stageAccumulator(lane, gate, scale, stage[warp][0]);
    stageAccumulator(lane, up, scale, stage[warp][1]);
    __syncwarp();
    const int pair = lane < frag::kN ? tilePair(g, nTile, lane) : -1;
    if (pair >= 0)
      swigluQuantizeColumn(stage[warp][0], stage[warp][1], lane, pair, row0, I, a.actGlobalScale, w);
    __syncwarp();
  }
}

/// GEMM2 + weighted combine: warp w of CTA x owns hidden rows row0..+15.
__global__ void __launch_bounds__(32 * kWarpsPerBlock) gemm2Kernel(MoeDeviceArgs a, nvfp4moe::Workspace w) {
  const int H = a.shape.hidden, I = a.shape.inter, e = blockIdx.y;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = (blockIdx.x * kWarpsPerBlock + warp) * frag::kM;
  const GemmView g = expertView(a.w2Packed, a.w2Scales, H, I, w.actPacked, w.actScales, e, 1, w);
  const float scale = a.w2Global[e] * a.actGlobalScale;
  for (int nTile = blockIdx.z; nTile < pairTiles(g.count); nTile += gridDim.z) {
    float d[4] = {0, 0, 0, 0};
    Fragments f;
    for (int kStep = 0; kStep < I / frag::kK; ++kStep) {
      loadStep(g, row0, nTile, kStep, lane, f);
      mmaStep(d, f);
    }
    OutAdd o;
    for (int r = 0; r < 4; ++r)
      if (combineTerm(g, nTile, row0, lane, r, d, scale, a.topkWeights, a.shape.topk, o))
        atomicAdd(a.out + size_t(o.token) * H + o.h, o.value);
  }
}

} // namespace archscope::mma_blockscale

/// The family's launcher (contract: kernels-contract.md). Returns
/// cudaErrorInvalidValue for an invalid shape or a too small workspace.
inline cudaError_t launchMoe_mma_blockscale(const archscope::MoeDeviceArgs &a, cudaStream_t stream) {
  using namespace archscope::mma_blockscale;
  const archscope::MoeShape &s = a.shape;
  archscope::nvfp4moe::Workspace w;
  const cudaError_t err = archscope::nvfp4moe::launchPrologue(a, w, stream);
  if (err != cudaSuccess)
    return err;
  // Pair tiles per expert: at most T pairs when a token's k experts are distinct;
  // the kernels loop over further tiles, so a cap only costs parallelism.
  const unsigned zTiles = unsigned(pairTiles(s.tokens) < 1024 ? pairTiles(s.tokens) : 1024);
  const int rowsPerBlock = kWarpsPerBlock * frag::kM;
  gemm1Kernel<<<dim3(s.inter / rowsPerBlock, s.experts, zTiles), 32 * kWarpsPerBlock, 0, stream>>>(a, w);
  gemm2Kernel<<<dim3(s.hidden / rowsPerBlock, s.experts, zTiles), 32 * kWarpsPerBlock, 0, stream>>>(a, w);
  return cudaGetLastError();
}
