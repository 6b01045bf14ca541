//===--- moe.cuh - NVFP4 MoE on tcgen05.mma ... kind::mxf4nvf4 ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Family tcgen05 (sm_100a / sm_103a / sm_110a and the 10.x/11.x f targets).
// Per CTA (one warpgroup, .cta_group::1): tcgen05.alloc of 64 TMEM columns;
// per K round, A/B staged in shared memory in the canonical K-major
// SWIZZLE_NONE layout and the ue4m3 scale chunks copied to TMEM with
// tcgen05.cp .32x128b.warpx4; four
//   tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16
// (block16 is the ISA's alias of scale_vec::4X for K = 64, accepted by ptxas
// on the a and f targets, where the spelled-out .scale_vec::4X is refused on
// f targets); tcgen05.commit to an mbarrier and a wait; after the last round
// tcgen05.ld .32x32b of the f32 accumulator. One tile at a time, no
// pipelining: a simple, checkable design. Every address comes from layouts.h
// and moe_tiles.h.
//
// Outside a 10.x/11.x device pass the tcgen05 instructions are compiled only
// when ARCHSCOPE_ISA_PROBE is defined (isa_probe.cu), so ptxas names them on
// targets lacking them; otherwise such a pass gets a trapping body.
//===----------------------------------------------------------------------===//
#pragma once
#include <cuda_runtime.h>

#include "../common/moe_device.cuh"
#include "../mma-blockscale/moe_steps.cuh"
#include "moe_tiles.h"

#if defined(__CUDA_ARCH__) &&                                                                                \
    (defined(ARCHSCOPE_ISA_PROBE) || defined(__CUDA_ARCH_FEAT_SM100_ALL) ||                                  \
     defined(__CUDA_ARCH_FEAT_SM103_ALL) || defined(__CUDA_ARCH_FEAT_SM101_ALL) ||                           \
     defined(__CUDA_ARCH_FEAT_SM110_ALL) ||                                                                  \
     (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) &&                                                              \
      (__CUDA_ARCH_FAMILY_SPECIFIC__ == 1000 || __CUDA_ARCH_FAMILY_SPECIFIC__ == 1030 ||                     \
       __CUDA_ARCH_FAMILY_SPECIFIC__ == 1100)))
#define ARCHSCOPE_TCGEN05_ENABLED 1
#endif

namespace archscope::tcgen05 {
namespace ptx {

__device__ __forceinline__ uint32_t smemAddress(const void *p) {
  return uint32_t(__cvta_generic_to_shared(p));
}

#if defined(ARCHSCOPE_TCGEN05_ENABLED)
__device__ __forceinline__ void fenceBeforeSync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}
__device__ __forceinline__ void fenceAfterSync() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}
/// Generic-proxy smem writes become visible to tcgen05.mma / tcgen05.cp (async proxy).
__device__ __forceinline__ void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// Whole-warp instructions (.sync.aligned): called by every lane of warp 0.
__device__ __forceinline__ void alloc(uint32_t holder, uint32_t columns) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(holder),
               "r"(columns));
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}
__device__ __forceinline__ void dealloc(uint32_t tmem, uint32_t columns) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(columns));
}

__device__ __forceinline__ void mbarrierInit(uint32_t bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbarrierWait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
}

// Single-thread instructions.
__device__ __forceinline__ void copyScales(uint32_t tmem, uint64_t desc) {
  asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;" ::"r"(tmem), "l"(desc));
}
__device__ __forceinline__ void mma(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc, uint32_t sfa,
                                    uint32_t sfb, bool accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
      " tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16 [%0], %1, %2, %3, [%4], [%5], p;\n}" ::
          "r"(d),
      "l"(a), "l"(b), "r"(idesc), "r"(sfa), "r"(sfb), "r"(uint32_t(accumulate)));
}
__device__ __forceinline__ void commit(uint32_t bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar)
               : "memory");
}

