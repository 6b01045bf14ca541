//===--- gemv.cuh - w4a16: one token's MoE as two weight-streaming GEMVs ---===//
// SPDX-License-Identifier: Apache-2.0
//
// At T = 1 every routed expert sees one pair, and the tiled GEMMs (gemm.cuh)
// pay for what buys nothing there: a sorting launch, a shared-memory ring with
// a CTA barrier per k tile, grids that fill the GPU badly. Here each warp owns
// 16 weight rows of one pair's expert (one block of weight_layout.h) and
// streams them from global memory straight into registers, DEPTH k tiles
// ahead, each warp-wide load 512 contiguous bytes (the lane map and the MMA
// columns it uses: gemv_layout.h), with gemm.cuh's dequantizer and mma.sync;
// the scales go through a per-warp shared-memory ring, the pair's activation
// row sits in shared memory (variants timed and not kept are in
// kernels/README.md). Two launches:
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

/// Both kernels' shared memory starts with each warp's scale ring (DEPTH
/// slots of one k tile's scales), then the staged activation row and its zeros.
template <class C> ARCHSCOPE_HD constexpr int gemvRingBytes() {
  return C::WARPS * C::KGROUPS * C::DEPTH * kLayoutScaleTileBytes;
}
template <class C> ARCHSCOPE_HD constexpr int gemvDownSharedBytes(int K) {
  return gemvRingBytes<C>() + gemvRowAndZerosBytes(K);
}
/// The gate/up kernel's also holds the sums that k groups 1.. hand to group 0
/// (16 floats a warp).
template <class C> ARCHSCOPE_HD constexpr int gemvGateUpSharedBytes(int K) {
  return gemvDownSharedBytes<C>(K) + (C::KGROUPS - 1) * C::WARPS * 16 * int(sizeof(float));
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

/// One lane's share of one 256-wide k tile (gemv_layout.h): chunk q of block
/// rows p + 4j in w[j]. The tile's scales (256 bytes for the warp's 16 rows)
/// go to the warp's slot of a shared-memory ring by cp.async, not to
/// registers: each lane copies 2 of its words, and in registers they had made
/// the k loops of the configurations at their register caps spill.
struct GemvKTile {
  uint4 w[4];
};

/// A lane's data in its warp's block (weight_layout.h): its first chunk and its
/// first scale word in whole k tile 0, the block's whole tiles, and for a last
/// partial tile how far its row p and each 4 rows more move there, in bytes of
/// chunks and of scale words (weight_layout.h's tail shifts).
struct GemvRows {
  const uint8_t* w;
  const uint8_t* s;
  int wholeTiles, tailShift, tailStep, scaleTailShift, scaleTailStep;
};

// Weights are read once per launch: not kept in L1. Volatile, so that the
// down GEMM's first loads stay ahead of its griddepcontrol.wait.
__device__ __forceinline__ uint4 loadStreaming(const uint8_t* p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

/// Lane `lane`'s rows of `block` of the expert.
__device__ __forceinline__ GemvRows gemvRows(const GemvOperands& op, int expert, int block, int lane) {
  const int row = block * kBlockRows, p = gemvLaneRow(lane, 0), q = gemvLaneChunk(lane);
  const int cw = layoutTileGroups(op.K, layoutWholeTiles(op.K));
  const size_t expertRows = size_t(expert) * op.rowsPerExpert;
  return {op.packed + expertRows * (op.K / 2) + blockWeightOffset(row, op.K) + wholeTileChunkOffset(p, q / 2, q % 2),
          op.scales + expertRows * (op.K / 16) + blockScaleOffset(row, op.K) + wholeTileScaleOffset(p + 8 * (q % 2), q / 2),
          layoutWholeTiles(op.K),
          wholeTileTailShift(p, cw), wholeTileTailShift(4, cw),
          wholeTileScaleTailShift(p, cw), wholeTileScaleTailShift(4, cw)};
}

/// k tile kt: the lane's chunk of its 4 rows (512 bytes apart in a whole tile)
/// into t, and its 2 scale words (128 bytes apart; word L of each half of the
/// tile's 256 bytes: row p + 4s + 8(q % 2), 64-k group q / 2) into the ring
/// slot at `slot` (a shared address; the caller commits the group); zeros
/// where its 32 k lie past K (kt >= laneTiles: a partial last tile). TAIL:
/// K % 256 != 0; without it every tile is whole and nothing is tested (a T = 1
/// GEMV with the test took 29.2-29.3 us, the same loads without it 28.3-28.5:
/// H200 run 14, calls 1 and 5).
template <bool TAIL>
__device__ __forceinline__ void loadKTile(const GemvRows& r, int kt, int laneTiles, int lane, uint32_t slot,
                                          GemvKTile& t) {
  constexpr int kStep = wholeTileChunkOffset(4, 0, 0), kScaleStep = wholeTileScaleOffset(4, 0); // 4 rows on
  const uint8_t* w = r.w + size_t(kt) * kLayoutTileBytes;
  const uint8_t* s = r.s + size_t(kt) * kLayoutScaleTileBytes;
  slot += lane * 4;
  if (!TAIL || kt < r.wholeTiles) {
#pragma unroll
    for (int j = 0; j < 4; ++j) t.w[j] = loadStreaming(w + j * kStep);
    copyAsyncWhole<4>(slot, s), copyAsyncWhole<4>(slot + kScaleStep, s + kScaleStep);
  } else if (kt < laneTiles) {
    w += r.tailShift, s += r.scaleTailShift;
#pragma unroll
    for (int j = 0; j < 4; ++j) t.w[j] = loadStreaming(w + j * (kStep + r.tailStep));
    copyAsyncWhole<4>(slot, s), copyAsyncWhole<4>(slot + kScaleStep, s + kScaleStep + r.scaleTailStep);
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j) t.w[j] = make_uint4(0, 0, 0, 0);
    copyAsyncTo<4>(slot, r.s, 0), copyAsyncTo<4>(slot + kScaleStep, r.s, 0); // zero-filled, nothing read
  }
}

/// The MMAs of one k tile: set s takes rows p + 4s (MMA row g) and p + 4s + 8
/// (g + 8), each word w of the lane's chunk two MMAs into the one accumulator;
/// EXACT_SCALES: the expert has block scales of exponent 0 (weight_layout.h's
/// mark), which the one multiply-add of the normal decoder would get wrong;
/// x[s] is where the lane reads set s's activations (its own chunk, or zeros:
/// gemvActivationBases). `pairs` is where the slot holds the scale words of
/// rows p and p + 8 (those of set 1 are 128 bytes on), copied by the lane and
/// its neighbour; `pick` takes the bytes of groups 2q, 2q + 1 from each (the
/// top row's two, then the bottom's).
template <bool EXACT_SCALES>
__device__ __forceinline__ void computeKTile(const GemvKTile& t, const uint8_t* const (&x)[2], const uint8_t* pairs,
                                             uint32_t pick, float (&acc)[4]) {
  uint32_t scales[2][4];
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    const uint2 pair = *reinterpret_cast<const uint2*>(pairs + s * wholeTileScaleOffset(4, 0));
    biasedScales<EXACT_SCALES>(__byte_perm(pair.x, pair.y, pick), scales[s]);
  }
  const uint32_t words[4][4] = {{t.w[0].x, t.w[0].y, t.w[0].z, t.w[0].w},
                                {t.w[1].x, t.w[1].y, t.w[1].z, t.w[1].w},
                                {t.w[2].x, t.w[2].y, t.w[2].z, t.w[2].w},
                                {t.w[3].x, t.w[3].y, t.w[3].z, t.w[3].w}};
#pragma unroll
  for (int s = 0; s < 2; ++s)
#pragma unroll
    for (int w = 0; w < 4; ++w) {
      const uint4 b = *reinterpret_cast<const uint4*>(x[s] + w * 16);
      uint32_t up[4], down[4]; // MMA rows g and g + 8
      dequantWord(words[s][w], scales[s][w / 2], up);
      dequantWord(words[s + 2][w], scales[s][2 + w / 2], down);
      const uint32_t a0[4] = {up[0], down[0], up[1], down[1]}, a1[4] = {up[2], down[2], up[3], down[3]};
      mmaBf16(acc, a0, b.x, b.y);
      mmaBf16(acc, a1, b.z, b.w);
    }
}

