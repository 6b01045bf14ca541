//===--- gemm.cuh - w4a16: grouped NVFP4-weight x bf16 GEMM on mma.sync ----===//
// SPDX-License-Identifier: Apache-2.0
//
// One CTA computes a BM x BN tile: BM weight rows of one expert (the MMA's M
// side, so a tile of few tokens still fills the tensor core's 16 rows) by BN
// routed pairs of that expert (the N side, 8 per MMA). Weights, block scales
// and activation rows stream through a STAGES-deep cp.async ring; each warp
// dequantizes its weight fragment in registers (mma.cuh) and reuses it over
// its NT token columns.
// Both MMA operands use one k-permutation: over a BK-wide k tile, lane c of a
// quad owns k [c*BK/4, (c+1)*BK/4) (with two k groups, lane c of group kg owns
// the slot kg*4 + c of BK/8), i.e. whole 16-element scale blocks, read as 16-
// byte chunks (8 bytes at BK=64) per weight row (tile_layout.h). Activations
// are stored already permuted (routing.cuh, and the SwiGLU epilogue here).
// GATE_UP: the tile's rows interleave gate row i (MMA rows 0..7) with up row
// I+i (rows 8..15), so each lane holds both halves of SwiGLU and writes the
// bf16 activation. Down: the epilogue scales by the routing weight and adds
// into the fp32 output (atomics: up to k experts add into one token row).
//===----------------------------------------------------------------------===//
#pragma once
#include "loader.cuh"

namespace archscope::w4a16 {

/// A lane's weight words of one row (its slot: see GemmConfig): 8 bytes
/// (BK=64), one 16-byte chunk (BK=128, or BK=256 in two k groups) or two
/// (BK=256).
template <class C> __device__ __forceinline__ void loadWords(const uint8_t* rowBase, int row, int slot, uint32_t (&w)[C::WORDS]) {
  if constexpr (C::WORDS == 2) {
    const uint2 v = *reinterpret_cast<const uint2*>(rowBase + slot * 8);
    w[0] = v.x, w[1] = v.y;
  } else {
#pragma unroll
    for (int part = 0; part < C::WORDS / 4; ++part) {
      const int chunk = swizzleWeightChunk<C>(row, slot * (C::WORDS / 4) + part);
      const uint4 v = *reinterpret_cast<const uint4*>(rowBase + chunk * 16);
      w[4 * part] = v.x, w[4 * part + 1] = v.y, w[4 * part + 2] = v.z, w[4 * part + 3] = v.w;
    }
  }
}

/// A lane's scales of one row for one k tile: WORDS / 2 bytes (one per 16 e2m1).
template <class C>
__device__ __forceinline__ void loadScales(const uint8_t* sS, int row, int slot, uint32_t (&scale2)[C::WORDS / 2]) {
  const uint8_t* p = sS + row * (C::BK / 16) + slot * (C::WORDS / 2);
  if constexpr (C::WORDS == 8) {
    uint32_t four[4];
    biasedScales(*reinterpret_cast<const uint32_t*>(p), four);
#pragma unroll
    for (int b = 0; b < 4; ++b) scale2[b] = four[b];
  } else if constexpr (C::WORDS == 4) {
    const uint32_t two = *reinterpret_cast<const uint16_t*>(p);
    uint32_t four[4];
    biasedScales(two * 0x10001u, four); // both bytes twice: four normal-or-not bytes, as one word
    scale2[0] = four[0], scale2[1] = four[1];
  } else {
    scale2[0] = biasedScale(p[0]);
  }
}

template <class C>
__device__ __forceinline__ void computeStage(const uint8_t* stage, int validRows, float (&acc)[C::MT][C::NT][4]) {
  const int warp = threadIdx.x / 32 % C::TILE_WARPS, lane = threadIdx.x % 32;
  const int g = lane >> 2, c = lane & 3, slot = threadIdx.x / 32 / C::TILE_WARPS * 4 + c;
  const int warpRow0 = (warp % C::WARPS_M) * (C::BM / C::WARPS_M);
  const int warpCol0 = (warp / C::WARPS_M) * (C::BN / C::WARPS_N);
  const uint8_t* sW = stage;
  const uint8_t* sS = stage + C::W_BYTES;
  // Activation chunk of word w for this lane: row n = warpCol0 + nt*8 + g, chunk swizzle(n, slot*WORDS + w),
  // which is (slot*WORDS ^ key) ^ w: the swizzle XORs a key that does not depend on w (BK >= 128).
  const uint8_t* sX = stage + C::W_BYTES + C::S_BYTES + (warpCol0 + g) * (C::BK * 2);
  const int xChunk0 = swizzleChunk<C>(g, slot * C::WORDS);
  // Column tiles holding pairs: all of them but in a tile's last, partial columns.
  const int validNt = min(C::NT, (validRows - warpCol0 + 7) / 8);

  uint32_t words[C::MT][2][C::WORDS], scale2[C::MT][2][C::WORDS / 2];
#pragma unroll
  for (int mt = 0; mt < C::MT; ++mt)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = warpRow0 + mt * 16 + g + h * 8;
      loadWords<C>(sW + row * (C::BK / 2), row, slot, words[mt][h]);
      loadScales<C>(sS, row, slot, scale2[mt][h]);
    }

#pragma unroll
  for (int w = 0; w < C::WORDS; ++w) {
    uint32_t a[C::MT][2][4]; // [mt][k half][mma A registers]
#pragma unroll
    for (int mt = 0; mt < C::MT; ++mt) {
      uint32_t top[4], bottom[4]; // rows g and g+8
      dequantWord(words[mt][0][w], scale2[mt][0][w / 2], top);
      dequantWord(words[mt][1][w], scale2[mt][1][w / 2], bottom);
      a[mt][0][0] = top[0], a[mt][0][1] = bottom[0], a[mt][0][2] = top[1], a[mt][0][3] = bottom[1];
      a[mt][1][0] = top[2], a[mt][1][1] = bottom[2], a[mt][1][2] = top[3], a[mt][1][3] = bottom[3];
    }
    const int chunk = C::BK == 64 ? swizzleChunk<C>(g, slot * C::WORDS + w) : xChunk0 ^ w;
#pragma unroll
    for (int nt = 0; nt < C::NT; ++nt) {
      if (nt > 0 && nt >= validNt) break; // warp-uniform; column tile 0 always holds a pair
      // Stored permuted, the 4 words are the pairs (k3,k7) (k2,k6) (k1,k5) (k0,k4).
      const uint4 b = *reinterpret_cast<const uint4*>(sX + nt * 8 * (C::BK * 2) + chunk * 16);
#pragma unroll
      for (int mt = 0; mt < C::MT; ++mt) {
        mmaBf16(acc[mt][nt], a[mt][0], b.x, b.y);
        mmaBf16(acc[mt][nt], a[mt][1], b.z, b.w);
      }
    }
  }
}

