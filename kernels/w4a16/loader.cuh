//===--- loader.cuh - w4a16: tile shapes and the cp.async stage loader -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Each thread's share of a stage (which weight row, which scale word, which
// activation row) is fixed for the whole k loop, so the loader resolves it
// once: loading k tile t is then a few adds and cp.async per thread. Rows past
// the expert (a half last M tile of the down projection), k past K (a half
// last k tile when K % BK == 64) and pairs past the tile are zero-filled.
//===----------------------------------------------------------------------===//
#pragma once
#include "mma.cuh"
#include "routing.cuh"

namespace archscope::w4a16 {

template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int STAGES_> struct GemmConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WARPS_M = WARPS_M_, WARPS_N = WARPS_N_, STAGES = STAGES_;
  static constexpr int THREADS = WARPS_M * WARPS_N * 32;
  static constexpr int MT = BM / WARPS_M / 16, NT = BN / WARPS_N / 8, WORDS = BK / 32;
  static constexpr int W_BYTES = BM * BK / 2, S_BYTES = BM * BK / 16, X_BYTES = BN * BK * 2;
  static constexpr int STAGE_BYTES = W_BYTES + S_BYTES + X_BYTES;
  // Per thread and stage: 16-byte weight chunks, 4-byte scale chunks, 16-byte activation chunks.
  static constexpr int W_CHUNKS = BM * BK / 32 / THREADS, X_CHUNKS = BN * BK / 8 / THREADS;
  static constexpr int S_THREADS = BM * BK / 64 < THREADS ? BM * BK / 64 : THREADS;
  static constexpr int S_CHUNKS = BM * BK / 64 / S_THREADS;
  static_assert(BK == 64 || BK == 128 || BK == 256, "a lane's k range must be whole scale blocks");
  static_assert(MT >= 1 && NT >= 1 && BM % (WARPS_M * 16) == 0 && BN % (WARPS_N * 8) == 0, "warp tiling");
  static_assert(W_CHUNKS >= 1 && (BK / 32) % W_CHUNKS == 0, "a thread's weight chunks share one row");
  static_assert(X_CHUNKS >= 1 && (BK / 8) % X_CHUNKS == 0, "a thread's activation chunks share one row");
  static_assert((BK / 64) % S_CHUNKS == 0, "a thread's scale chunks share one row");
};

struct GemmOperands {
  const uint8_t* packed; // [E][rowsPerExpert][K/2]
  const uint8_t* scales; // [E][rowsPerExpert][K/16]
  const float* global;   // [E]
  int rowsPerExpert, K, inter, hidden, topk;
  const MoeBf16* x;      // GATE_UP: tokens [T][H]; Down: activations [T*k][I] in sorted order; both permuted
  const float* topkWeights;
  float* out;
  Routing routing;
};

/// Activation chunk swizzle: the 8 lanes of one LDS.128 phase (2 rows x 4
/// lanes of a quad, same word) hit 8 distinct 16-byte bank groups.
template <int BK> __device__ __forceinline__ int swizzleChunk(int n, int q) {
  if constexpr (BK == 64) return q ^ (n & 1);
  else return q ^ ((q / (BK / 32)) & 3) ^ ((n & 1) << 2);
}

/// Weight chunk swizzle: with 128-byte rows (BK=256) rows g and g+1 would
/// share banks; flipping the chunk's low bit on odd rows separates them.
template <int BK> __device__ __forceinline__ int swizzleWeightChunk(int row, int chunk) {
  return BK == 256 ? chunk ^ (row & 1) : chunk;
}

