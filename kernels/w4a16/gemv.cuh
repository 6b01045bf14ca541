//===--- gemv.cuh - w4a16: one token's MoE as two weight-streaming GEMVs ---===//
// SPDX-License-Identifier: Apache-2.0
//
// At T = 1 every routed expert sees one pair, and the tiled GEMMs (gemm.cuh)
// pay for what buys nothing there: a sorting launch, a shared-memory ring with
// a CTA barrier per k tile, grids that fill the GPU badly. Here each warp owns
// 16 weight rows of one pair's expert and streams them from global memory
// straight into registers, DEPTH k tiles ahead (a shared-memory cp.async ring
// per warp was timed too: about half as fast, kernels/README.md). The MMA is
// gemm.cuh's m16n8k16 with the same dequantizer and the same k permutation
// inside each group of 8; the pair's activation row, in shared memory, is MMA
// column 0. Two launches:
//   gemvGateUp  reads its pair's expert itself (no routing launch), clears
//               `out`; W1 x + SwiGLU -> bf16 activations [pair][I] (workspace)
//   gemvDown    issues its first weight loads, then waits for the gate/up
//               grid (programmatic dependent launch); act W2 times the routing
//               weight, added into `out`.
// Lane c of a quad owns, in each 256-wide k tile, the 16-byte chunks c and
// c + 4 of a weight row (k [32c, 32c + 32) and [128 + 32c, 160 + 32c)), so one
// load instruction reads 64 contiguous bytes of each of 8 rows: whole sectors.
// Any T is computed right (one grid row per pair: an expert routed to twice
// is streamed twice), so moe.cuh picks this path only when few experts repeat.
//===----------------------------------------------------------------------===//
#pragma once
#include "mma.cuh"

#include "../common/moe_device.cuh"

