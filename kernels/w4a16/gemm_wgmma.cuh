//===--- gemm_wgmma.cuh - w4a16: grouped NVFP4 x bf16 GEMM on wgmma (sm_90a) -===//
// SPDX-License-Identifier: Apache-2.0
//
// The Hopper path of the family, for tiles of many pairs. One CTA, two
// warpgroups, computes 128 weight rows (64 per warpgroup: wgmma's M) by up to
// BN routed pairs of one expert (wgmma's N: the tile's pair count rounded up
// to NSTEP, one compiled k loop per N, picked per tile). Per k tile of 64:
//  - weights (32 bytes a row), block scales (4 bytes a row) and the
//    activation rows (128 bytes each, 128-byte swizzle) go through a cp.async
//    ring; the source addresses are resolved once per tile (WgmmaTables), so
//    each copy is a shared load, an add and the cp.async;
//  - each lane dequantizes its rows' 16-element scale block (mma.cuh's
//    nibble-to-bf16 step, block scale folded, 2^8 undone in the epilogue)
//    straight into the wgmma A fragment and issues 4 x wgmma m64nNk16, A from
//    registers, B (activations) from shared memory through a matrix
//    descriptor. The A registers hold a permutation of k (wgmma_layout.h); the
//    activations are stored in global memory in the same order.
// Two ways to run the ring:
//  - wgmmaTileSync (the configurations moe.cuh picks): all 256 threads copy
//    AHEAD = S - 2 tiles ahead and meet at one barrier per k tile; S is the
//    configuration's STAGES, or for tiles narrower than BN as many as the
//    ring's bytes hold (at most MAX_STAGES);
//  - wgmmaTileWs (`wgmma-ws`, measured slower): a third warpgroup copies,
//    mbarriers full/empty per stage, no CTA barrier in the loop.
// Async bookkeeping: every wgmma is its own commit group and is followed by
// wgmma.wait_group 3, so the wgmma that last read a fragment slot (4 slots,
// one per k step) has retired before the slot is rewritten, and at the top of
// k tile kt every wgmma of tile kt-2 has retired: stage (kt-2) % S is free.
// cp.async writes through the generic proxy, so the writing thread fences
// (fence.proxy.async) after its copies complete and before the barrier (or
// mbarrier arrive) that precedes the wgmma reads.
// Epilogues: gate/up writes bf16 SwiGLU(gate, up) at its down-GEMM k position
// (wgmmaWeightRow picks the rows so that is 8 consecutive positions per
// warp); down adds weight * y into `out` with red.global.add.v2.f32 (each
// lane's two fragment rows are adjacent outputs).
// Check after a change: ptxas must print no C7515 ("wgmma.mma_async
// instructions are serialized"; it is an info line, -Xptxas -v not needed)
// and the SASS must show WARPGROUP.DEPBAR.LE gsb0, 0x3 inside the k loops.
// Compiled only for sm_90a (wgmma): elsewhere the kernels are empty and
// moe.cuh never launches them (wgmmaAvailable asks wgmmaBuildProbe first).
//===----------------------------------------------------------------------===//
#pragma once
#include "loader.cuh"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define ARCHSCOPE_W4A16_WGMMA 1
#else
#define ARCHSCOPE_W4A16_WGMMA 0
#endif

#include "wgmma_layout.h"
#include "wgmma_ops.cuh"