/// Weight row of the expert for tile row `l` (see gemm.cuh, GATE_UP).
template <bool GATE_UP> __device__ __forceinline__ int weightRow(int tileRow0, int l, int inter) {
  if constexpr (GATE_UP) return tileRow0 / 2 + (l >> 4) * 8 + (l & 7) + ((l & 8) ? inter : 0);
  else return tileRow0 + l;
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

template <class C, bool GATE_UP> struct StageLoader {
  const uint8_t* w;      // this thread's weight row at k = 0 (first chunk), or null
  const uint8_t* s;      // this thread's scale word at k = 0, or null
  const uint8_t* x;      // this thread's activation row at k = 0 (first chunk), or null
  const uint8_t* idle;   // a valid global address for zero-fill copies (which read nothing)
  int wDst, wFirst;      // this thread's weight row inside a stage, and its first chunk in the row
  int sDst, xRow;        // offset of the scale chunks inside a stage; activation row in the tile
  int wK, sK, xQ, K;     // first k of the weight / scale chunk, first activation chunk

  __device__ StageLoader(const GemmOperands& op, const GemmTile& tile, const TileRows<C::BN>& rows) : idle(op.packed), K(op.K) {
    const size_t expertRow0 = size_t(tile.expert) * op.rowsPerExpert;
    const int tileRow0 = blockIdx.x * C::BM, t = threadIdx.x;
    const int wChunk = t * C::W_CHUNKS, wLocal = wChunk / (C::BK / 32), wRow = weightRow<GATE_UP>(tileRow0, wLocal, op.inter);
    wK = (wChunk % (C::BK / 32)) * 32;
    wDst = wLocal * (C::BK / 2);
    wFirst = wChunk % (C::BK / 32);
    w = wRow < op.rowsPerExpert ? op.packed + (expertRow0 + wRow) * (op.K / 2) + wK / 2 : nullptr;

    const int sChunk = t * C::S_CHUNKS, sLocal = sChunk / (C::BK / 64), sRow = weightRow<GATE_UP>(tileRow0, sLocal, op.inter);
    sK = (sChunk % (C::BK / 64)) * 64;
    sDst = C::W_BYTES + sChunk * 4;
    s = t < C::S_THREADS && sRow < op.rowsPerExpert ? op.scales + (expertRow0 + sRow) * (op.K / 16) + sK / 16 : nullptr;

    const int xChunk = t * C::X_CHUNKS;
    xRow = xChunk / (C::BK / 8);
    xQ = xChunk % (C::BK / 8);
    x = xRow < tile.rows ? reinterpret_cast<const uint8_t*>(op.x + size_t(rows.xRow[xRow]) * op.K + xQ * 8) : nullptr;
  }

  __device__ __forceinline__ void load(uint8_t* stage, int kTile) const {
    loadWeights(stage, kTile);
    loadActivations(stage, kTile);
  }

  /// Weights and block scales: they depend only on the tile list, so the down
  /// GEMM may issue them before the gate/up grid has finished (gemm.cuh).
  __device__ __forceinline__ void loadWeights(uint8_t* stage, int kTile) const {
    const int k0 = kTile * C::BK;
#pragma unroll
    for (int j = 0; j < C::W_CHUNKS; ++j) {
      const bool valid = w && k0 + wK + j * 32 < K;
      copyAsync<16>(stage + wDst + swizzleWeightChunk<C::BK>(wDst / (C::BK / 2), wFirst + j) * 16,
                    valid ? w + k0 / 2 + j * 16 : idle, valid ? 16 : 0);
    }
    if (threadIdx.x < C::S_THREADS) {
#pragma unroll
      for (int j = 0; j < C::S_CHUNKS; ++j) {
        const bool valid = s && k0 + sK + j * 64 < K;
        copyAsync<4>(stage + sDst + j * 4, valid ? s + k0 / 16 + j * 4 : idle, valid ? 4 : 0);
      }
    }
  }

  __device__ __forceinline__ void loadActivations(uint8_t* stage, int kTile) const {
    const int k0 = kTile * C::BK;
    uint8_t* xStage = stage + C::W_BYTES + C::S_BYTES + xRow * (C::BK * 2);
#pragma unroll
    for (int j = 0; j < C::X_CHUNKS; ++j) {
      const bool valid = x && k0 + (xQ + j) * 8 < K;
      copyAsync<16>(xStage + swizzleChunk<C::BK>(xRow, xQ + j) * 16, valid ? x + k0 * 2 + j * 16 : idle, valid ? 16 : 0);
    }
  }
};

} // namespace archscope::w4a16
