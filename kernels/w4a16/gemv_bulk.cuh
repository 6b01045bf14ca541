//===--- gemv_bulk.cuh - w4a16: the GEMVs fed by bulk copies into shared memory ===//
// SPDX-License-Identifier: Apache-2.0
//
// gemv.cuh's GEMVs with the weights landing in shared memory instead of
// registers: since run 14 a warp's k tile is one contiguous 2 KB run (and its
// scales 256 bytes), so one cp.async.bulk a stage of TILES k tiles fills a
// per-warp ring of STAGES stages (mbarrier completion), and the lanes read
// their chunks back with gemv.cuh's lane map (512 contiguous bytes a
// warp-wide read: no bank conflicts). The bytes in flight are bounded by
// shared memory, not registers: the down GEMV holds all of a Qwen-like
// expert's 6 k tiles before its wait. In gemv_ceiling.cu these rings read the
// Qwen-like T = 1 bytes in 21.4 us, the register pipeline's loads in 23.8.
// sm_90+ (cp.async.bulk), whole k tiles only: moe.cuh falls back to gemv.cuh
// elsewhere.
//===----------------------------------------------------------------------===//
#pragma once
#include "gemv.cuh"

namespace archscope::w4a16 {

/// WARPS warps a CTA, each on its 16 rows, times KGROUPS (gate/up): warps on
/// the same rows, each on its k group; a ring of STAGES stages of TILES k
/// tiles per warp; MIN_CTAS caps registers.
template <int WARPS_, int STAGES_, int TILES_, int MIN_CTAS_, int KGROUPS_ = 1> struct GemvBulkConfig {
  static constexpr int WARPS = WARPS_, STAGES = STAGES_, TILES = TILES_, MIN_CTAS = MIN_CTAS_, KGROUPS = KGROUPS_;
  static constexpr int THREADS = WARPS * KGROUPS * 32;
  static constexpr int STAGE_BYTES = TILES * (kLayoutTileBytes + kLayoutScaleTileBytes);
};

template <class C> ARCHSCOPE_HD constexpr int gemvBulkRingBytes() {
  return C::WARPS * C::KGROUPS * C::STAGES * C::STAGE_BYTES;
}
/// The rings, the staged row and its zeros, the k groups' sums (gate/up),
/// then the rings' mbarriers (dynamic too: with static shared memory the
/// launcher's opt-in maximum for the dynamic part would be refused).
template <class C> ARCHSCOPE_HD constexpr int gemvBulkBarrierOffset(int K) {
  return gemvBulkRingBytes<C>() + gemvRowAndZerosBytes(K) + (C::KGROUPS - 1) * C::WARPS * 16 * int(sizeof(float));
}
template <class C> ARCHSCOPE_HD constexpr int gemvBulkSharedBytes(int K) {
  return gemvBulkBarrierOffset<C>(K) + C::WARPS * C::KGROUPS * C::STAGES * int(sizeof(uint64_t));
}

// mbarrier and bulk-copy steps (sm_90+; compiled out below, where the
// launcher never runs these kernels).
__device__ __forceinline__ void bulkBarrierInit(uint64_t* bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(sharedAddress(bar)) : "memory");
#endif
}
__device__ __forceinline__ void bulkBarrierInitFence() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}
/// The stage's reads by this warp (generic proxy) before the copy that
/// overwrites it (async proxy).
__device__ __forceinline__ void bulkReadsDone() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void bulkExpectBytes(uint64_t* bar, int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(sharedAddress(bar)), "r"(bytes)
               : "memory");
#endif
}
__device__ __forceinline__ void bulkCopyAsync(void* dst, const void* src, int bytes, uint64_t* bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                   sharedAddress(dst)),
               "l"(src), "r"(bytes), "r"(sharedAddress(bar))
               : "memory");
#endif
}
__device__ __forceinline__ void bulkBarrierWait(uint64_t* bar, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n.reg .pred done;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT;\n}\n" ::"r"(sharedAddress(bar)),
               "r"(parity)
               : "memory");
#endif
}

/// A warp's block of the expert: its first weight byte and first scale byte
/// (weight_layout.h: K * 8 and K contiguous bytes, k tile kt at 2048 kt, 256 kt).
struct GemvBlock {
  const uint8_t *w, *s;
};
__device__ __forceinline__ GemvBlock gemvBlock(const GemvOperands& op, int expert, int block) {
  const size_t expertRows = size_t(expert) * op.rowsPerExpert;
  return {op.packed + expertRows * (op.K / 2) + blockWeightOffset(block * kBlockRows, op.K),
          op.scales + expertRows * (op.K / 16) + blockScaleOffset(block * kBlockRows, op.K)};
}