namespace archscope::w4a16 {

/// <BN max pairs per tile, ring stages, CTAs per SM (register cap), N step,
/// warp-specialized>. WS: 384 threads, warpgroup 0 copies, warpgroups 1-2
/// compute (see wgmmaTileWs); otherwise 256 threads that do both.
/// MAX_STAGES > STAGES: tiles narrower than BN use the ring's room for more
/// stages (at most MAX_STAGES).
template <int BN_, int STAGES_, int MIN_BLOCKS_, int NSTEP_, bool WS_ = false, int MAX_STAGES_ = STAGES_>
struct WgmmaConfig {
  static constexpr int BM = 128, BN = BN_, BK = 64, STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_, NSTEP = NSTEP_;
  static constexpr int MAX_STAGES = MAX_STAGES_;
  static constexpr bool WS = WS_;
  static constexpr int THREADS = WS ? 384 : 256;
  static constexpr int X_BYTES = BN * 128, W_BYTES = BM * 32, S_BYTES = BM * 4, WS_BYTES = W_BYTES + S_BYTES;
  // Activation tiles first (each 1024-byte aligned, for the swizzle), then weights + scales per stage.
  static constexpr int RING_BYTES = STAGES * (X_BYTES + WS_BYTES);
  static constexpr int TABLE_BYTES = 16 * BN + 16 * BM + 16 * 16; // WgmmaTables + mbarriers
  static constexpr int SMEM_BYTES = 1024 + RING_BYTES + TABLE_BYTES;
  static_assert(BN % 32 == 0 && BN <= 256 && BN % NSTEP == 0 && NSTEP % 8 == 0, "tile width");
  static_assert(STAGES >= 3 && MAX_STAGES >= STAGES && MAX_STAGES <= 16, "ring depth");
};

/// Per-tile facts in shared memory: where each copy reads (resolved once per
/// tile, so a copy in the k loop is a shared load, an add and the cp.async)
/// and, for the down GEMM, which token each pair adds into with which weight.
template <int BN, int BM> struct WgmmaTables {
  const uint8_t* xsrc[BN]; // activation row n at k = 0; past the tile: a valid row, copied as zeros
  const uint8_t* wsrc[BM]; // weight row of tile row l at k = 0; null past the expert (zeros)
  const uint8_t* ssrc[BM]; // scale row of tile row l at k = 0; null past the expert
  int outRow[BN];
  float weight[BN];
  unsigned long long barrier[16]; // WS: full[STAGES], empty[STAGES]

  template <bool GATE_UP> __device__ void fill(const GemmOperands& op, const GemmTile& tile) {
    const uint8_t* x = reinterpret_cast<const uint8_t*>(op.x);
    for (int n = threadIdx.x; n < BN; n += blockDim.x) {
      const bool valid = n < tile.rows;
      const int pair = valid ? op.routing.sortedPair[tile.rowBegin + n] : 0;
      const int xRow = GATE_UP ? pair / op.topk : tile.rowBegin + n;
      xsrc[n] = valid ? x + size_t(xRow) * op.K * 2 : x;
      outRow[n] = pair / op.topk;
      weight[n] = valid ? op.topkWeights[pair] : 0.0f;
    }
    const size_t expertRow0 = size_t(tile.expert) * op.rowsPerExpert;
    for (int l = threadIdx.x; l < BM; l += blockDim.x) {
      const int row = wgmmaWeightRow<GATE_UP>(blockIdx.x * BM, l, op.inter);
      const bool inside = row < op.rowsPerExpert;
      wsrc[l] = inside ? op.packed + (expertRow0 + row) * (op.K / 2) : nullptr;
      ssrc[l] = inside ? op.scales + (expertRow0 + row) * (op.K / 16) : nullptr;
    }
  }
};

__device__ __forceinline__ void wgmmaFence() {
#if ARCHSCOPE_W4A16_WGMMA
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmmaCommit() {
#if ARCHSCOPE_W4A16_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int PENDING> __device__ __forceinline__ void wgmmaWait() {
#if ARCHSCOPE_W4A16_WGMMA
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
#endif
}
/// Orders this thread's generic-proxy writes to shared memory (cp.async landed)
/// before later async-proxy reads (wgmma operands). In SASS MEMBAR.ALL.CTA +
/// FENCE.VIEW.ASYNC.S; ncu counted no membar stalls in the sync loop (run 5).
__device__ __forceinline__ void fenceProxyAsync() {
#if ARCHSCOPE_W4A16_WGMMA
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
/// Keeps the compiler from moving accumulator reads above the wgmma wait.
template <int R> __device__ __forceinline__ void fenceAccumulators(float (&d)[R]) {
#pragma unroll
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// mbarrier helpers (shared::cta), for the warp-specialized ring.
__device__ __forceinline__ void mbarInit(void* bar, int count) {
#if ARCHSCOPE_W4A16_WGMMA
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(sharedAddress(bar)), "r"(count) : "memory");
#endif
}
__device__ __forceinline__ void mbarInitFence() {
#if ARCHSCOPE_W4A16_WGMMA
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void mbarArrive(void* bar) {
#if ARCHSCOPE_W4A16_WGMMA
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(sharedAddress(bar)) : "memory");
#endif
}
/// Returns once the phase of parity `parity` of the barrier has completed.
__device__ __forceinline__ void mbarWait(void* bar, uint32_t parity) {
#if ARCHSCOPE_W4A16_WGMMA
  asm volatile("{\n"
               ".reg .pred done;\n"
               "WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT;\n"
               "}\n" ::"r"(sharedAddress(bar)),
               "r"(parity)
               : "memory");
#endif
}
template <int REGS> __device__ __forceinline__ void setMaxRegisters() {
#if ARCHSCOPE_W4A16_WGMMA
  if constexpr (REGS < 128) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGS));
  else asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGS));