/// Where lane L reads the activations of MMA set s: column n = L / 4 of the
/// MMA holds set (n / 2) % 2 and half n % 2 of k, so the lane's own chunk q
/// for its set, zeros (the region after the staged row) for the other.
__device__ __forceinline__ void gemvActivationBases(const uint8_t* xs, int K, int lane, const uint8_t* (&x)[2]) {
  const int mine = lane / 8 % 2;
#pragma unroll
  for (int s = 0; s < 2; ++s) x[s] = xs + (s == mine ? 0 : gemvSharedBytes(K));
}

/// Lane L = 4g + c's sums of block rows gemvRowOfLane(L) and 8 on: its half of
/// k (column 2c + g % 2, of set c % 2) plus the other half, which the lane 4
/// apart holds (quad g ^ 1). Every lane of the warp calls it.
__device__ __forceinline__ void addKHalves(const float (&acc)[4], int g, float& top, float& bottom) {
  const bool odd = g & 1;
  const float mineTop = odd ? acc[1] : acc[0], mineBottom = odd ? acc[3] : acc[2];
  top = mineTop + __shfl_xor_sync(0xffffffffu, mineTop, 4);
  bottom = mineBottom + __shfl_xor_sync(0xffffffffu, mineBottom, 4);
}

/// The k loop: DEPTH tiles in registers and the warp's scale ring (`ring`,
/// DEPTH slots of 256 bytes in shared memory), each refilled right after it
/// is used. One cp.async group a step, empty past the range, so that waiting
/// for all but the DEPTH - 1 newest is waiting for the tile about to be used.
template <class C, bool TAIL, bool EXACT_SCALES>
__device__ __forceinline__ void streamRows(const GemvRows& r, GemvTileRange range, int laneTiles, const uint8_t* xs,
                                           uint8_t* ring, int K, int lane, GemvKTile (&buf)[C::DEPTH],
                                           float (&acc)[4]) {
  constexpr int DEPTH = C::DEPTH;
  const int q = gemvLaneChunk(lane);
  const uint32_t pick = q % 2 ? 0x7632 : 0x5410; // bytes 2, 3 / 0, 1 of each word
  const uint8_t* bases[2];
  gemvActivationBases(xs, K, lane, bases);
  const int kTiles = range.last;
  for (int base = range.first; base < kTiles; base += DEPTH) {
#pragma unroll
    for (int d = 0; d < DEPTH; ++d) {
      const int kt = base + d;
      if (kt >= kTiles) break;
      const int at = gemvActivationOffset(kt, q, 0);
      const uint8_t* const x[2] = {bases[0] + at, bases[1] + at};
      uint8_t* slot = ring + d * kLayoutScaleTileBytes;
      waitAsync<DEPTH - 1>();
      __syncwarp(); // the neighbour's word
      computeKTile<EXACT_SCALES>(buf[d], x, slot + (lane & ~1) * 4, pick, acc);
      __syncwarp(); // read before the slot is refilled
      if (kt + DEPTH < kTiles) loadKTile<TAIL>(r, kt + DEPTH, laneTiles, lane, sharedAddress(slot), buf[d]);
      commitAsync();
    }
  }
}

