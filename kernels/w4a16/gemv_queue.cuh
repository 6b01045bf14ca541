//===--- gemv_queue.cuh - w4a16: the gate/up GEMV taking blocks from a queue ===//
// SPDX-License-Identifier: Apache-2.0
//
// gemv.cuh's gate/up GEMV gives every warp the same bytes, yet at Qwen-like
// T = 1 its warps end between 10.9 and 18.6 us (H200, run 15): SMs do not get
// equal shares of DRAM, and the down GEMV waits for the last. Here the work is
// handed out as it is done: one item is one 16-row block (8 gate and 8 up
// rows) of one pair, all of its k split among the CTA's KGROUPS warps
// (gemvGroupTiles), and a CTA takes its next item from a ticket counter, so
// CTAs on faster SMs take more. The register ring runs across items: the
// slots a warp frees in an item's last steps are refilled with the next
// item's tiles (gemvQueueRefill), so the loads stay in flight across the CTA
// barrier where the warps' sums meet before the SwiGLU. Thread 0 claims three
// items ahead, its ticket and then the pair's expert each given one item's
// time: waited for at the barrier, a claim and its expert's load in a row
// were two round trips an item (Qwen-like T = 1 34.2 us against 29.0).
// gemv.cuh's down GEMV follows as before.
//===----------------------------------------------------------------------===//
#pragma once
#include "gemv.cuh"