#endif
}

/// Matrix descriptor of a K-major tile of 128-byte rows, 128-byte swizzle:
/// start address >> 4 (bits 0-13), leading byte offset unused (0), stride
/// byte offset 1024 (8 rows) >> 4 (bits 32-45), base offset 0, swizzle mode
/// 1 = 128B (bits 62-63). The k step s of a 64-wide tile starts 32*s bytes in:
/// add 2*s.
__device__ __forceinline__ uint64_t sw128Descriptor(uint32_t sharedAddr) {
  return (uint64_t(1) << 62) | (uint64_t(1024 >> 4) << 32) | uint64_t((sharedAddr & 0x3FFFF) >> 4);
}

/// Pair P (0..3) of dequantWord: real k (3-P, 7-P) of the word, times scale2.
template <int P> __device__ __forceinline__ uint32_t dequantPair(uint32_t q, uint32_t scale2) {
  constexpr uint32_t kSign = 0x80008000u, kMagnitude = 0x01C001C0u;
  uint32_t v;
  if constexpr (P == 0) v = (q & kSign) | ((q >> 6) & kMagnitude);
  else if constexpr (P == 1) v = ((q << 4) & kSign) | ((q >> 2) & kMagnitude);
  else if constexpr (P == 2) v = ((q << 8) & kSign) | ((q << 2) & kMagnitude);
  else v = ((q << 12) & kSign) | ((q << 6) & kMagnitude);
  return bf16x2Bits(__hmul2(asBf16x2(v), asBf16x2(scale2)));
}

/// out[0] += a, out[1] += b (8-byte aligned), one vector reduction on sm_90.
__device__ __forceinline__ void redAddPair(float* out, float a, float b) {
#if ARCHSCOPE_W4A16_WGMMA
  asm volatile("red.global.add.v2.f32 [%0], {%1, %2};\n" ::"l"(out), "f"(a), "f"(b) : "memory");
#else
  atomicAdd(out, a);
  atomicAdd(out + 1, b);
#endif
}

/// cp.async of 16 bytes that also asks L2 to fetch the surrounding 128 bytes
/// (the next k tiles of the same weight row).
__device__ __forceinline__ void copyAsyncPrefetch(void* smem, const void* gmem, int sourceBytes) {
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(sharedAddress(smem)), "l"(gmem),
               "r"(sourceBytes));
}

/// The ring: STAGES activation tiles of NR rows (1024-byte aligned), then
/// STAGES weight + scale blocks.
template <class C, int NR, int STAGES> struct WgmmaRing {
  uint8_t* base; // 1024-byte aligned
  __device__ uint8_t* x(int stage) const { return base + stage * (NR * 128); }
  __device__ uint8_t* ws(int stage) const { return base + STAGES * (NR * 128) + stage * C::WS_BYTES; }
};

/// Copies of one stage issued by `lanes` threads (index `t`): 128 x 2 weight
/// chunks (with an L2 prefetch of the row's next 128 bytes), 128 scale words,
/// and N x 8 activation chunks (rows past the tile zero-filled).
template <class C, int N, int LANES> struct StageCopies {
  static_assert(256 % LANES == 0 && LANES % 8 == 0, "copy split");
  __device__ static void weights(const WgmmaTables<C::BN, C::BM>& tb, uint8_t* ws, int kt, int t, const void* idle) {
    const int k0 = kt * C::BK;
#pragma unroll
    for (int j = 0; j < 256 / LANES; ++j) {
      const int c = t + LANES * j, row = c >> 1, half = c & 1;
      const uint8_t* src = tb.wsrc[row];
      copyAsyncPrefetch(ws + row * 32 + half * 16, src ? src + k0 / 2 + half * 16 : idle, src ? 16 : 0);
    }
#pragma unroll
    for (int j = 0; j < (C::BM + LANES - 1) / LANES; ++j) {
      const int row = t + LANES * j;
      if (row < C::BM) {
        const uint8_t* src = tb.ssrc[row];
        copyAsync<4>(ws + C::W_BYTES + row * 4, src ? src + k0 / 16 : idle, src ? 4 : 0);
      }
    }
  }
  __device__ static void activations(const WgmmaTables<C::BN, C::BM>& tb, uint8_t* xs, int kt, int t, int rows) {
    constexpr int STEP = LANES / 8; // rows between a thread's copies: 32 (all 256 threads) or 4 (one warp)
    static_assert(STEP % 8 == 0 || STEP == 4, "swizzle keys of a thread's rows");
    const int q = t & 7, r0 = t >> 3;
    const size_t offset = size_t(kt) * C::BK * 2 + q * 16;
    // Row r0 + STEP*i has swizzle key (r0 + STEP*i) % 8: r0 % 8, or for STEP 4 alternately r0 and r0 + 4.
    uint8_t* dst0 = xs + swizzle128Offset(r0, q);
    uint8_t* dst1 = xs + swizzle128Offset(r0 + STEP % 8, q) - (STEP % 8) * 128;
#pragma unroll
    for (int i = 0; i < (N * 8 + LANES - 1) / LANES; ++i) {
      const int n = r0 + STEP * i;
      if ((N * 8) % LANES != 0 && n >= N) break; // the last pass of a width that is no multiple of STEP
      uint8_t* dst = (STEP % 8 == 0 || i % 2 == 0 ? dst0 : dst1) + STEP * 128 * i;
      copyAsync<16>(dst, tb.xsrc[n] + offset, n < rows ? 16 : 0);
    }
  }
};