/// The k loop with the decoder the expert's scales need (expertNeedsExactScales).
template <class C, bool TAIL>
__device__ __forceinline__ void streamRowsFor(bool exact, const GemvRows& r, GemvTileRange range, int laneTiles,
                                              const uint8_t* xs, uint8_t* ring, int K, int lane,
                                              GemvKTile (&buf)[C::DEPTH], float (&acc)[4]) {
  if (exact) streamRows<C, TAIL, true>(r, range, laneTiles, xs, ring, K, lane, buf, acc);
  else streamRows<C, TAIL, false>(r, range, laneTiles, xs, ring, K, lane, buf, acc);
}

/// Whether the repack marked this expert's scales (weight_layout.h): one byte,
/// read while the first weights are in flight.
__device__ __forceinline__ bool expertNeedsExactScales(const GemvOperands& op, int expert) {
  return __ldg(op.scales + size_t(expert) * op.rowsPerExpert * (op.K / 16)) & kExactScalesMark;
}

template <class C, bool TAIL>
__device__ __forceinline__ void prefetchRows(const GemvRows& r, GemvTileRange range, int laneTiles, uint8_t* ring,
                                             int lane, GemvKTile (&buf)[C::DEPTH]) {
#pragma unroll
  for (int d = 0; d < C::DEPTH; ++d) {
    const int kt = range.first + d;
    if (kt < range.last) loadKTile<TAIL>(r, kt, laneTiles, lane, sharedAddress(ring + d * kLayoutScaleTileBytes), buf[d]);
    commitAsync();
  }
}

