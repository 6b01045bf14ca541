//===--- routing.cuh - w4a16: sort routed pairs by expert, list GEMM tiles -===//
// SPDX-License-Identifier: Apache-2.0
//
// One launch does the bookkeeping of the grouped GEMMs: block 0 counts the
// (token, slot) pairs per expert, lays them out sorted by expert and cuts each
// expert's pairs into tiles of at most `tileTokens`; the other blocks clear the
// fp32 output, which the down projection accumulates into, and write x in the
// GEMMs' k order (mma.cuh: each group of 8 as k3 k7 k2 k6 k1 k5 k0 k4; for the
// wgmma path, wgmma_layout.h: each group of 64 in wgmmaRealK order).
// Tiles: the mma.sync path cuts an expert's c pairs into tiles of tileTokens
// and a remainder; the wgmma path (tileRound > 0) cuts them into the fewest
// tiles of at most tileTokens, of equal size rounded up to tileRound, so an
// expert with a few pairs more than a tile gets two half tiles, not a full
// one and a sliver that streams all its weights again for a few pairs.
// The order of pairs inside an expert depends on atomics, but no result does:
// every output element is computed from one pair alone.
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/moe_device.cuh"
#include "mma.cuh"
#include "wgmma_layout.h"

#include <algorithm>

namespace archscope::w4a16 {

constexpr int kMaxExperts = 1024; // shared-memory tables of the sort
constexpr int kRoutingThreads = 1024;

/// A tile of the grouped GEMMs: `rows` pairs of one expert, starting at
/// `rowBegin` in the sorted order.
struct GemmTile {
  int expert, rowBegin, rows, pad;
};

/// Views into the workspace (see routingLayout).
struct Routing {
  int* sortedPair;   // [T*k] pair = token * k + slot, sorted by expert
  GemmTile* tiles;   // [maxTiles]
  int* tileCount;    // [1]
  int* tileDone;     // [maxTiles] gate/up CTAs finished per tile (mma.sync path: the down GEMM waits on it)
  MoeBf16* act;      // [T*k][I] SwiGLU output, row r = sortedPair[r], k order permuted
  MoeBf16* x;        // [T][H] the tokens, k order permuted
};

/// Upper bound of the tile count: sum of ceil(count_e / n) over used experts.
inline int maxGemmTiles(const MoeShape& s, int tileTokens) {
  const int64_t pairs = s.pairs();
  return int(std::min<int64_t>(s.experts, pairs) + pairs / tileTokens);
}

inline Routing routingLayout(const MoeShape& s, void* workspace, int maxTiles) {
  char* base = static_cast<char*>(workspace);
  Routing r;
  r.sortedPair = reinterpret_cast<int*>(base);
  base += device::alignUp256(size_t(s.pairs()) * sizeof(int));
  r.tiles = reinterpret_cast<GemmTile*>(base);
  base += device::alignUp256(size_t(maxTiles) * sizeof(GemmTile));
  r.tileCount = reinterpret_cast<int*>(base);
  base += 256;
  r.tileDone = reinterpret_cast<int*>(base);
  base += device::alignUp256(size_t(maxTiles) * sizeof(int));
  r.act = reinterpret_cast<MoeBf16*>(base);
  base += device::alignUp256(size_t(s.pairs()) * s.inter * sizeof(MoeBf16));
  r.x = reinterpret_cast<MoeBf16*>(base);
  return r;
}

inline size_t routingWorkspaceBytes(const MoeShape& s, int maxTiles) {
  return device::alignUp256(size_t(s.pairs()) * sizeof(int)) +
         device::alignUp256(size_t(maxTiles) * sizeof(GemmTile)) + 256 + device::alignUp256(size_t(maxTiles) * sizeof(int)) +
         device::alignUp256(size_t(s.pairs()) * s.inter * sizeof(MoeBf16)) + size_t(s.tokens) * s.hidden * sizeof(MoeBf16);
}

/// Warp 0 scans counts into offsets and writes each expert's tiles.
__device__ inline void scanAndCutTiles(const int* count, int* offset, int experts, int tileTokens,
                                       int tileRound, Routing r) {
  const int lane = threadIdx.x;
  int pairBase = 0, tileBase = 0;
  for (int first = 0; first < experts; first += 32) {
    const int e = first + lane;
    const int c = e < experts ? count[e] : 0;
    const int size = tileRound > 0 && c > 0 ? balancedTileSize(c, tileTokens, tileRound) : tileTokens;
    const int t = (c + size - 1) / size;
    int pairScan = c, tileScan = t; // inclusive warp scans
    for (int d = 1; d < 32; d *= 2) {
      const int p = __shfl_up_sync(0xffffffffu, pairScan, d);
      const int q = __shfl_up_sync(0xffffffffu, tileScan, d);
      if (lane >= d) pairScan += p, tileScan += q;
    }
    const int myPair = pairBase + pairScan - c, myTile = tileBase + tileScan - t;
    if (e < experts) offset[e] = myPair;
    for (int i = 0; i < t; ++i)
      r.tiles[myTile + i] = {e, myPair + i * size, min(size, c - i * size), 0};
    pairBase += __shfl_sync(0xffffffffu, pairScan, 31);
    tileBase += __shfl_sync(0xffffffffu, tileScan, 31);
  }
  if (lane == 0) *r.tileCount = tileBase;
}

/// x in the wgmma path's order: out[L] = in[wgmmaRealK(L)] per group of 64.
__device__ __forceinline__ void permuteActivations64(const uint4* in, uint4* out) {
  uint32_t v[32], o[32];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const uint4 q = in[i];
    v[4 * i] = q.x, v[4 * i + 1] = q.y, v[4 * i + 2] = q.z, v[4 * i + 3] = q.w;
  }
#pragma unroll
  for (int m = 0; m < 32; ++m) {
    const int lo = wgmmaRealK(2 * m), hi = wgmmaRealK(2 * m + 1);
    o[m] = __byte_perm(v[lo >> 1], v[hi >> 1], ((lo & 1) ? 0x32 : 0x10) | ((hi & 1) ? 0x7600 : 0x5400));
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) out[i] = make_uint4(o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]);
}