/// 4 x wgmma m64nNk16 over one k tile: dequantize this lane's rows (rowTop,
/// rowTop + 8) from stage `ws` into fragment slot s and issue step s.
/// `afterStep2` runs once the wgmma of step 2 has been waited for, i.e. once
/// every wgmma of the previous k tile has retired.
template <class C, int N, class AfterStep2>
__device__ __forceinline__ void wgmmaKTile(const uint8_t* ws, const uint8_t* xs, int rowTop, int c,
                                           uint32_t (&a)[4][4], float (&acc)[N / 2], AfterStep2 afterStep2) {
  const uint2 top = *reinterpret_cast<const uint2*>(ws + rowTop * 32 + c * 8);
  const uint2 bottom = *reinterpret_cast<const uint2*>(ws + (rowTop + 8) * 32 + c * 8);
  const uint32_t scaleTop = biasedScale(ws[C::W_BYTES + rowTop * 4 + c]);
  const uint32_t scaleBottom = biasedScale(ws[C::W_BYTES + (rowTop + 8) * 4 + c]);
  const uint64_t desc = sw128Descriptor(sharedAddress(xs));
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    const uint32_t qTop = s < 2 ? top.x : top.y, qBottom = s < 2 ? bottom.x : bottom.y;
    if (s % 2 == 0) {
      a[s][0] = dequantPair<0>(qTop, scaleTop), a[s][1] = dequantPair<0>(qBottom, scaleBottom);
      a[s][2] = dequantPair<1>(qTop, scaleTop), a[s][3] = dequantPair<1>(qBottom, scaleBottom);
    } else {
      a[s][0] = dequantPair<2>(qTop, scaleTop), a[s][1] = dequantPair<2>(qBottom, scaleBottom);
      a[s][2] = dequantPair<3>(qTop, scaleTop), a[s][3] = dequantPair<3>(qBottom, scaleBottom);
    }
    wgmmaFence();
    WgmmaRs<N>::mma(acc, a[s], desc + 2 * s);
    wgmmaCommit();
    wgmmaWait<3>();
    if (s == 2) afterStep2();
  }
}

/// Gate/up: bf16 SwiGLU at the down GEMM's k position; down: weight * y added
/// into `out`. acc[4j + 2v + e] is fragment row g + 8v of slab `slab`, pair 8j + 2c + e.
/// The lane's slab, g and c are read from threadIdx again here: with values
/// kept live across the k loop, ptxas serialized every wgmma of the down GEMM
/// (C7515, "non wgmma instructions defining accumulator registers").
template <class C, int N, bool GATE_UP, int FIRST_WARP>
__device__ __forceinline__ void wgmmaEpilogue(const GemmOperands& op, const GemmTile& tile,
                                              const WgmmaTables<C::BN, C::BM>& tb, float (&acc)[N / 2]) {
  const int slab = int(threadIdx.x >> 5) - FIRST_WARP, g = (threadIdx.x & 31) >> 2, c = threadIdx.x & 3;
  const float scale = op.global[tile.expert] * kUnbias;
  if constexpr (GATE_UP) {
    const int column = blockIdx.x * (C::BM / 2) + 8 * slab + g; // stored position, see wgmmaWeightRow
    MoeBf16* act = op.routing.act + size_t(tile.rowBegin) * op.inter + column;
#pragma unroll
    for (int j = 0; j < N / 8; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int n = 8 * j + 2 * c + e;
        if (n >= tile.rows) continue;
        const float gate = acc[4 * j + e] * scale, up = acc[4 * j + 2 + e] * scale;
        act[size_t(n) * op.inter] = __float2bfloat16_rn(gate / (1.0f + __expf(-gate)) * up);
      }
  } else {
    const int h = blockIdx.x * C::BM + 16 * slab + 2 * g;
    if (h >= op.hidden) return; // a half last M tile (H % 128 == 64)
#pragma unroll
    for (int j = 0; j < N / 8; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int n = 8 * j + 2 * c + e;
        if (n >= tile.rows) continue;
        const float weight = tb.weight[n] * scale;
        redAddPair(op.out + size_t(tb.outRow[n]) * op.hidden + h, acc[4 * j + e] * weight, acc[4 * j + 2 + e] * weight);
      }
  }
}