/// Stages an activation row of K bf16 into the padded layout, zero past K;
/// PERMUTE: it is in natural k order (the tokens) and is permuted here. A
/// thread issues up to kStageAhead loads before its first store, not one round
/// trip each (the down grid stages after its wait, on the critical path). A
/// round is its loads (loadRowRound), then its stores (storeRowRound).
constexpr int kStageAhead = 4;
__device__ __forceinline__ int stagedPieces(int K) { return gemvSharedBytes(K) / kGemvChunkBytes * 4; }

template <bool PERMUTE>
__device__ __forceinline__ void loadRowRound(const MoeBf16* row, int K, int first, uint4 (&v)[kStageAhead]) {
#pragma unroll
  for (int u = 0; u < kStageAhead; ++u) {
    const int n = first + u * blockDim.x;
    v[u] = make_uint4(0, 0, 0, 0);
    if (n < stagedPieces(K) && n * 8 < K) {
      const uint4* src = reinterpret_cast<const uint4*>(row) + n;
      v[u] = PERMUTE ? __ldg(src) : __ldcg(src); // the down's row: written by the gate/up grid, read through L2
    }
  }
}

template <bool PERMUTE>
__device__ __forceinline__ void storeRowRound(int K, int first, const uint4 (&v)[kStageAhead], uint8_t* xs) {
#pragma unroll
  for (int u = 0; u < kStageAhead; ++u) {
    const int n = first + u * blockDim.x;
    if (n >= stagedPieces(K)) continue;
    uint4 piece = v[u];
    if constexpr (PERMUTE) {
      uint32_t pair[4];
      permuteActivations(v[u], pair);
      piece = make_uint4(pair[0], pair[1], pair[2], pair[3]);
    }
    *reinterpret_cast<uint4*>(xs + gemvStagedOffset(n)) = piece;
  }
}

/// The rounds from the one that starts at piece `first`.
template <bool PERMUTE>
__device__ __forceinline__ void stageRow(const MoeBf16* row, int K, uint8_t* xs, int first = threadIdx.x) {
  for (; first < stagedPieces(K); first += kStageAhead * blockDim.x) {
    uint4 v[kStageAhead];
    loadRowRound<PERMUTE>(row, K, first, v);
    storeRowRound<PERMUTE>(K, first, v, xs);
  }
}

/// The zeros after the staged row (gemvActivationBases), where a lane reads
/// the MMA set that is not its own.
__device__ __forceinline__ void stageZeros(int K, uint8_t* xs) {
  for (int n = threadIdx.x; n < gemvSharedBytes(K) / 16; n += blockDim.x)
    reinterpret_cast<uint4*>(xs + gemvSharedBytes(K))[n] = make_uint4(0, 0, 0, 0);
}