/// Lane 0 fills a stage with k tiles [kt, min(kt + TILES, last)): weights, then scales.
template <class C> __device__ __forceinline__ void fillBulkStage(const GemvBlock& b, int kt, int last, uint8_t* stage,
                                                                uint64_t* bar, int lane) {
  if (lane != 0) return;
  const int n = min(C::TILES, last - kt);
  bulkReadsDone();
  bulkExpectBytes(bar, n * (kLayoutTileBytes + kLayoutScaleTileBytes));
  bulkCopyAsync(stage, b.w + size_t(kt) * kLayoutTileBytes, n * kLayoutTileBytes, bar);
  bulkCopyAsync(stage + C::TILES * kLayoutTileBytes, b.s + size_t(kt) * kLayoutScaleTileBytes,
                n * kLayoutScaleTileBytes, bar);
}

/// The warp's ring: barriers initialized, the first STAGES stages issued.
template <class C> __device__ __forceinline__ void startBulkRing(const GemvBlock& b, GemvTileRange range,
                                                                uint8_t* ring, uint64_t* bars, int lane) {
  if (lane < C::STAGES) bulkBarrierInit(bars + lane);
  bulkBarrierInitFence();
  __syncwarp();
  for (int s = 0; s < C::STAGES; ++s) {
    const int kt = range.first + s * C::TILES;
    if (kt < range.last) fillBulkStage<C>(b, kt, range.last, ring + s * C::STAGE_BYTES, bars + s, lane);
  }
}

/// The k loop: each stage waited for, its tiles' MMAs (gemv.cuh's
/// computeKTile on the lane's chunks and scale words read from it), refilled.
template <class C> __device__ __forceinline__ void streamBulk(const GemvBlock& b, GemvTileRange range,
                                                             const uint8_t* xs, uint8_t* ring, uint64_t* bars, int K,
                                                             int lane, float (&acc)[4]) {
  const int q = gemvLaneChunk(lane), p = gemvLaneRow(lane, 0);
  const uint32_t pick = q % 2 ? 0x7632 : 0x5410;
  const uint8_t* bases[2];
  gemvActivationBases(xs, K, lane, bases);
  const int chunk = wholeTileChunkOffset(p, q / 2, q % 2), scaleWords = wholeTileScaleOffset(p, q / 2);
  constexpr int kStep = wholeTileChunkOffset(4, 0, 0); // 4 rows on
  const int stages = (range.last - range.first + C::TILES - 1) / C::TILES;
  for (int st = 0; st < stages; ++st) {
    const int slot = st % C::STAGES;
    uint8_t* stage = ring + slot * C::STAGE_BYTES;
    bulkBarrierWait(bars + slot, (st / C::STAGES) & 1);
#pragma unroll
    for (int t = 0; t < C::TILES; ++t) {
      const int kt = range.first + st * C::TILES + t;
      if (kt >= range.last) break;
      GemvKTile tile;
#pragma unroll
      for (int j = 0; j < 4; ++j)
        tile.w[j] = *reinterpret_cast<const uint4*>(stage + t * kLayoutTileBytes + chunk + j * kStep);
      const int at = gemvActivationOffset(kt, q, 0);
      const uint8_t* const x[2] = {bases[0] + at, bases[1] + at};
      computeKTile(tile, x, stage + C::TILES * kLayoutTileBytes + t * kLayoutScaleTileBytes + scaleWords, pick, acc);
    }
    __syncwarp(); // every lane has read the stage
    const int next = range.first + (st + C::STAGES) * C::TILES;
    if (next < range.last) fillBulkStage<C>(b, next, range.last, stage, bars + slot, lane);
  }
}