namespace archscope::w4a16 {

/// WARPS warps per CTA; KSPLIT warps share 16 rows, each taking a contiguous
/// share of the k tiles (their sums meet in shared memory): more warps per SM
/// when there are few rows, since one warp alone is bound by the latency of its
/// own dependent instructions. DEPTH k tiles in registers per warp (DEPTH - 1
/// in flight while one is computed); MIN_CTAS caps registers (__launch_bounds__).
template <int WARPS_, int DEPTH_, int MIN_CTAS_, int KSPLIT_ = 1> struct GemvConfig {
  static constexpr int WARPS = WARPS_, DEPTH = DEPTH_, MIN_CTAS = MIN_CTAS_, KSPLIT = KSPLIT_;
  static constexpr int THREADS = WARPS * 32, ROW_GROUPS = WARPS / KSPLIT, BK = 256;
  static_assert(WARPS % KSPLIT == 0, "whole row groups per CTA");
};

struct GemvOperands {
  const uint8_t* packed; // [E][rowsPerExpert][K/2], repacked (nibble_layout.h)
  const uint8_t* scales; // [E][rowsPerExpert][K/16]
  const float* global;   // [E]
  int rowsPerExpert, K, inter, hidden, topk, tokens;
  const int32_t* topkIds;
  const float* topkWeights;
  const MoeBf16* x;      // gate/up: the tokens [T][H]; down: the activations [T*k][I], k permuted
  MoeBf16* act;          // [T*k][I] SwiGLU output, k permuted (mma.cuh)
  float* out;            // [T][H]
};

/// One lane's share of one k tile for its rows g and g + 8: two 16-byte
/// chunks of e2m1 per row, and their four ue4m3 scales as two byte pairs.
struct GemvKTile {
  uint4 w[2][2];     // [row][chunk]
  uint32_t s[2][2];  // [row][chunk]: the chunk's two scales in the low 16 bits
};

/// A lane's two weight rows at its k offset in k tile 0.
struct GemvRows {
  const uint8_t* w[2];
  const uint8_t* s[2];
};

// Weights are read once per launch: not kept in L1. Volatile, so that the
// down GEMM's first loads stay ahead of its griddepcontrol.wait.
__device__ __forceinline__ uint4 loadStreaming(const uint8_t* p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}
__device__ __forceinline__ uint32_t loadScalePair(const uint8_t* p) {
  uint16_t v;
  asm volatile("ld.global.nc.u16 %0, [%1];\n" : "=h"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ GemvRows gemvRows(const GemvOperands& op, int expert, int top, int bottom, int c) {
  const size_t row0 = size_t(expert) * op.rowsPerExpert;
  GemvRows r;
  const int rows[2] = {top, bottom};
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    r.w[h] = op.packed + (row0 + rows[h]) * (op.K / 2) + c * 16;
    r.s[h] = op.scales + (row0 + rows[h]) * (op.K / 16) + c * 2;
  }
  return r;
}

/// k tile kt; a chunk whose 32 k lie past K (a partial last tile) is zeros.
__device__ __forceinline__ void loadKTile(const GemvRows& r, int kt, int K, int c, GemvKTile& t) {
  const int k0 = kt * 256;
#pragma unroll
  for (int j = 0; j < 2; ++j) {
    const bool valid = k0 + 256 <= K || k0 + j * 128 + c * 32 < K;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      if (valid) {
        t.w[h][j] = loadStreaming(r.w[h] + size_t(kt) * 128 + j * 64);
        t.s[h][j] = loadScalePair(r.s[h] + size_t(kt) * 16 + j * 8);
      } else {
        t.w[h][j] = make_uint4(0, 0, 0, 0);
        t.s[h][j] = 0;
      }
    }
  }
}

// The activation row in shared memory, in 16-byte chunks of 8 k (permuted):
// each run of 4 chunks (one lane's chunk of a weight row) padded to 80 bytes,
// so that the four lanes of quad 0 reading their word w hit four different
// bank groups.
constexpr int kGemvRunBytes = 80;
__host__ __device__ inline int gemvSharedBytes(int K) { return (K + 255) / 256 * 8 * kGemvRunBytes; }
/// The activation row, then the k-split sums (columnSum).
template <class C> __host__ __device__ inline int gemvKernelSharedBytes(int K) {
  return gemvSharedBytes(K) + (C::KSPLIT - 1) * C::ROW_GROUPS * 32 * 8;
}

/// x chunk of word w (0..7) of lane c in k tile kt: run kt*8 + c + 4*(w/4).
__device__ __forceinline__ const uint8_t* xRun(const uint8_t* xs, int kt, int c, int half) {
  return xs + (kt * 8 + c + 4 * half) * kGemvRunBytes;
}

/// acc[0] takes each word's first k half and acc[1] its second: two
/// independent MMA chains.
__device__ __forceinline__ void computeKTile(const GemvKTile& t, const uint8_t* xs, int kt, int c, bool column,
                                             float (&acc)[2][4]) {
  uint32_t scaleTop[4], scaleBottom[4]; // per 16 k: chunk 0's two, then chunk 1's two
  biasedScales(t.s[0][0] | t.s[0][1] << 16, scaleTop);
  biasedScales(t.s[1][0] | t.s[1][1] << 16, scaleBottom);
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const uint32_t top[4] = {t.w[0][half].x, t.w[0][half].y, t.w[0][half].z, t.w[0][half].w};
    const uint32_t bottom[4] = {t.w[1][half].x, t.w[1][half].y, t.w[1][half].z, t.w[1][half].w};
    const uint8_t* run = xRun(xs, kt, c, half);
#pragma unroll
    for (int w = 0; w < 4; ++w) {
      uint32_t up[4], down[4]; // rows g and g + 8
      dequantWord(top[w], scaleTop[half * 2 + w / 2], up);
      dequantWord(bottom[w], scaleBottom[half * 2 + w / 2], down);
      const uint32_t a0[4] = {up[0], down[0], up[1], down[1]}, a1[4] = {up[2], down[2], up[3], down[3]};
      // Column 0 is the pair (quad 0's lanes); the other columns are zero.
      const uint4 b = column ? *reinterpret_cast<const uint4*>(run + w * 16) : make_uint4(0, 0, 0, 0);
      mmaBf16(acc[0], a0, b.x, b.y);
      mmaBf16(acc[1], a1, b.z, b.w);
    }
  }
}