/// 256 threads that copy and compute: a cp.async ring AHEAD = S - 2 tiles
/// deep, one barrier per k tile.
template <class C, int N, bool GATE_UP>
__device__ __forceinline__ void wgmmaTileSync(uint8_t* base, const WgmmaTables<C::BN, C::BM>& tb, int kTiles,
                                              const GemmOperands& op, const GemmTile& tile) {
  using Copies = StageCopies<C, N, 256>;
  constexpr int FIT = C::RING_BYTES / (N * 128 + C::WS_BYTES); // >= STAGES (N <= BN)
  constexpr int S = FIT < C::MAX_STAGES ? FIT : C::MAX_STAGES, AHEAD = S - 2;
  const WgmmaRing<C, N, S> ring{base};
  const int t = threadIdx.x, warp = t >> 5, lane = t & 31, g = lane >> 2, c = lane & 3;
#pragma unroll
  for (int s = 0; s < AHEAD; ++s)
    if (s < kTiles) Copies::weights(tb, ring.ws(s), s, t, op.packed);
  if constexpr (!GATE_UP) waitPrimaryGrid(); // the activations are the gate/up grid's output
#pragma unroll
  for (int s = 0; s < AHEAD; ++s) {
    if (s < kTiles) Copies::activations(tb, ring.x(s), s, t, tile.rows);
    commitAsync(); // group s completes tile s (group 0 also holds the early weight copies)
  }
  float acc[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) acc[i] = 0.0f;
  uint32_t a[4][4]; // one A fragment per k step: slot s is rewritten once its wgmma has retired
  for (int kt = 0; kt < kTiles; ++kt) {
    waitAsync<AHEAD - 1>(); // this thread's copies of tile kt landed
    fenceProxyAsync();
    __syncthreads(); // tile kt visible to both warpgroups' wgmma; tile kt-2's stage is free
    const int next = kt + AHEAD;
    if (next < kTiles) {
      Copies::weights(tb, ring.ws(next % S), next, t, op.packed);
      Copies::activations(tb, ring.x(next % S), next, t, tile.rows);
    }
    commitAsync();
    const int stage = kt % S;
    wgmmaKTile<C, N>(ring.ws(stage), ring.x(stage), 16 * warp + g, c, a, acc, [] {});
  }
  wgmmaWait<0>();
  fenceAccumulators(acc);
  wgmmaEpilogue<C, N, GATE_UP, 0>(op, tile, tb, acc);
}

