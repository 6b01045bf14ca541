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
// quad owns k [c*BK/4, (c+1)*BK/4), i.e. whole 16-element scale blocks, read
// as one 16- (BK=128) or 8-byte (BK=64) word per weight row.
// GATE_UP: the tile's rows interleave gate row i (MMA rows 0..7) with up row
// I+i (rows 8..15), so each lane holds both halves of SwiGLU and writes the
// bf16 activation. Down: the epilogue scales by the routing weight and adds
// into the fp32 output (atomics: up to k experts add into one token row).
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
  static constexpr int SMEM_BYTES = STAGES * STAGE_BYTES + BN * int(sizeof(int));
  static_assert(BK == 64 || BK == 128, "a lane's k range must be whole scale blocks");
  static_assert(MT >= 1 && NT >= 1 && BM % (WARPS_M * 16) == 0 && BN % (WARPS_N * 8) == 0, "warp tiling");
};

struct GemmOperands {
  const uint8_t* packed; // [E][rowsPerExpert][K/2]
  const uint8_t* scales; // [E][rowsPerExpert][K/16]
  const float* global;   // [E]
  int rowsPerExpert, K, inter, hidden, topk;
  const MoeBf16* x;      // GATE_UP: tokens [T][H]; Down: activations [T*k][I] in sorted order
  const float* topkWeights;
  float* out;
  Routing routing;
};

/// Activation chunk swizzle: the 8 lanes of one LDS.128 phase hit 8 distinct bank groups.
template <int BK> __device__ __forceinline__ int swizzleChunk(int n, int q) {
  if constexpr (BK == 128) return q ^ ((q >> 2) & 3) ^ ((n & 1) << 2);
  else return q ^ (n & 1);
}

/// Weight row of the expert for tile row `l` (see GATE_UP above).
template <bool GATE_UP> __device__ __forceinline__ int weightRow(int tileRow0, int l, int inter) {
  if constexpr (GATE_UP) return tileRow0 / 2 + (l >> 4) * 8 + (l & 7) + ((l & 8) ? inter : 0);
  else return tileRow0 + l;
}

/// Issues the cp.async copies of k tile `kTile` into `stage`. Rows past the
/// expert (a last, half M tile of the down projection), k past K (a last,
/// half k tile when K % BK == 64) and pairs past the tile are zero-filled.
template <class C, bool GATE_UP>
__device__ __forceinline__ void loadStage(uint8_t* stage, const GemmOperands& op, const GemmTile& tile,
                                          const int* pairOf, int kTile) {
  const size_t expertRow0 = size_t(tile.expert) * op.rowsPerExpert;
  const int tileRow0 = blockIdx.x * C::BM, k0 = kTile * C::BK;
  for (int i = threadIdx.x; i < C::BM * C::BK / 32; i += C::THREADS) { // 16-byte weight chunks (32 k)
    const int l = i / (C::BK / 32), col = i % (C::BK / 32);
    const int row = weightRow<GATE_UP>(tileRow0, l, op.inter);
    const bool valid = row < op.rowsPerExpert && k0 + col * 32 < op.K;
    copyAsync<16>(stage + i * 16, valid ? op.packed + (expertRow0 + row) * (op.K / 2) + k0 / 2 + col * 16 : op.packed,
                  valid ? 16 : 0);
  }
  const int scaleBytes = min(C::BK, op.K - k0) / 16;
  for (int l = threadIdx.x; l < C::BM; l += C::THREADS) {
    const int row = weightRow<GATE_UP>(tileRow0, l, op.inter);
    const bool valid = row < op.rowsPerExpert;
    copyAsync<C::BK / 16>(stage + C::W_BYTES + l * (C::BK / 16),
                          valid ? op.scales + (expertRow0 + row) * (op.K / 16) + k0 / 16 : op.scales,
                          valid ? scaleBytes : 0);
  }
  uint8_t* xStage = stage + C::W_BYTES + C::S_BYTES;
  for (int i = threadIdx.x; i < C::BN * C::BK / 8; i += C::THREADS) { // 16-byte activation chunks (8 k)
    const int n = i / (C::BK / 8), q = i % (C::BK / 8);
    const bool valid = n < tile.rows && k0 + q * 8 < op.K;
    const size_t xRow = !valid ? 0 : GATE_UP ? size_t(pairOf[n] / op.topk) : size_t(tile.rowBegin + n);
    copyAsync<16>(xStage + n * (C::BK * 2) + swizzleChunk<C::BK>(n, q) * 16,
                  valid ? op.x + xRow * op.K + k0 + q * 8 : op.x, valid ? 16 : 0);
  }
}