template <class C, bool GATE_UP>
__device__ __forceinline__ void storeTile(const GemmOperands& op, const GemmTile& tile, const TileRows<C::BN>& rows,
                                          float (&acc)[C::MT][C::NT][4]) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane >> 2, c = lane & 3;
  const int warpRow0 = (warp % C::WARPS_M) * (C::BM / C::WARPS_M);
  const int warpCol0 = (warp / C::WARPS_M) * (C::BN / C::WARPS_N);
  const float scale = op.global[tile.expert] * kUnbias;
#pragma unroll
  for (int mt = 0; mt < C::MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < C::NT; ++nt)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int n = warpCol0 + nt * 8 + 2 * c + e;
        if (n >= tile.rows) continue;
        const float top = acc[mt][nt][e] * scale, bottom = acc[mt][nt][2 + e] * scale;
        if constexpr (GATE_UP) {
          const int i = blockIdx.x * (C::BM / 2) + (warpRow0 / 16 + mt) * 8 + g;
          const float silu = top / (1.0f + __expf(-top));
          const int column = (i & ~7) + permutedPosition(i & 7); // the down GEMM's k order
          op.routing.act[size_t(tile.rowBegin + n) * op.inter + column] = __float2bfloat16_rn(silu * bottom);
        } else {
          const int h = blockIdx.x * C::BM + warpRow0 + mt * 16 + g;
          if (h >= op.hidden) continue; // a half M tile: H % 128 == 64
          float* out = op.out + size_t(rows.outRow[n]) * op.hidden + h;
          atomicAdd(out, top * rows.weight[n]);
          atomicAdd(out + 8, bottom * rows.weight[n]);
        }
      }
}

