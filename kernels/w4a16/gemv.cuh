//===--- gemv.cuh - w4a16: one token's MoE as two weight-streaming GEMVs ---===//
// SPDX-License-Identifier: Apache-2.0
//
// At T = 1 every routed expert sees one pair, and the tiled GEMMs (gemm.cuh)
// pay for what buys nothing there: a sorting launch, a shared-memory ring with
// a CTA barrier per k tile, grids that fill the GPU badly. Here each warp owns
// 16 weight rows of one pair's expert (one block of weight_layout.h) and
// streams them from global memory straight into registers, DEPTH k tiles
// ahead, with gemm.cuh's fragment mapping and k permutation (lane c of a quad
// owns k [c*64, c*64+64) of each 256-wide k tile), so the same dequantizer and
// mma.sync apply; the pair's activation row sits in shared memory and feeds
// MMA column 0 (variants timed and not kept are in kernels/README.md). Two
// launches:
//   gemvGateUp  reads its pair's expert itself (no routing launch), clears
//               `out`; W1 x + SwiGLU -> bf16 activations [pair][I] (workspace).
//               KGROUPS warps may share 16 rows, each on its share of k: more
//               warps, each with fewer tiles in a row, and their sums meet in
//               shared memory before the SwiGLU
//   gemvDown    issues its first weight loads, then waits for the gate/up
//               grid (programmatic dependent launch); act W2 times the routing
//               weight, added into `out`.
// Any T is computed right (one grid row per pair: an expert routed to twice
// is streamed twice), so moe.cuh picks this path only when experts rarely repeat.
//===----------------------------------------------------------------------===//
#pragma once
#include "gemv_layout.h"
#include "mma.cuh"
#include "weight_layout.h"

#include "../common/moe_device.cuh"

