//===--- loader.cuh - w4a16: tile shapes and the cp.async stage loader -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Each thread's share of a stage (which weight row, which scale word, which
// activation row, and where each lands) is fixed for the whole k loop, so the
// loader resolves it once: loading k tile t is then one add and a few cp.async
// per thread (the decode GEMMs issue instructions as fast as an SM can, so
// every instruction of the loop counts). The weights are in the blocked layout
// of weight_layout.h: a stage's 16-row slices are whole blocks, a thread's
// chunks of one row are contiguous in a whole tile, and k tile t starts
// wholeTilesWeightStep(t) after k tile 0.
//===----------------------------------------------------------------------===//
#pragma once
#include "mma.cuh"
#include "routing.cuh"
#include "tile_layout.h"
#include "weight_layout.h"

namespace archscope::w4a16 {

// WARPS_K > 1 splits each k tile among that many groups of WARPS_M x WARPS_N
// warps (their sums are added in shared memory before the epilogue): more
// warps per SM to hide the dequantization's latency when the tile is narrow.
// MIN_CTAS caps registers so that many CTAs fit on an SM (__launch_bounds__).
template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int STAGES_, int WARPS_K_ = 1, int MIN_CTAS_ = 1>
struct GemmConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WARPS_M = WARPS_M_, WARPS_N = WARPS_N_, STAGES = STAGES_;
  static constexpr int WARPS_K = WARPS_K_, MIN_CTAS = MIN_CTAS_, TILE_WARPS = WARPS_M * WARPS_N;
  static constexpr int THREADS = TILE_WARPS * WARPS_K * 32;
  // A lane's words (8 e2m1 each) per weight row and stage: k group kg's lane c owns
  // k [(kg*4 + c) * WORDS * 8, +WORDS * 8) of the k tile (its "slot").
  static constexpr int MT = BM / WARPS_M / 16, NT = BN / WARPS_N / 8, WORDS = BK / 32 / WARPS_K;
  static constexpr int W_BYTES = BM * BK / 2, S_BYTES = BM * BK / 16, X_BYTES = BN * BK * 2;
  static constexpr int STAGE_BYTES = W_BYTES + S_BYTES + X_BYTES;
  // Per thread and stage: 16-byte weight chunks, 4-byte scale chunks, 16-byte activation chunks.
  static constexpr int W_CHUNKS = BM * BK / 32 / THREADS, X_CHUNKS = BN * BK / 8 / THREADS;
  static constexpr int S_THREADS = BM * BK / 64 < THREADS ? BM * BK / 64 : THREADS;
  static constexpr int S_CHUNKS = BM * BK / 64 / S_THREADS;
  static_assert(BK == 64 || BK == 128 || BK == 256, "a lane's k range must be whole scale blocks");
  static_assert(WARPS_K == 1 || (BK == 256 && WARPS_K == 2), "k groups: two per 256-wide k tile");
  static_assert(MT >= 1 && NT >= 1 && BM % (WARPS_M * 16) == 0 && BN % (WARPS_N * 8) == 0, "warp tiling");
  static_assert(W_CHUNKS >= 1 && (BK / 32) % W_CHUNKS == 0, "a thread's weight chunks share one row");
  static_assert(X_CHUNKS >= 1 && (BK / 8) % X_CHUNKS == 0, "a thread's activation chunks share one row");
  static_assert((BK / 64) % S_CHUNKS == 0, "a thread's scale chunks share one row");
  static_assert((WARPS_K - 1) * TILE_WARPS * 32 * MT * NT * 16 <= STAGES * STAGE_BYTES, "k-group sums fit the ring");
};

struct GemmOperands {
  const uint8_t* packed; // [E][rowsPerExpert * K/2], blocked (weight_layout.h)
  const uint8_t* scales; // [E][rowsPerExpert * K/16], likewise
  const float* global;   // [E]
  int rowsPerExpert, K, inter, hidden, topk;
  const MoeBf16* x;      // GATE_UP: tokens [T][H]; Down: activations [T*k][I] in sorted order; both permuted
  const float* topkWeights;
  float* out;
  Routing routing;
};