/// k groups 1.. of a CTA hand their sums (block rows `row` and row + 8 of
/// each warp's 16, from the lanes that write them) to group 0, which adds them
/// into its own; the others are done. Every thread of the CTA calls it.
template <class C> __device__ __forceinline__ bool gatherKGroups(float* partial, int group, int warp, int row, int lane,
                                                                 float& top, float& bottom) {
  if constexpr (C::KGROUPS > 1) {
    float* mine = partial + ((group - 1) * C::WARPS + warp) * 16 + row;
    if (group > 0 && gemvLaneWrites(lane)) mine[0] = top, mine[8] = bottom;
    __syncthreads();
    if (group > 0) return false;
#pragma unroll
    for (int k = 1; k < C::KGROUPS; ++k) {
      const float* theirs = partial + ((k - 1) * C::WARPS + warp) * 16 + row;
      top += theirs[0], bottom += theirs[8];
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
  extern __shared__ __align__(16) uint8_t shared[];
  uint8_t *ring = shared + threadIdx.x / 32 * C::DEPTH * kLayoutScaleTileBytes, *xs = shared + gemvRingBytes<C>();
  const int pair = blockIdx.y, warp = threadIdx.x / 32 % C::WARPS, group = threadIdx.x / 32 / C::WARPS;
  const int lane = threadIdx.x % 32, g = lane >> 2;
  const int expert = op.topkIds[pair], token = pair / op.topk;
  const int block = blockIdx.x * C::WARPS + warp, row = gemvRowOfLane(lane), q = gemvLaneChunk(lane);
  const int i = block * 8 + row;           // block row `row`: gate row i; row + 8: up row I + i
  const bool hasRows = block * 8 < op.inter; // warp-uniform: I % 8 == 0
  const int kTiles = (op.K + kGemvTileK - 1) / kGemvTileK, laneTiles = gemvLaneKTiles(op.K, q);
  const GemvTileRange range = gemvGroupTiles(kTiles, C::KGROUPS, group);
  const GemvRows rows = gemvRows(op, expert, hasRows ? block : 0, lane);
  // The token's row is requested first: behind the weights it arrived about 3 us
  // after the grid started, and no k tile could be computed before it.
  const MoeBf16* xRow = op.x + size_t(token) * op.K;
  uint4 firstRound[kStageAhead];
  loadRowRound<true>(xRow, op.K, threadIdx.x, firstRound);
  const bool exact = expertNeedsExactScales(op, expert);
  GemvKTile buf[C::DEPTH];
  if (hasRows) prefetchRows<C, TAIL>(rows, range, laneTiles, ring, lane, buf);

  // Clear `out` (the down grid adds into it after this grid has completed).
  const size_t cta = blockIdx.y * gridDim.x + blockIdx.x, ctas = gridDim.x * gridDim.y;
  device::clearFloats(op.out, size_t(op.tokens) * op.hidden, cta * C::THREADS + threadIdx.x, ctas * C::THREADS);
  storeRowRound<true>(op.K, threadIdx.x, firstRound, xs);
  stageRow<true>(xRow, op.K, xs, threadIdx.x + kStageAhead * C::THREADS);
  stageZeros(op.K, xs);
  __syncthreads();
  float acc[4] = {};
  if (hasRows) streamRowsFor<C, TAIL>(exact, rows, range, laneTiles, xs, ring, op.K, lane, buf, acc);
  float gate, up;
  addKHalves(acc, g, gate, up);
  const bool last = gatherKGroups<C>(reinterpret_cast<float*>(xs + gemvRowAndZerosBytes(op.K)), group, warp, row, lane, gate, up);
  if (!last || !hasRows) return;
  if (gemvLaneWrites(lane)) {
    const float scale = op.global[expert] * kUnbias;
    gate *= scale, up *= scale;
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
  extern __shared__ __align__(16) uint8_t shared[];
  uint8_t *ring = shared + threadIdx.x / 32 * C::DEPTH * kLayoutScaleTileBytes, *xs = shared + gemvRingBytes<C>();
  const int pair = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane >> 2;
  const int expert = __ldcg(op.topkIds + pair), token = pair / op.topk;
  const int block = blockIdx.x * C::WARPS + warp, q = gemvLaneChunk(lane);
  const int h = block * 16 + gemvRowOfLane(lane); // rows h and h + 8
  const bool hasRows = block * 16 < op.hidden;     // warp-uniform: H % 16 == 0
  const int kTiles = (op.K + kGemvTileK - 1) / kGemvTileK, laneTiles = gemvLaneKTiles(op.K, q);
  const GemvRows rows = gemvRows(op, expert, hasRows ? block : 0, lane);
  const bool exact = expertNeedsExactScales(op, expert);
  GemvKTile buf[C::DEPTH];
  const GemvTileRange range{0, kTiles};
  if (hasRows) prefetchRows<C, TAIL>(rows, range, laneTiles, ring, lane, buf);

  stageZeros(op.K, xs);
  waitPrimaryGrid(); // the activations, and `out` cleared
  stageRow<false>(op.x + size_t(pair) * op.K, op.K, xs);
  __syncthreads();
  if (!hasRows) return;

  float acc[4] = {};
  streamRowsFor<C, TAIL>(exact, rows, range, laneTiles, xs, ring, op.K, lane, buf, acc);
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