namespace archscope::w4a16 {

/// WARPS warps per CTA, each on its own 16 rows, times KGROUPS (gate/up
/// only): the warps on the same rows, each on its k group (gemvGroupTiles);
/// DEPTH k tiles in registers per warp (DEPTH - 1 in flight while one is
/// computed); MIN_CTAS caps registers (__launch_bounds__).
template <int WARPS_, int DEPTH_, int MIN_CTAS_, int KGROUPS_ = 1> struct GemvConfig {
  static constexpr int WARPS = WARPS_, DEPTH = DEPTH_, MIN_CTAS = MIN_CTAS_, KGROUPS = KGROUPS_;
  static constexpr int THREADS = WARPS * KGROUPS * 32;
};

/// The gate/up kernel's shared memory: the staged activation row, then the
/// column-0 sums that k groups 1.. hand to group 0 (16 floats a warp).
template <class C> ARCHSCOPE_HD constexpr int gemvGateUpSharedBytes(int K) {
  return gemvSharedBytes(K) + (C::KGROUPS - 1) * C::WARPS * 16 * int(sizeof(float));
}

struct GemvOperands {
  const uint8_t* packed; // [E][rowsPerExpert * K/2], repacked (nibble_layout.h, weight_layout.h)
  const uint8_t* scales; // [E][rowsPerExpert * K/16], likewise
  const float* global;   // [E]
  int rowsPerExpert, K, inter, hidden, topk, tokens;
  const int32_t* topkIds;
  const float* topkWeights;
  const MoeBf16* x;      // gate/up: the tokens [T][H]; down: the activations [T*k][I], k permuted
  MoeBf16* act;          // [T*k][I] SwiGLU output, k permuted (mma.cuh)
  float* out;            // [T][H]
};

/// One lane's share of one 256-wide k tile for its rows g and g + 8: 64 e2m1
/// (two 16-byte chunks) and their four ue4m3 scales, per row.
struct GemvKTile {
  uint4 w[2][2];
  uint32_t s[2];
};

/// A lane's data in its warp's block (weight_layout.h): its first chunk and
/// its scale pair in whole k tile 0, the block's whole tiles, and for a last
/// partial tile of `tailGroups` 64-k groups how far its row g moves there, in
/// 64-k groups (g * (tailGroups - 4)).
struct GemvRows {
  const uint8_t* w;
  const uint8_t* s;
  int wholeTiles, tailGroups, tailShift;
};

// Weights are read once per launch: not kept in L1. Volatile, so that the
// down GEMM's first loads stay ahead of its griddepcontrol.wait.
__device__ __forceinline__ uint4 loadStreaming(const uint8_t* p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}
__device__ __forceinline__ uint2 loadScalePair(const uint8_t* p) {
  uint2 v;
  asm volatile("ld.global.nc.v2.u32 {%0,%1}, [%2];\n" : "=r"(v.x), "=r"(v.y) : "l"(p));
  return v;
}

/// Rows g and g + 8 of `block` of the expert, for lane (g, c).
__device__ __forceinline__ GemvRows gemvRows(const GemvOperands& op, int expert, int block, int g, int c) {
  const int row = block * kBlockRows, tailGroups = layoutTileGroups(op.K, layoutWholeTiles(op.K));
  const size_t expertRows = size_t(expert) * op.rowsPerExpert;
  return {op.packed + expertRows * (op.K / 2) + blockWeightOffset(row, op.K) + wholeTileChunkOffset(g, c, 0),
          op.scales + expertRows * (op.K / 16) + blockScaleOffset(row, op.K) + wholeTileScaleOffset(g, c),
          layoutWholeTiles(op.K), tailGroups, g * (tailGroups - 4)};
}

/// k tile kt: the lane's 32 bytes of row g, then of row g + 8 (8 rows on: 1 KB
/// in a whole tile), and their scale pair; zeros where the lane's 64 k lie past
/// K (kt >= laneTiles: a partial last tile). TAIL: K % 256 != 0; without it every tile is whole and nothing is
/// tested (a T = 1 GEMV with the test took 29.2-29.3 us, the same loads
/// without it 28.3-28.5: H200 run 14, calls 1 and 5).
template <bool TAIL>
__device__ __forceinline__ void loadKTile(const GemvRows& r, int kt, int laneTiles, GemvKTile& t) {
  const bool whole = !TAIL || kt < r.wholeTiles;
  if (whole || kt < laneTiles) {
    const int bottom = whole ? 8 * 128 : r.tailGroups * 8 * 32;
    const uint8_t* w = r.w + size_t(kt) * kLayoutTileBytes + (whole ? 0 : r.tailShift * 32);
    t.w[0][0] = loadStreaming(w), t.w[0][1] = loadStreaming(w + 16);
    t.w[1][0] = loadStreaming(w + bottom), t.w[1][1] = loadStreaming(w + bottom + 16);
    const uint2 scales = loadScalePair(r.s + size_t(kt) * kLayoutScaleTileBytes + (whole ? 0 : r.tailShift * 8));
    t.s[0] = scales.x, t.s[1] = scales.y;
  } else {
    t.w[0][0] = t.w[0][1] = t.w[1][0] = t.w[1][1] = make_uint4(0, 0, 0, 0);
    t.s[0] = t.s[1] = 0;
  }
}

__device__ __forceinline__ void computeKTile(const GemvKTile& t, const uint8_t* xGroup, float (&acc)[4]) {
  uint32_t scaleTop[4], scaleBottom[4];
  biasedScales(t.s[0], scaleTop);
  biasedScales(t.s[1], scaleBottom);
  const uint32_t top[8] = {t.w[0][0].x, t.w[0][0].y, t.w[0][0].z, t.w[0][0].w,
                           t.w[0][1].x, t.w[0][1].y, t.w[0][1].z, t.w[0][1].w};
  const uint32_t bottom[8] = {t.w[1][0].x, t.w[1][0].y, t.w[1][0].z, t.w[1][0].w,
                              t.w[1][1].x, t.w[1][1].y, t.w[1][1].z, t.w[1][1].w};
#pragma unroll
  for (int w = 0; w < 8; ++w) {
    uint32_t up[4], down[4]; // rows g and g + 8
    dequantWord(top[w], scaleTop[w / 2], up);
    dequantWord(bottom[w], scaleBottom[w / 2], down);
    const uint32_t a0[4] = {up[0], down[0], up[1], down[1]}, a1[4] = {up[2], down[2], up[3], down[3]};
    // Column 0 (quad 0's lanes) is the pair. Every quad reads the same
    // activations (a broadcast), so columns 1..7 repeat column 0 and are not
    // used: cheaper than zeroing them (H200, run 11, call 7).
    const uint4 b = *reinterpret_cast<const uint4*>(xGroup + w * 16);
    mmaBf16(acc, a0, b.x, b.y);
    mmaBf16(acc, a1, b.z, b.w);
  }
}

/// The k loop: DEPTH tiles in registers, each refilled right after it is used.
template <class C, bool TAIL>
__device__ __forceinline__ void streamRows(const GemvRows& r, GemvTileRange range, int laneTiles, const uint8_t* xs,
                                           int c, GemvKTile (&buf)[C::DEPTH], float (&acc)[4]) {
  constexpr int DEPTH = C::DEPTH;
  const int kTiles = range.last;
  for (int base = range.first; base < kTiles; base += DEPTH) {
#pragma unroll
    for (int d = 0; d < DEPTH; ++d) {
      const int kt = base + d;
      if (kt >= kTiles) break;
      computeKTile(buf[d], xs + gemvActivationOffset(kt, c, 0), acc);
      if (kt + DEPTH < kTiles) loadKTile<TAIL>(r, kt + DEPTH, laneTiles, buf[d]);
    }
  }
}

template <class C, bool TAIL>
__device__ __forceinline__ void prefetchRows(const GemvRows& r, GemvTileRange range, int laneTiles,
                                             GemvKTile (&buf)[C::DEPTH]) {
#pragma unroll
  for (int d = 0; d < C::DEPTH; ++d) {
    const int kt = range.first + d;
    if (kt < range.last) loadKTile<TAIL>(r, kt, laneTiles, buf[d]);
  }
}

/// Stages an activation row of K bf16 into the padded layout, zero past K;
/// PERMUTE: it is in natural k order (the tokens) and is permuted here.
template <bool PERMUTE> __device__ __forceinline__ void stageRow(const MoeBf16* row, int K, uint8_t* xs) {
  const int chunks = gemvSharedBytes(K) / kGemvGroupBytes * 8;
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
    *reinterpret_cast<uint4*>(xs + gemvStagedOffset(q)) = v;
  }
}