/// 32 consecutive f32 columns of this warp's 32 lanes (Layout D).
__device__ __forceinline__ void load32Columns(uint32_t tmem, float v[32]) {
  uint32_t r[32];
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
      "%13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, [%32];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]),
        "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]), "=r"(r[14]), "=r"(r[15]),
        "=r"(r[16]), "=r"(r[17]), "=r"(r[18]), "=r"(r[19]), "=r"(r[20]), "=r"(r[21]), "=r"(r[22]),
        "=r"(r[23]), "=r"(r[24]), "=r"(r[25]), "=r"(r[26]), "=r"(r[27]), "=r"(r[28]), "=r"(r[29]),
        "=r"(r[30]), "=r"(r[31])
      : "r"(tmem));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  for (int i = 0; i < 32; ++i)
    v[i] = __uint_as_float(r[i]);
}
#else
// This device pass has no tcgen05: every entry point traps.
__device__ __forceinline__ void fenceBeforeSync() { __trap(); }
__device__ __forceinline__ void fenceAfterSync() { __trap(); }
__device__ __forceinline__ void fenceProxyAsync() { __trap(); }
__device__ __forceinline__ void alloc(uint32_t, uint32_t) { __trap(); }
__device__ __forceinline__ void dealloc(uint32_t, uint32_t) { __trap(); }
__device__ __forceinline__ void mbarrierInit(uint32_t) { __trap(); }
__device__ __forceinline__ void mbarrierWait(uint32_t, uint32_t) { __trap(); }
__device__ __forceinline__ void copyScales(uint32_t, uint64_t) { __trap(); }
__device__ __forceinline__ void mma(uint32_t, uint64_t, uint64_t, uint32_t, uint32_t, uint32_t, bool) {
  __trap();
}
__device__ __forceinline__ void commit(uint32_t) { __trap(); }
__device__ __forceinline__ void load32Columns(uint32_t, float v[32]) { __trap(); }
#endif

} // namespace ptx

struct SharedTile {
  alignas(128) uint8_t a[kABytes];
  alignas(128) uint8_t b[kBBytes];
  alignas(128) uint8_t sfa[kScaleBytes];
  alignas(128) uint8_t sfb[kScaleBytes];
  float stage[kARows][kBRows + 1]; // GEMM1 epilogue: scaled accumulator rows
  alignas(8) uint64_t bar;
  uint32_t tmemBase;
};

/// All threads stage round `round`; thread 0 then copies scales and issues the MMAs.
__device__ inline void mmaRound(const TileView &v, int round, int nTile, SharedTile &s, uint32_t tmem,
                                uint32_t &phase) {
  const int tid = threadIdx.x;
  for (int c = tid; c < kARows * kChunksPerRow; c += kThreads)
    stageA(v, round, c, s.a);
  for (int c = tid; c < kBRows * kChunksPerRow; c += kThreads)
    stageB(v, round, nTile, c, s.b);
  stageScales(v, round, nTile, tid, s.sfa, s.sfb);
  ptx::fenceProxyAsync();
  __syncthreads();
  if (tid == 0) {
    ptx::fenceAfterSync();
    constexpr uint32_t idesc = layout::encode(layout::InstrDescriptor{});
    const uint32_t aAddr = ptx::smemAddress(s.a), bAddr = ptx::smemAddress(s.b);
    for (int step = 0; step < stepsInRound(v.K, round); ++step) {
      const uint32_t sfa = layout::tmemAddress(tmem, 0, layout::kScaleAColumn + 4 * step);
      const uint32_t sfb = layout::tmemAddress(tmem, 0, layout::kScaleBColumn + 4 * step);
      ptx::copyScales(
          sfa, layout::scaleChunkDescriptor(ptx::smemAddress(s.sfa + step * layout::kScaleChunkBytes)));
      ptx::copyScales(
          sfb, layout::scaleChunkDescriptor(ptx::smemAddress(s.sfb + step * layout::kScaleChunkBytes)));
      ptx::mma(layout::tmemAddress(tmem, 0, layout::kAccumColumn), layout::operandDescriptor(aAddr, step),
               layout::operandDescriptor(bAddr, step), idesc, sfa, sfb, round > 0 || step > 0);
    }
    ptx::commit(ptx::smemAddress(&s.bar));
  }
  ptx::mbarrierWait(ptx::smemAddress(&s.bar), phase); // MMAs done: smem may be rewritten
  phase ^= 1;
  ptx::fenceAfterSync();
}