/// Warp-specialized: warpgroup 0 copies, warpgroups 1 and 2 compute rows
/// 0-63 and 64-127. Producer warp p fills the stages of k tiles p, p+4, ...:
/// it waits for the stage to be empty, issues the whole stage, waits for its
/// own copies only (so its proxy fence waits for nothing else), fences and
/// arrives on full[stage]; four producer warps keep four stages in flight.
/// Consumers wait on full[stage], compute, and arrive on empty[stage of the
/// previous tile] once its last wgmma has retired. No CTA barrier in the loop.
template <class C, int N, bool GATE_UP>
__device__ __forceinline__ void wgmmaTileWs(uint8_t* base, WgmmaTables<C::BN, C::BM>& tb, int kTiles,
                                            const GemmOperands& op, const GemmTile& tile) {
  // Stages for this N: as many as fit (the ring is sized for BN), at most 8.
  constexpr int FIT = C::RING_BYTES / (N * 128 + C::WS_BYTES);
  constexpr int S = FIT < 8 ? FIT : 8;
  static_assert(S >= 5, "four producer warps need four free stages");
  const WgmmaRing<C, N, S> ring{base};
  unsigned long long* full = tb.barrier;
  unsigned long long* empty = tb.barrier + 8;
  const int t = threadIdx.x, warp = t >> 5, lane = t & 31;
  if (warp < 4) {
    setMaxRegisters<40>();
    using Copies = StageCopies<C, N, 32>;
    bool waited = GATE_UP;
    for (int kt = warp; kt < kTiles; kt += 4) {
      const int s = kt % S;
      if (kt >= S) mbarWait(&empty[s], ((kt / S) & 1) ^ 1);
      Copies::weights(tb, ring.ws(s), kt, lane, op.packed);
      if (!waited) waitPrimaryGrid(), waited = true; // down: the activations are the gate/up grid's output
      Copies::activations(tb, ring.x(s), kt, lane, tile.rows);
      commitAsync();
      waitAsync<0>();
      fenceProxyAsync();
      mbarArrive(&full[s]);
    }
    return;
  }
  setMaxRegisters<232>();
  const int cw = warp - 4, g = lane >> 2, c = lane & 3;
  float acc[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) acc[i] = 0.0f;
  uint32_t a[4][4];
  for (int kt = 0; kt < kTiles; ++kt) {
    const int s = kt % S;
    mbarWait(&full[s], (kt / S) & 1);
    wgmmaKTile<C, N>(ring.ws(s), ring.x(s), 16 * cw + g, c, a, acc, [&] {
      if (kt > 0) mbarArrive(&empty[(kt - 1) % S]);
    });
  }
  wgmmaWait<0>();
  fenceAccumulators(acc);
  if constexpr (!GATE_UP) waitPrimaryGrid();
  wgmmaEpilogue<C, N, GATE_UP, 4>(op, tile, tb, acc);
}

template <class C, bool GATE_UP, int V>
__device__ __forceinline__ void wgmmaDispatch(int variant, uint8_t* base, WgmmaTables<C::BN, C::BM>& tb, int kTiles,
                                              const GemmOperands& op, const GemmTile& tile) {
  if constexpr (V * C::NSTEP <= C::BN) {
    if (variant != V) return wgmmaDispatch<C, GATE_UP, V + 1>(variant, base, tb, kTiles, op, tile);
    if constexpr (C::WS) wgmmaTileWs<C, V * C::NSTEP, GATE_UP>(base, tb, kTiles, op, tile);
    else wgmmaTileSync<C, V * C::NSTEP, GATE_UP>(base, tb, kTiles, op, tile);
  }
}

// Programmatic dependent launch as in gemm.cuh: gate/up waits for routing
// before reading the tile list; down issues its first weight copies before
// waiting for the gate/up output.
template <class C, bool GATE_UP>
__global__ void __launch_bounds__(C::THREADS, C::MIN_BLOCKS) moeGemmWgmma(GemmOperands op) {
#if ARCHSCOPE_W4A16_WGMMA
  if constexpr (GATE_UP) waitPrimaryGrid();
  allowDependentGrid();
  if (int(blockIdx.y) >= *op.routing.tileCount) return;
  extern __shared__ __align__(1024) uint8_t smemRaw[];
  uint8_t* base = smemRaw + ((1024 - (sharedAddress(smemRaw) & 1023)) & 1023);
  auto& tb = *reinterpret_cast<WgmmaTables<C::BN, C::BM>*>(base + C::RING_BYTES);
  const GemmTile tile = op.routing.tiles[blockIdx.y];
  tb.template fill<GATE_UP>(op, tile);
  if constexpr (C::WS) {
    if (threadIdx.x < 8) mbarInit(&tb.barrier[threadIdx.x], 32);       // full: the producing warp's lanes
    else if (threadIdx.x < 16) mbarInit(&tb.barrier[threadIdx.x], 256); // empty: every consumer thread
    mbarInitFence();
  }
  __syncthreads();
  const int variant = (tile.rows + C::NSTEP - 1) / C::NSTEP;
  wgmmaDispatch<C, GATE_UP, 1>(variant, base, tb, op.K / C::BK, op, tile); // K % 64 == 0 (MoeShape::valid)
#endif
}

/// Writes 1 to *built when this binary's code for the running GPU has the
/// wgmma path (sm_90a), else 0.
__global__ void wgmmaBuildProbe(int* built) { *built = ARCHSCOPE_W4A16_WGMMA; }

} // namespace archscope::w4a16