/// k groups 1.. of a CTA hand their column-0 sums (rows g and g + 8 of each
/// warp's 16) to group 0, which adds them into its own; the others are done.
/// Every thread of the CTA calls it.
template <class C> __device__ __forceinline__ bool gatherKGroups(float* partial, int group, int warp, int g, int c,
                                                                 float (&acc)[4]) {
  if constexpr (C::KGROUPS > 1) {
    float* mine = partial + ((group - 1) * C::WARPS + warp) * 16 + g;
    if (group > 0 && c == 0) mine[0] = acc[0], mine[8] = acc[2];
    __syncthreads();
    if (group > 0) return false;
#pragma unroll
    for (int k = 1; k < C::KGROUPS; ++k) {
      const float* theirs = partial + ((k - 1) * C::WARPS + warp) * 16 + g;
      acc[0] += theirs[0], acc[2] += theirs[8];
    }
  }
  return true;
}

/// Grid (ceil(I/8 / WARPS), T*k). Waits for the previous grid in the stream
/// (the router that wrote topkIds; the previous MoE's down GEMM adding into
/// `out`) before touching memory, then lets the down grid start.
template <class C, bool TAIL>
__global__ void __launch_bounds__(C::THREADS, C::MIN_CTAS) gemvGateUp(GemvOperands op) {
  waitPrimaryGrid();
  allowDependentGrid();
  extern __shared__ __align__(16) uint8_t xs[];
  const int pair = blockIdx.y, warp = threadIdx.x / 32 % C::WARPS, group = threadIdx.x / 32 / C::WARPS;
  const int lane = threadIdx.x % 32, g = lane >> 2, c = lane & 3;
  const int expert = op.topkIds[pair], token = pair / op.topk;
  const int i = (blockIdx.x * C::WARPS + warp) * 8 + g; // gate row i (MMA row g), up row I + i (row g + 8)
  const bool hasRows = i < op.inter;                     // warp-uniform: I % 8 == 0
  const int kTiles = (op.K + kGemvTileK - 1) / kGemvTileK, laneTiles = gemvLaneKTiles(op.K, c);
  const GemvTileRange range = gemvGroupTiles(kTiles, C::KGROUPS, group);
  const GemvRows rows = gemvRows(op, expert, hasRows ? i / 8 : 0, g, c);
  GemvKTile buf[C::DEPTH];
  if (hasRows) prefetchRows<C, TAIL>(rows, range, laneTiles, buf);

  // Clear `out` (the down grid adds into it after this grid has completed).
  const size_t cta = blockIdx.y * gridDim.x + blockIdx.x, ctas = gridDim.x * gridDim.y;
  device::clearFloats(op.out, size_t(op.tokens) * op.hidden, cta * C::THREADS + threadIdx.x, ctas * C::THREADS);
  stageRow<true>(op.x + size_t(token) * op.K, op.K, xs);
  __syncthreads();
  float acc[4] = {};
  if (hasRows) streamRows<C, TAIL>(rows, range, laneTiles, xs, c, buf, acc);
  const bool last = gatherKGroups<C>(reinterpret_cast<float*>(xs + gemvSharedBytes(op.K)), group, warp, g, c, acc);
  if (!last || !hasRows) return;
  if (c == 0) { // column 0 = this pair: acc[0] row g (gate), acc[2] row g + 8 (up)
    const float scale = op.global[expert] * kUnbias, gate = acc[0] * scale, up = acc[2] * scale;
    const int column = (i & ~7) + permutedPosition(i & 7); // the down GEMM's k order
    op.act[size_t(pair) * op.inter + column] = __float2bfloat16_rn(gate / (1.0f + __expf(-gate)) * up);
  }
}