/// gemv.cuh's gemvGateUp with bulk rings. Grid (ceil(I/8 / WARPS), T*k).
template <class C> __global__ void __launch_bounds__(C::THREADS, C::MIN_CTAS) gemvGateUpBulk(GemvOperands op) {
  waitPrimaryGrid();
  allowDependentGrid();
  extern __shared__ __align__(128) uint8_t shared[];
  uint64_t* bars = reinterpret_cast<uint64_t*>(shared + gemvBulkBarrierOffset<C>(op.K)) + threadIdx.x / 32 * C::STAGES;
  const int pair = blockIdx.y, warp = threadIdx.x / 32 % C::WARPS, group = threadIdx.x / 32 / C::WARPS;
  const int lane = threadIdx.x % 32, g = lane >> 2;
  uint8_t *ring = shared + threadIdx.x / 32 * C::STAGES * C::STAGE_BYTES, *xs = shared + gemvBulkRingBytes<C>();
  const int expert = op.topkIds[pair], token = pair / op.topk;
  const int block = blockIdx.x * C::WARPS + warp, row = gemvRowOfLane(lane);
  const int i = block * 8 + row;
  const bool hasRows = block * 8 < op.inter;
  const GemvTileRange range = gemvGroupTiles(op.K / kGemvTileK, C::KGROUPS, group);
  const GemvBlock b = gemvBlock(op, expert, hasRows ? block : 0);
  if (hasRows) startBulkRing<C>(b, range, ring, bars, lane);

  const size_t cta = blockIdx.y * gridDim.x + blockIdx.x, ctas = gridDim.x * gridDim.y;
  device::clearFloats(op.out, size_t(op.tokens) * op.hidden, cta * C::THREADS + threadIdx.x, ctas * C::THREADS);
  stageRow<true>(op.x + size_t(token) * op.K, op.K, xs);
  stageZeros(op.K, xs);
  __syncthreads();
  float acc[4] = {};
  if (hasRows) streamBulk<C>(b, range, xs, ring, bars, op.K, lane, acc);
  float gate, up;
  addKHalves(acc, g, gate, up);
  const bool last = gatherKGroups<C>(reinterpret_cast<float*>(xs + gemvRowAndZerosBytes(op.K)), group, warp, row, lane,
                                     gate, up);
  if (!last || !hasRows) return;
  if (gemvLaneWrites(lane)) {
    const float scale = op.global[expert] * kUnbias;
    gate *= scale, up *= scale;
    const int column = (i & ~7) + permutedPosition(i & 7); // the down GEMM's k order
    op.act[size_t(pair) * op.inter + column] = __float2bfloat16_rn(gate / (1.0f + __expf(-gate)) * up);
  }
}

/// gemv.cuh's gemvDown with a bulk ring: its first STAGES stages are issued
/// before the wait. Grid (ceil(H/16 / WARPS), T*k).
template <class C> __global__ void __launch_bounds__(C::THREADS, C::MIN_CTAS) gemvDownBulk(GemvOperands op) {
  static_assert(C::KGROUPS == 1, "the down GEMV's warps each own their rows");
  allowDependentGrid();
  extern __shared__ __align__(128) uint8_t shared[];
  uint64_t* bars = reinterpret_cast<uint64_t*>(shared + gemvBulkBarrierOffset<C>(op.K)) + threadIdx.x / 32 * C::STAGES;
  const int pair = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane >> 2;
  uint8_t *ring = shared + warp * C::STAGES * C::STAGE_BYTES, *xs = shared + gemvBulkRingBytes<C>();
  const int expert = __ldcg(op.topkIds + pair), token = pair / op.topk;
  const int block = blockIdx.x * C::WARPS + warp;
  const int h = block * 16 + gemvRowOfLane(lane);
  const bool hasRows = block * 16 < op.hidden;
  const GemvTileRange range{0, op.K / kGemvTileK};
  const GemvBlock b = gemvBlock(op, expert, hasRows ? block : 0);
  if (hasRows) startBulkRing<C>(b, range, ring, bars, lane);

  stageZeros(op.K, xs);
  waitPrimaryGrid(); // the activations, and `out` cleared
  stageRow<false>(op.x + size_t(pair) * op.K, op.K, xs);
  __syncthreads();
  if (!hasRows) return;
  float acc[4] = {};
  streamBulk<C>(b, range, xs, ring, bars, op.K, lane, acc);
  float top, bottom;
  addKHalves(acc, g, top, bottom);
  if (gemvLaneWrites(lane)) {
    const float weight = __ldcg(op.topkWeights + pair) * op.global[expert] * kUnbias;
    float* out = op.out + size_t(token) * op.hidden + h;
    atomicAdd(out, top * weight);
    atomicAdd(out + 8, bottom * weight);
  }
}

} // namespace archscope::w4a16