/// tileRound > 0 selects the wgmma path's balanced tiles and x order.
/// Launched as a dependent launch too (moe.cuh): it waits for whatever ran
/// before it in the stream (the previous MoE's down GEMM adds into `out`)
/// before touching memory, and only its launch overlaps that grid's end.
__global__ void __launch_bounds__(kRoutingThreads) prepareRouting(MoeDeviceArgs a, Routing r, int tileTokens,
                                                                  int tileRound, int maxTiles) {
  waitPrimaryGrid();
  allowDependentGrid(); // the gate/up GEMM's CTAs may become resident now; they wait for this grid
  const int pairs = a.shape.tokens * a.shape.topk, experts = a.shape.experts;
  if (blockIdx.x > 0) { // clear the output, permute x
    const size_t stride = size_t(gridDim.x - 1) * blockDim.x, first = size_t(blockIdx.x - 1) * blockDim.x + threadIdx.x;
    const size_t groups = size_t(a.shape.tokens) * a.shape.hidden / 8; // of 8 bf16 = 16 bytes
    device::clearFloats(a.out, 8 * groups, first, stride);
    const uint4* x = reinterpret_cast<const uint4*>(a.x);
    uint4* xPermuted = reinterpret_cast<uint4*>(r.x);
    if (tileRound > 0) {
      for (size_t i = first; i < groups / 8; i += stride) permuteActivations64(x + 8 * i, xPermuted + 8 * i);
      return;
    }
    for (size_t i = first; i < groups; i += stride) {
      uint32_t pair[4];
      permuteActivations(x[i], pair);
      xPermuted[i] = make_uint4(pair[0], pair[1], pair[2], pair[3]);
    }
    return;
  }
  __shared__ int count[kMaxExperts], offset[kMaxExperts], cursor[kMaxExperts];
  for (int t = threadIdx.x; t < maxTiles; t += blockDim.x) r.tileDone[t] = 0;
  for (int e = threadIdx.x; e < experts; e += blockDim.x) count[e] = 0, cursor[e] = 0;
  __syncthreads();
  for (int p = threadIdx.x; p < pairs; p += blockDim.x) atomicAdd(&count[a.topkIds[p]], 1);
  __syncthreads();
  if (threadIdx.x < 32) scanAndCutTiles(count, offset, experts, tileTokens, tileRound, r);
  __syncthreads();
  for (int p = threadIdx.x; p < pairs; p += blockDim.x) {
    const int e = a.topkIds[p];
    r.sortedPair[offset[e] + atomicAdd(&cursor[e], 1)] = p;
  }
}

} // namespace archscope::w4a16