/// Grid (ceil(H/16 / WARPS), T*k). Starts while the gate/up grid runs (its
/// inputs: topkIds, complete before that grid could start, and the weights),
/// and waits for it before reading the activations.
template <class C, bool TAIL>
__global__ void __launch_bounds__(C::THREADS, C::MIN_CTAS) gemvDown(GemvOperands op) {
  static_assert(C::KGROUPS == 1, "the down GEMV's warps each own their rows");
  allowDependentGrid(); // the next MoE's first grid waits for this one before touching memory
  extern __shared__ __align__(16) uint8_t xs[];
  const int pair = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane >> 2, c = lane & 3;
  const int expert = __ldcg(op.topkIds + pair), token = pair / op.topk;
  const int h = (blockIdx.x * C::WARPS + warp) * 16 + g; // rows h and h + 8
  const bool hasRows = h < op.hidden;                     // warp-uniform: H % 16 == 0
  const int kTiles = (op.K + kGemvTileK - 1) / kGemvTileK, laneTiles = gemvLaneKTiles(op.K, c);
  const GemvRows rows = gemvRows(op, expert, hasRows ? h / 16 : 0, g, c);
  GemvKTile buf[C::DEPTH];
  const GemvTileRange range{0, kTiles};
  if (hasRows) prefetchRows<C, TAIL>(rows, range, laneTiles, buf);

  waitPrimaryGrid(); // the activations, and `out` cleared
  stageRow<false>(op.x + size_t(pair) * op.K, op.K, xs);
  __syncthreads();
  if (!hasRows) return;

  float acc[4] = {};
  streamRows<C, TAIL>(rows, range, laneTiles, xs, c, buf, acc);
  if (c == 0) {
    const float weight = __ldcg(op.topkWeights + pair) * op.global[expert] * kUnbias;
    float* out = op.out + size_t(token) * op.hidden + h;
    atomicAdd(out, acc[0] * weight);
    atomicAdd(out + 8, acc[2] * weight);
  }
}

} // namespace archscope::w4a16