/// GEMM1 (kGemm1: SwiGLU + NVFP4 into the workspace) or GEMM2 (weighted
/// atomic combine into out) for expert blockIdx.y, row tile blockIdx.x.
template <bool kGemm1>
__global__ void __launch_bounds__(kThreads) gemmKernel(MoeDeviceArgs a, nvfp4moe::Workspace w) {
  __shared__ SharedTile s;
  const MoeShape &sh = a.shape;
  const int e = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const TileView v = gemmView(kGemm1, a, w, e, blockIdx.x);
  const float scale = gemmScale(kGemm1, a, e);
  if (warp == 0)
    ptx::alloc(ptx::smemAddress(&s.tmemBase), layout::kTmemColumns);
  if (threadIdx.x == 0)
    ptx::mbarrierInit(ptx::smemAddress(&s.bar));
  ptx::fenceBeforeSync();
  __syncthreads();
  ptx::fenceAfterSync();
  const uint32_t tmem = s.tmemBase;
  uint32_t phase = 0;
  const int tiles = (v.count + kBRows - 1) / kBRows;
  for (int nTile = blockIdx.z; nTile < tiles; nTile += gridDim.z) {
    for (int round = 0; round < roundsFor(v.K); ++round)
      mmaRound(v, round, nTile, s, tmem, phase);
    float d[kBRows];
    ptx::load32Columns(layout::tmemAddress(tmem, 32 * warp, layout::kAccumColumn), d);
    const int m = layout::accumulatorRow(warp, lane);
    if constexpr (kGemm1) {
      for (int n = 0; n < kBRows; ++n)
        s.stage[m][n] = d[n] * scale;
      __syncthreads();
      swigluEpilogue(v, nTile, threadIdx.x, &s.stage[0][0], kBRows + 1, v.rowBase0, sh.inter,
                     a.actGlobalScale, w);
    } else {
      OutAdd o;
      for (int n = 0; n < kBRows; ++n)
        if (combineTerm(v, nTile, m, n, d[n], scale, a, o))
          atomicAdd(a.out + o.index, o.value);
    }
    ptx::fenceBeforeSync(); // accumulator reads done before the next tile's MMAs
    __syncthreads();
  }
  ptx::fenceAfterSync();
  if (warp == 0)
    ptx::dealloc(tmem, layout::kTmemColumns);
}

} // namespace archscope::tcgen05

/// The family's launcher (contract: kernels-contract.md). Returns
/// cudaErrorInvalidValue for an invalid shape or a too small workspace.
inline cudaError_t launchMoe_tcgen05(const archscope::MoeDeviceArgs &a, cudaStream_t stream) {
  using namespace archscope::tcgen05;
  const archscope::MoeShape &s = a.shape;
  archscope::nvfp4moe::Workspace w;
  const cudaError_t err = archscope::nvfp4moe::launchPrologue(a, w, stream);
  if (err != cudaSuccess)
    return err;
  const int pairTiles = (s.tokens + kBRows - 1) / kBRows; // pairs of one expert <= T (distinct top-k)
  const unsigned z = unsigned(pairTiles < 1024 ? pairTiles : 1024);
  gemmKernel<true><<<dim3(rowTiles(true, s), s.experts, z), kThreads, 0, stream>>>(a, w);
  gemmKernel<false><<<dim3(rowTiles(false, s), s.experts, z), kThreads, 0, stream>>>(a, w);
  return cudaGetLastError();
}