/// The stage layout's swizzles and row map (tile_layout.h) for configuration C.
template <class C> __device__ __forceinline__ int swizzleChunk(int n, int q) {
  return activationChunkSwizzle<C::BK, C::WORDS>(n, q);
}
template <class C> __device__ __forceinline__ int swizzleWeightChunk(int row, int chunk) {
  return weightChunkSwizzle<C::BK, C::WORDS>(row, chunk);
}

/// Per-pair facts of one tile, in shared memory: where its activation row is,
/// and for the down projection which token it adds into, with which weight.
template <int BN> struct TileRows {
  int xRow[BN], outRow[BN];
  float weight[BN];

  template <bool GATE_UP> __device__ void fill(const GemmOperands& op, const GemmTile& tile) {
    for (int n = threadIdx.x; n < BN; n += blockDim.x) {
      const int pair = n < tile.rows ? op.routing.sortedPair[tile.rowBegin + n] : 0;
      xRow[n] = GATE_UP ? pair / op.topk : tile.rowBegin + n;
      outRow[n] = pair / op.topk;
      weight[n] = n < tile.rows ? op.topkWeights[pair] : 0.0f;
    }
  }
};

// In whole k tiles a thread copies its chunks with no bounds checks and no
// zero fill: rows past the expert and pairs past the tile are not copied at
// all, since they feed only MMA rows and columns that the epilogue never
// stores (each output element is one weight row times one pair's column).
// Only a k tile that is not in a whole 256-wide tile of the layout takes the
// slow path, with full address maps; there a partial last k tile (K % BK ==
// 64) zero-fills, both operands, k past K.
template <class C, bool GATE_UP> struct StageLoader {
  const uint8_t* w;      // this thread's first weight chunk in k tile 0, or null
  const uint8_t* s;      // its first scale word, or null
  const uint8_t* x;      // its activation chunks at k = 0, or null
  const uint8_t* idle;   // a valid global address for zero-fill copies (which read nothing)
  uint32_t wDst[C::W_CHUNKS], xDst[C::X_CHUNKS], sDst; // where they land inside a stage (swizzled)
  int wK, sK, xQ, K, fullTiles, fastTiles;
  static constexpr int SPLIT = kLayoutTileK / C::BK; // k tiles per layout tile

  __device__ StageLoader(const GemmOperands& op, const GemmTile& tile, const TileRows<C::BN>& rows)
      : idle(op.packed), K(op.K), fullTiles(op.K / C::BK), fastTiles(layoutWholeTiles(op.K) * SPLIT) {
    const size_t expertRow0 = size_t(tile.expert) * op.rowsPerExpert;
    const int tileRow0 = blockIdx.x * C::BM, t = threadIdx.x;
    // Tile row l is GEMM row tileRow0 + l (weightRow's order is the layout's), block row l % 16.
    const int wChunk = t * C::W_CHUNKS, wLocal = wChunk / (C::BK / 32), wRow = tileRow0 + wLocal;
    const int wFirst = wChunk % (C::BK / 32);
    wK = wFirst * 32;
#pragma unroll
    for (int j = 0; j < C::W_CHUNKS; ++j)
      wDst[j] = wLocal * (C::BK / 2) + swizzleWeightChunk<C>(wLocal, wFirst + j) * 16;
    w = wRow < op.rowsPerExpert ? op.packed + expertRow0 * (op.K / 2) + blockWeightOffset(wRow, op.K) +
                                      wholeTileChunkOffset(wLocal % kBlockRows, wFirst / 2, wFirst % 2)
                                : nullptr;

    const int sChunk = t * C::S_CHUNKS, sLocal = sChunk / (C::BK / 64), sRow = tileRow0 + sLocal;
    sK = (sChunk % (C::BK / 64)) * 64;
    sDst = C::W_BYTES + sChunk * 4;
    s = t < C::S_THREADS && sRow < op.rowsPerExpert ? op.scales + expertRow0 * (op.K / 16) +
                                                          blockScaleOffset(sRow, op.K) +
                                                          wholeTileScaleOffset(sLocal % kBlockRows, sK / 64)
                                                    : nullptr;

    const int xChunk = t * C::X_CHUNKS, xRow = xChunk / (C::BK / 8);
    xQ = xChunk % (C::BK / 8);
#pragma unroll
    for (int j = 0; j < C::X_CHUNKS; ++j)
      xDst[j] = C::W_BYTES + C::S_BYTES + xRow * (C::BK * 2) + swizzleChunk<C>(xRow, xQ + j) * 16;
    x = xRow < tile.rows ? reinterpret_cast<const uint8_t*>(op.x + size_t(rows.xRow[xRow]) * op.K + xQ * 8) : nullptr;
  }

  /// `stage`: the shared-memory address of the stage to fill.
  __device__ __forceinline__ void load(uint32_t stage, int kTile) const {
    loadWeights(stage, kTile);
    loadActivations(stage, kTile);
  }

  /// Weights and block scales: they depend only on the tile list, so the down
  /// GEMM may issue them before the gate/up grid has finished (gemm.cuh).
  __device__ __forceinline__ void loadWeights(uint32_t stage, int kTile) const {
    if (kTile < fastTiles) {
      if (w) {
        const uint8_t* src = w + wholeTilesWeightStep<C::BK>(kTile);
#pragma unroll
        for (int j = 0; j < C::W_CHUNKS; ++j) copyAsyncWhole<16>(stage + wDst[j], src + wholeTileChunkStep(j));
      }
      if (s) {
        const uint8_t* src = s + wholeTilesScaleStep<C::BK>(kTile);
#pragma unroll
        for (int j = 0; j < C::S_CHUNKS; ++j) copyAsyncWhole<4>(stage + sDst + j * 4, src + j * 8);
      }
      return;
    }
    loadWeightsSlow(stage, kTile);
  }

  /// A k tile in the layout's last, partial tile: each chunk's address from
  /// the full map (weight_layout.h), from its block's first byte.
  __device__ __forceinline__ void loadWeightsSlow(uint32_t stage, int kTile) const {
    const int t = threadIdx.x, k0 = kTile * C::BK;
    const int wChunk = t * C::W_CHUNKS, wM = wChunk / (C::BK / 32) % kBlockRows, wFirst = wChunk % (C::BK / 32);
    const uint8_t* wBlock = w ? w - wholeTileChunkOffset(wM, wFirst / 2, wFirst % 2) : idle;
#pragma unroll
    for (int j = 0; j < C::W_CHUNKS; ++j) {
      const bool valid = w && k0 + wK + j * 32 < K;
      copyAsyncTo<16>(stage + wDst[j], valid ? wBlock + blockChunkOffset(wM, (k0 + wK) / 32 + j, K) : idle,
                      valid ? 16 : 0);
    }
    if (t < C::S_THREADS) {
      const int sChunk = t * C::S_CHUNKS, sM = sChunk / (C::BK / 64) % kBlockRows;
      const uint8_t* sBlock = s ? s - wholeTileScaleOffset(sM, sK / 64) : idle;
#pragma unroll
      for (int j = 0; j < C::S_CHUNKS; ++j) {
        const bool valid = s && k0 + sK + j * 64 < K;
        copyAsyncTo<4>(stage + sDst + j * 4, valid ? sBlock + blockScaleWordOffset(sM, (k0 + sK) / 64 + j, K) : idle,
                       valid ? 4 : 0);
      }
    }
  }

  __device__ __forceinline__ void loadActivations(uint32_t stage, int kTile) const {
    if (kTile < fullTiles) {
      if (x) {
        const uint8_t* src = x + size_t(kTile) * (C::BK * 2);
#pragma unroll
        for (int j = 0; j < C::X_CHUNKS; ++j) copyAsyncWhole<16>(stage + xDst[j], src + j * 16);
      }
      return;
    }
    const int k0 = kTile * C::BK;
#pragma unroll
    for (int j = 0; j < C::X_CHUNKS; ++j) {
      const bool valid = x && k0 + (xQ + j) * 8 < K;
      copyAsyncTo<16>(stage + xDst[j], valid ? x + k0 * 2 + j * 16 : idle, valid ? 16 : 0);
    }
  }
};

} // namespace archscope::w4a16