namespace archscope::w4a16 {

// The tickets of one launch, zero between launches: the last CTA to finish
// resets them, and the next launch's CTAs start after this grid completed
// (waitPrimaryGrid, or stream order). So one such MoE runs at a time on a GPU.
__device__ unsigned int gGemvQueueTicket, gGemvQueueExits;

/// A claimed item and its pair's expert (-1: the queue is empty).
struct GemvClaim {
  int item, expert;
};

/// The next ticket: an item after the grid's first two (CTA c starts with
/// items c and c + gridDim.x).
__device__ __forceinline__ int claimTicket() { return int(2 * gridDim.x + atomicAdd(&gGemvQueueTicket, 1u)); }

/// Item `item` with its pair's expert, or the empty claim past the last item.
__device__ __forceinline__ GemvClaim claimOf(const GemvOperands& op, int item, int items, int blocksPerPair) {
  return item < items ? GemvClaim{item, op.topkIds[item / blocksPerPair]} : GemvClaim{items, -1};
}

/// The last CTA to leave resets the tickets. Every CTA's last claim precedes
/// its exit count.
__device__ __forceinline__ void leaveQueue() {
  if (threadIdx.x != 0) return;
  __threadfence();
  if (atomicAdd(&gGemvQueueExits, 1u) == gridDim.x - 1) gGemvQueueTicket = 0, gGemvQueueExits = 0;
}

/// Shared memory: the warps' scale rings, the staged row and its zeros, the
/// k groups' sums of two items (16 floats a warp each), three claims.
template <class C> ARCHSCOPE_HD constexpr int gemvQueueSharedBytes(int K) {
  return gemvDownSharedBytes<C>(K) + 2 * C::KGROUPS * 16 * int(sizeof(float)) + 3 * int(sizeof(GemvClaim));
}

/// Writes the SwiGLU of an item's 8 gate and 8 up sums, which k group 0's
/// writing lanes add from every group's `sums` (16 floats each, row r of the
/// block at r).
template <class C> __device__ __forceinline__ void writeSwiglu(const GemvOperands& op, const float* sums,
                                                              GemvQueueItem item, int expert, int row) {
  float gate = 0.f, up = 0.f;
#pragma unroll
  for (int k = 0; k < C::KGROUPS; ++k) gate += sums[k * 16 + row], up += sums[k * 16 + row + 8];
  const float scale = op.global[expert] * kUnbias;
  gate *= scale, up *= scale;
  const int i = item.block * 8 + row, column = (i & ~7) + permutedPosition(i & 7); // the down GEMM's k order
  op.act[size_t(item.pair) * op.inter + column] = __float2bfloat16_rn(gate / (1.0f + __expf(-gate)) * up);
}

/// 1-D grid of at most one wave (launchGemvQueue), C::KGROUPS warps a CTA on
/// one block at a time (C::WARPS == 1). Waits for the previous grid in the
/// stream, lets the down grid start, clears `out` as gemvGateUp does.
template <class C, bool TAIL>
__global__ void __launch_bounds__(C::THREADS, C::MIN_CTAS) gemvGateUpQueue(GemvOperands op) {
  static_assert(C::WARPS == 1, "a CTA's warps share one block, each on its k group");
  constexpr int DEPTH = C::DEPTH;
  waitPrimaryGrid();
  allowDependentGrid();
  extern __shared__ __align__(16) uint8_t shared[];
  const int group = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane >> 2;
  const int row = gemvRowOfLane(lane), q = gemvLaneChunk(lane);
  uint8_t *ring = shared + group * DEPTH * kLayoutScaleTileBytes, *xs = shared + gemvRingBytes<C>();
  float* sums = reinterpret_cast<float*>(xs + gemvRowAndZerosBytes(op.K)); // [2 items][KGROUPS][16]
  GemvClaim* claims = reinterpret_cast<GemvClaim*>(sums + 2 * C::KGROUPS * 16);
  const int blocksPerPair = op.inter / 8, items = blocksPerPair * op.tokens * op.topk;
  const int kTiles = (op.K + kGemvTileK - 1) / kGemvTileK, laneTiles = gemvLaneKTiles(op.K, q);
  const GemvTileRange range = gemvGroupTiles(kTiles, C::KGROUPS, group);
  const int steps = gemvQueueSteps(kTiles, C::KGROUPS, DEPTH);
  const uint32_t pick = q % 2 ? 0x7632 : 0x5410; // computeKTile's scale bytes
  const uint8_t* bases[2];
  gemvActivationBases(xs, op.K, lane, bases);

  GemvQueueItem cur = gemvQueueItem(blockIdx.x, blocksPerPair);
  int expert = op.topkIds[cur.pair];
  GemvKTile buf[DEPTH];
  {
    const GemvRows rows = gemvRows(op, expert, cur.block, lane);
#pragma unroll
    for (int d = 0; d < DEPTH; ++d) {
      const int kt = gemvQueueTile(range, d);
      if (kt >= 0) loadKTile<TAIL>(rows, kt, laneTiles, lane, sharedAddress(ring + d * kLayoutScaleTileBytes), buf[d]);
      commitAsync();
    }
  }
  // Thread 0's claims: `ticket` is the item after next's, claimed one item
  // before its expert is read and two before it is published.
  int ticket = items;
  if (threadIdx.x == 0) {
    claims[1] = claimOf(op, blockIdx.x + gridDim.x, items, blocksPerPair);
    if (claims[1].expert >= 0) ticket = claimTicket();
  }
  const size_t threads = size_t(gridDim.x) * C::THREADS;
  device::clearFloats(op.out, size_t(op.tokens) * op.hidden, blockIdx.x * C::THREADS + threadIdx.x, threads);
  int token = cur.pair / op.topk;
  stageRow<true>(op.x + size_t(token) * op.K, op.K, xs);
  stageZeros(op.K, xs);
  __syncthreads();

  for (int n = 0;; ++n) {
    const GemvClaim next = claims[(n + 1) % 3];
    const GemvQueueItem after = gemvQueueItem(next.item, blocksPerPair);
    GemvClaim ahead{items, -1}; // the item after next, published at the barrier
    if (threadIdx.x == 0 && ticket < items) {
      ahead = claimOf(op, ticket, items, blocksPerPair);
      ticket = claimTicket();
    }
    const GemvRows rows = gemvRows(op, expert, cur.block, lane);
    const GemvRows nextRows = gemvRows(op, next.expert >= 0 ? next.expert : 0, after.block, lane);
    float acc[4] = {};
    for (int base = 0; base < steps; base += DEPTH) {
#pragma unroll
      for (int d = 0; d < DEPTH; ++d) {
        const int s = base + d, kt = gemvQueueTile(range, s);
        uint8_t* slot = ring + d * kLayoutScaleTileBytes;
        waitAsync<DEPTH - 1>();
        __syncwarp(); // the neighbour's word
        if (kt >= 0) {
          const int at = gemvActivationOffset(kt, q, 0);
          const uint8_t* const x[2] = {bases[0] + at, bases[1] + at};
          computeKTile(buf[d], x, slot + (lane & ~1) * 4, pick, acc);
        }
        __syncwarp(); // read before the slot is refilled
        const GemvQueueRefill refill = gemvQueueRefill(s, steps, DEPTH);
        const int nt = gemvQueueTile(range, refill.step);
        if (nt >= 0 && (!refill.next || next.expert >= 0))
          loadKTile<TAIL>(refill.next ? nextRows : rows, nt, laneTiles, lane, sharedAddress(slot), buf[d]);
        commitAsync();
      }
    }
    float gate, up;
    addKHalves(acc, g, gate, up);
    float* mine = sums + (n % 2) * C::KGROUPS * 16 + group * 16;
    if (gemvLaneWrites(lane)) mine[row] = gate, mine[row + 8] = up;
    if (threadIdx.x == 0) claims[(n + 2) % 3] = ahead;
    __syncthreads(); // the item's sums, and the claim after next
    if (group == 0 && gemvLaneWrites(lane)) writeSwiglu<C>(op, sums + (n % 2) * C::KGROUPS * 16, cur, expert, row);
    if (next.expert < 0) break;
    if (after.pair / op.topk != token) { // a pair of another token: its row (every warp is past its reads)
      token = after.pair / op.topk;
      stageRow<true>(op.x + size_t(token) * op.K, op.K, xs);
      __syncthreads();
    }
    cur = after, expert = next.expert;
  }
  leaveQueue();
}

} // namespace archscope::w4a16