/// A warp's k tiles [begin, end).
struct KRange {
  int begin, end;
};

template <class C> __device__ __forceinline__ KRange warpKRange(int K, int ks) {
  const int kTiles = (K + C::BK - 1) / C::BK;
  return {kTiles * ks / C::KSPLIT, kTiles * (ks + 1) / C::KSPLIT};
}

template <int DEPTH>
__device__ __forceinline__ void prefetchRows(const GemvRows& r, KRange k, int K, int c, GemvKTile (&buf)[DEPTH]) {
#pragma unroll
  for (int d = 0; d < DEPTH; ++d)
    if (k.begin + d < k.end) loadKTile(r, k.begin + d, K, c, buf[d]);
}

/// The k loop: DEPTH tiles in registers, each refilled right after it is used.
template <int DEPTH>
__device__ __forceinline__ void streamRows(const GemvRows& r, KRange k, int K, const uint8_t* xs, bool column, int c,
                                           GemvKTile (&buf)[DEPTH], float (&acc)[2][4]) {
  for (int base = k.begin; base < k.end; base += DEPTH) {
#pragma unroll
    for (int d = 0; d < DEPTH; ++d) {
      const int kt = base + d;
      if (kt >= k.end) break;
      computeKTile(buf[d], xs, kt, c, column, acc);
      if (kt + DEPTH < k.end) loadKTile(r, kt + DEPTH, K, c, buf[d]);
    }
  }
}

/// Column 0 of the row group's sum over its KSPLIT warps, for lanes of quad
/// 0... 7 with c == 0: {row g, row g + 8}. Every thread of the CTA calls it
/// (a barrier); `sums` holds (KSPLIT - 1) * ROW_GROUPS * 32 float2.
template <class C>
__device__ __forceinline__ float2 columnSum(const float (&acc)[2][4], float2* sums, int rowGroup, int ks, int lane) {
  float2 v = make_float2(acc[0][0] + acc[1][0], acc[0][2] + acc[1][2]);
  if constexpr (C::KSPLIT > 1) {
    if (ks > 0) sums[((ks - 1) * C::ROW_GROUPS + rowGroup) * 32 + lane] = v;
    __syncthreads();
    if (ks == 0)
#pragma unroll
      for (int other = 1; other < C::KSPLIT; ++other) {
        const float2 o = sums[((other - 1) * C::ROW_GROUPS + rowGroup) * 32 + lane];
        v.x += o.x, v.y += o.y;
      }
  }
  return v;
}

/// Stages an activation row of K bf16 into the padded layout, zero past K;
/// PERMUTE: it is in natural k order (the tokens) and is permuted here.
template <bool PERMUTE> __device__ __forceinline__ void stageRow(const MoeBf16* row, int K, uint8_t* xs) {
  const int chunks = gemvSharedBytes(K) / kGemvRunBytes * 4;
  for (int q = threadIdx.x; q < chunks; q += blockDim.x) {
    uint4 v = make_uint4(0, 0, 0, 0);
    if (q * 8 < K) {
      const uint4* src = reinterpret_cast<const uint4*>(row) + q;
      if constexpr (PERMUTE) {
        uint32_t pair[4];
        permuteActivations(__ldg(src), pair);
        v = make_uint4(pair[0], pair[1], pair[2], pair[3]);
      } else {
        v = __ldcg(src); // written by the gate/up grid: read through L2
      }
    }
    *reinterpret_cast<uint4*>(xs + (q / 4) * kGemvRunBytes + (q % 4) * 16) = v;
  }
}