/// Loads `bytes` (8 or 16) of shared memory as 2 or 4 words.
template <int WORDS> __device__ __forceinline__ void loadWords(const uint8_t* p, uint32_t (&w)[WORDS]) {
  if constexpr (WORDS == 4) {
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
  } else {
    const uint2 v = *reinterpret_cast<const uint2*>(p);
    w[0] = v.x, w[1] = v.y;
  }
}

template <class C>
__device__ __forceinline__ void computeStage(const uint8_t* stage, int validRows, float (&acc)[C::MT][C::NT][4]) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane >> 2, c = lane & 3;
  const int warpRow0 = (warp % C::WARPS_M) * (C::BM / C::WARPS_M);
  const int warpCol0 = (warp / C::WARPS_M) * (C::BN / C::WARPS_N);
  const uint8_t* sW = stage;
  const uint8_t* sS = stage + C::W_BYTES;
  const uint8_t* sX = stage + C::W_BYTES + C::S_BYTES;

  uint32_t words[C::MT][2][C::WORDS], scale2[C::MT][2][C::WORDS / 2];
#pragma unroll
  for (int mt = 0; mt < C::MT; ++mt)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = warpRow0 + mt * 16 + g + h * 8;
      loadWords<C::WORDS>(sW + row * (C::BK / 2) + c * C::WORDS * 4, words[mt][h]);
#pragma unroll
      for (int b = 0; b < C::WORDS / 2; ++b) scale2[mt][h][b] = biasedScale(sS[row * (C::BK / 16) + c * (C::WORDS / 2) + b]);
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
#pragma unroll
    for (int nt = 0; nt < C::NT; ++nt) {
      if (warpCol0 + nt * 8 >= validRows) break; // warp-uniform: no pair left in this column
      const int n = warpCol0 + nt * 8 + g;
      const uint4 x = *reinterpret_cast<const uint4*>(sX + n * (C::BK * 2) + swizzleChunk<C::BK>(n, c * C::WORDS + w) * 16);
      uint32_t b[4];
      permuteActivations(x, b);
#pragma unroll
      for (int mt = 0; mt < C::MT; ++mt) {
        mmaBf16(acc[mt][nt], a[mt][0], b[0], b[1]);
        mmaBf16(acc[mt][nt], a[mt][1], b[2], b[3]);
      }
    }
  }
}

template <class C, bool GATE_UP>
__device__ __forceinline__ void storeTile(const GemmOperands& op, const GemmTile& tile, const int* pairOf,
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
          op.routing.act[size_t(tile.rowBegin + n) * op.inter + i] = __float2bfloat16_rn(silu * bottom);
        } else {
          const int h = blockIdx.x * C::BM + warpRow0 + mt * 16 + g;
          if (h >= op.hidden) continue; // a half M tile: H % 128 == 64
          const int pair = pairOf[n];
          const float weight = op.topkWeights[pair];
          float* row = op.out + size_t(pair / op.topk) * op.hidden;
          atomicAdd(row + h, top * weight);
          atomicAdd(row + h + 8, bottom * weight);
        }
      }
}

template <class C, bool GATE_UP> __global__ void __launch_bounds__(C::THREADS) moeGemm(GemmOperands op) {
  if (int(blockIdx.y) >= *op.routing.tileCount) return;
  extern __shared__ __align__(128) uint8_t smem[];
  int* pairOf = reinterpret_cast<int*>(smem + C::STAGES * C::STAGE_BYTES);
  const GemmTile tile = op.routing.tiles[blockIdx.y];
  for (int n = threadIdx.x; n < C::BN; n += C::THREADS)
    pairOf[n] = n < tile.rows ? op.routing.sortedPair[tile.rowBegin + n] : 0;
  __syncthreads();

  const int kTiles = (op.K + C::BK - 1) / C::BK;
#pragma unroll
  for (int s = 0; s < C::STAGES - 1; ++s) {
    if (s < kTiles) loadStage<C, GATE_UP>(smem + s * C::STAGE_BYTES, op, tile, pairOf, s);
    commitAsync(); // empty groups keep the wait count uniform
  }
  float acc[C::MT][C::NT][4] = {};
  for (int kt = 0; kt < kTiles; ++kt) {
    waitAsync<C::STAGES - 2>();
    __syncthreads(); // stage kt landed for all; stage kt-1 is free to overwrite
    const int next = kt + C::STAGES - 1;
    if (next < kTiles) loadStage<C, GATE_UP>(smem + (next % C::STAGES) * C::STAGE_BYTES, op, tile, pairOf, next);
    commitAsync();
    computeStage<C>(smem + (kt % C::STAGES) * C::STAGE_BYTES, tile.rows, acc);
  }
  storeTile<C, GATE_UP>(op, tile, pairOf, acc);
}

} // namespace archscope::w4a16