/// Adds the k groups' sums into group 0's registers, through the (idle) ring.
template <class C> __device__ __forceinline__ void addKGroups(uint8_t* smem, float (&acc)[C::MT][C::NT][4]) {
  constexpr int N = C::MT * C::NT * 4, GROUP = C::TILE_WARPS * 32;
  float* sums = reinterpret_cast<float*>(smem); // [group - 1][element][thread]: conflict-free
  const int group = threadIdx.x / GROUP, t = threadIdx.x % GROUP;
  float* flat = &acc[0][0][0];
  __syncthreads(); // every stage's reads are done; no copy is in flight (the last groups were empty)
  if (group > 0)
#pragma unroll
    for (int i = 0; i < N; ++i) sums[((group - 1) * N + i) * GROUP + t] = flat[i];
  __syncthreads();
  if (group == 0)
    for (int other = 1; other < C::WARPS_K; ++other)
#pragma unroll
      for (int i = 0; i < N; ++i) flat[i] += sums[((other - 1) * N + i) * GROUP + t];
}

// Launched with programmatic dependent launch (moe.cuh, sm_90+): the gate/up
// grid waits for prepareRouting before reading the tile list, then lets the
// down grid start. The down grid reads the tile list (complete: every gate/up
// CTA had waited for prepareRouting before it could start), issues its first
// stages' weight copies, and then waits not for the whole gate/up grid but for
// its own tile's gate/up CTAs (tileDone): the down GEMM of the first experts
// runs in the gate/up grid's last wave. No deadlock: the down grid starts
// only once every gate/up CTA has started. At its end it waits for the gate/up
// grid (done by then), so that its completion still implies that grid's.
template <class C, bool GATE_UP> __global__ void __launch_bounds__(C::THREADS, C::MIN_CTAS) moeGemm(GemmOperands op) {
  if constexpr (GATE_UP) waitPrimaryGrid();
  allowDependentGrid();
  if (int(blockIdx.y) >= *op.routing.tileCount) return;
  extern __shared__ __align__(128) uint8_t smem[];
  auto& rows = *reinterpret_cast<TileRows<C::BN>*>(smem + C::STAGES * C::STAGE_BYTES);
  const GemmTile tile = op.routing.tiles[blockIdx.y];
  rows.template fill<GATE_UP>(op, tile);
  __syncthreads();

  const StageLoader<C, GATE_UP> loader(op, tile, rows);
  const uint32_t ring = sharedAddress(smem);
  const int kTiles = (op.K + C::BK - 1) / C::BK;
#pragma unroll
  for (int s = 0; s < C::STAGES - 1; ++s)
    if (s < kTiles) loader.loadWeights(ring + s * C::STAGE_BYTES, s);
  if constexpr (!GATE_UP) awaitCount(op.routing.tileDone + blockIdx.y, 2 * op.inter / C::BM); // this tile's activations
#pragma unroll
  for (int s = 0; s < C::STAGES - 1; ++s) {
    if (s < kTiles) loader.loadActivations(ring + s * C::STAGE_BYTES, s);
    commitAsync(); // group s completes stage s (group 0 also holds the early weight copies); empty groups keep the wait count uniform
  }
  float acc[C::MT][C::NT][4] = {};
  // Byte offsets of the stage to compute and the stage to fill, rotating without a modulo.
  constexpr int kRing = C::STAGES * C::STAGE_BYTES;
  int computeAt = 0, loadAt = (C::STAGES - 1) * C::STAGE_BYTES;
  for (int kt = 0; kt < kTiles; ++kt) {
    waitAsync<C::STAGES - 2>();
    __syncthreads(); // stage kt landed for all; stage kt-1 is free to overwrite
    if (kt + C::STAGES - 1 < kTiles) loader.load(ring + loadAt, kt + C::STAGES - 1);
    commitAsync();
    computeStage<C>(smem + computeAt, tile.rows, acc);
    computeAt = computeAt + C::STAGE_BYTES == kRing ? 0 : computeAt + C::STAGE_BYTES;
    loadAt = loadAt + C::STAGE_BYTES == kRing ? 0 : loadAt + C::STAGE_BYTES;
  }
  if constexpr (C::WARPS_K > 1) addKGroups<C>(smem, acc);
  if (threadIdx.x < C::TILE_WARPS * 32) storeTile<C, GATE_UP>(op, tile, rows, acc);
  if constexpr (GATE_UP) publishDone(op.routing.tileDone + blockIdx.y);
  else waitPrimaryGrid();
}

} // namespace archscope::w4a16