/// Grid (ceil(I/8 / ROW_GROUPS), T*k). Waits for the previous grid in the stream
/// (the router that wrote topkIds; the previous MoE's down GEMM adding into
/// `out`) before touching memory, then lets the down grid start.
template <class C> __global__ void __launch_bounds__(C::THREADS, C::MIN_CTAS) gemvGateUp(GemvOperands op) {
  waitPrimaryGrid();
  allowDependentGrid();
  extern __shared__ __align__(16) uint8_t xs[];
  const int pair = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane >> 2, c = lane & 3;
  const int expert = op.topkIds[pair], token = pair / op.topk;
  const int rowGroup = warp % C::ROW_GROUPS, ks = warp / C::ROW_GROUPS;
  const int i = (blockIdx.x * C::ROW_GROUPS + rowGroup) * 8 + g; // gate row i (MMA row g), up row I + i (row g + 8)
  const bool hasRows = i < op.inter;                              // warp-uniform: I % 8 == 0
  const KRange k = warpKRange<C>(op.K, ks);
  const GemvRows rows = gemvRows(op, expert, hasRows ? i : 0, hasRows ? op.inter + i : 0, c);
  GemvKTile buf[C::DEPTH];
  if (hasRows) prefetchRows(rows, k, op.K, c, buf);

  // Clear `out` (the down grid adds into it after this grid has completed).
  const int cta = blockIdx.y * gridDim.x + blockIdx.x, ctas = gridDim.x * gridDim.y;
  float4* out = reinterpret_cast<float4*>(op.out);
  for (int q = cta * C::THREADS + threadIdx.x, n = op.tokens * op.hidden / 4; q < n; q += ctas * C::THREADS)
    out[q] = make_float4(0.f, 0.f, 0.f, 0.f);
  stageRow<true>(op.x + size_t(token) * op.K, op.K, xs);
  __syncthreads();

  float acc[2][4] = {};
  if (hasRows) streamRows(rows, k, op.K, xs, g == 0, c, buf, acc);
  const float2 sum = columnSum<C>(acc, reinterpret_cast<float2*>(xs + gemvSharedBytes(op.K)), rowGroup, ks, lane);
  if (hasRows && ks == 0 && c == 0) { // column 0 = this pair: row g (gate), row g + 8 (up)
    const float scale = op.global[expert] * kUnbias, gate = sum.x * scale, up = sum.y * scale;
    const int column = (i & ~7) + permutedPosition(i & 7); // the down GEMM's k order
    op.act[size_t(pair) * op.inter + column] = __float2bfloat16_rn(gate / (1.0f + __expf(-gate)) * up);
  }
}

/// Grid (ceil(H/16 / ROW_GROUPS), T*k). Starts while the gate/up grid runs (its
/// inputs: topkIds, complete before that grid could start, and the weights),
/// and waits for it before reading the activations.
template <class C> __global__ void __launch_bounds__(C::THREADS, C::MIN_CTAS) gemvDown(GemvOperands op) {
  allowDependentGrid(); // the next MoE's first grid waits for this one before touching memory
  extern __shared__ __align__(16) uint8_t xs[];
  const int pair = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane >> 2, c = lane & 3;
  const int expert = __ldcg(op.topkIds + pair), token = pair / op.topk;
  const int rowGroup = warp % C::ROW_GROUPS, ks = warp / C::ROW_GROUPS;
  const int h = (blockIdx.x * C::ROW_GROUPS + rowGroup) * 16 + g; // rows h and h + 8
  const bool hasRows = h < op.hidden;                              // warp-uniform: H % 16 == 0
  const KRange k = warpKRange<C>(op.K, ks);
  const GemvRows rows = gemvRows(op, expert, hasRows ? h : 0, hasRows ? h + 8 : 0, c);
  GemvKTile buf[C::DEPTH];
  if (hasRows) prefetchRows(rows, k, op.K, c, buf);

  waitPrimaryGrid(); // the activations, and `out` cleared
  stageRow<false>(op.x + size_t(pair) * op.K, op.K, xs);
  __syncthreads();

  float acc[2][4] = {};
  if (hasRows) streamRows(rows, k, op.K, xs, g == 0, c, buf, acc);
  const float2 sum = columnSum<C>(acc, reinterpret_cast<float2*>(xs + gemvSharedBytes(op.K)), rowGroup, ks, lane);
  if (hasRows && ks == 0 && c == 0) {
    const float weight = __ldcg(op.topkWeights + pair) * op.global[expert] * kUnbias;
    float* out = op.out + size_t(token) * op.hidden + h;
    atomicAdd(out, sum.x * weight);
    atomicAdd(out + 8, sum.y * weight);
  }
}

} // namespace archscope::w4a16
