//===--- gemm_wgmma.cuh - w4a16: grouped NVFP4 x bf16 GEMM on wgmma (sm_90a) -===//
// SPDX-License-Identifier: Apache-2.0
//
// The Hopper path of the family, for tiles of many pairs. One CTA, two
// warpgroups, computes 128 weight rows (64 per warpgroup: wgmma's M) by up to
// BN routed pairs of one expert (wgmma's N: the tile's pair count rounded up
// to NSTEP, one compiled k loop per N, picked per tile). Per k tile of 64:
//  - weights (32 bytes a row), block scales (4 bytes a row, rows g and g+8 of
//    a slab adjacent: wgmmaScaleOffset) and the activation rows (128 bytes
//    each, 128-byte swizzle) go through a cp.async ring. Each thread's copies
//    are fixed for the tile (wgmmaTileSync): its weight and scale source
//    pointers stay in registers, its activation rows' 32-bit offsets are read
//    from WgmmaTables 16 bytes at a time, and a stage's copies are issued back
//    to back (ptxas pads a run of LDGSTS, not each one, with three
//    predicated-off loads). Activation rows past the tile copy a valid row
//    (they only feed accumulator columns the epilogue skips), so the copies
//    need no predicates;
//  - each lane reads its two rows' scales with one 8-byte load and turns them
//    into bf16 with one multiply-add (scalePair; subnormal scales take the
//    exact path), dequantizes its rows' 16-element scale block (mma.cuh's
//    step from repacked e2m1 to bf16, block scale folded, 2^8 undone in the
//    epilogue)
//    straight into the wgmma A fragment and issues 4 x wgmma m64nNk16, A from
//    registers, B (activations) from shared memory through a matrix
//    descriptor. The A registers hold a permutation of k (wgmma_layout.h); the
//    activations are stored in global memory in the same order.
// 173 issued instructions per k tile at N = 136 (SASS; run 5's loop: 229 at
// N = 144), of which 76 dequantized (60 since the words are repacked at load
// time, nibble_layout.h) and 12 are the wgmma and its fences.
// Two ways to run the ring:
//  - wgmmaTileSync (the configurations moe.cuh picks): all 256 threads copy
//    AHEAD = S - 2 tiles ahead and meet at one barrier per k tile; S is the
//    configuration's STAGES, or for tiles narrower than BN as many as the
//    ring's bytes hold (at most MAX_STAGES);
//  - wgmmaTileWs (`wgmma-ws`, measured slower): a third warpgroup copies,
//    mbarriers full/empty per stage, no CTA barrier in the loop.
// Async bookkeeping: every wgmma is its own commit group and is followed by
// wgmma.wait_group FRAGS-1 (FRAGS = 4 A fragment slots, one per k step, or 2
// for the two-CTA 160-pair tile, whose 80 accumulators fill the 128-register
// cap), so the wgmma that last read a fragment slot has retired before the
// slot is rewritten, and at the top of k tile kt every wgmma of tile kt-2 has
// retired: stage (kt-2) % S is free.
// cp.async writes through the generic proxy, so the writing thread fences
// (fence.proxy.async) after its copies complete and before the barrier (or
// mbarrier arrive) that precedes the wgmma reads.
// Epilogues: gate/up writes bf16 SwiGLU(gate, up) at its down-GEMM k position
// (wgmmaWeightRow picks the rows so that is 8 consecutive positions per
// warp); down adds weight * y into `out` with red.global.add.v2.f32 (each
// lane's two fragment rows are adjacent outputs).
// Check after a change: ptxas must print no C7515 ("wgmma.mma_async
// instructions are serialized"; it is an info line, -Xptxas -v not needed)
// and the SASS must show WARPGROUP.DEPBAR.LE gsb0, 0x3 (0x1 where FRAGS = 2)
// inside the k loops.
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

#include "weight_layout.h"
#include "wgmma_layout.h"
#include "wgmma_ops.cuh"

namespace archscope::w4a16 {

/// <BN max pairs per tile, ring stages, CTAs per SM (register cap), N step,
/// warp-specialized, max stages, A fragment slots>. WS: 384 threads,
/// warpgroup 0 copies, warpgroups 1-2 compute (see wgmmaTileWs); otherwise
/// 256 threads that do both. MAX_STAGES > STAGES: tiles narrower than BN use
/// the ring's room for more stages (at most MAX_STAGES). FRAGS: A fragments
/// in registers (4: one per k step, wgmma.wait_group 3; 2: wait_group 1, 8
/// registers fewer, for the two-CTA tiles whose accumulators fill the cap).
template <int BN_, int STAGES_, int MIN_BLOCKS_, int NSTEP_, bool WS_ = false, int MAX_STAGES_ = STAGES_,
          int FRAGS_ = 4>
struct WgmmaConfig {
  static constexpr int BM = 128, BN = BN_, BK = 64, STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_, NSTEP = NSTEP_;
  static constexpr int MAX_STAGES = MAX_STAGES_, FRAGS = FRAGS_;
  static constexpr bool WS = WS_;
  static constexpr int THREADS = WS ? 384 : 256;
  static constexpr int X_BYTES = BN * 128, W_BYTES = BM * 32, S_BYTES = BM * 4, WS_BYTES = W_BYTES + S_BYTES;
  // Activation tiles first (each 1024-byte aligned, for the swizzle), then weights + scales per stage.
  static constexpr int RING_BYTES = STAGES * (X_BYTES + WS_BYTES);
  static constexpr int XS = (BN / 32 + 3) / 4 * 4; // activation row offsets per copying thread row (wgmmaCopySlot)
  static constexpr int TABLE_BYTES = 4 * 32 * XS + 4 * BM + 8 * BN + 8 * 16; // WgmmaTables
  static constexpr int SMEM_BYTES = 1024 + RING_BYTES + TABLE_BYTES;
  static_assert(BN % 32 == 0 && BN <= 256 && BN % NSTEP == 0 && NSTEP % 8 == 0, "tile width");
  static_assert(STAGES >= 3 && MAX_STAGES >= STAGES && MAX_STAGES <= 16, "ring depth");
  static_assert(FRAGS == 2 || FRAGS == 4, "fragment slots");
};

constexpr uint32_t kNoRow = 0xFFFFFFFFu; // a tile row past the expert (half last down M tile)

/// Per-tile facts in shared memory: where each copy reads, as 32-bit byte
/// offsets (the launcher checks they fit), and for the down GEMM which token
/// each pair adds into with which weight.
template <class C> struct WgmmaTables {
  uint32_t xoff[32 * C::XS]; // slot wgmmaCopySlot(n): activation row n at k = 0, from op.x; past the tile: row 0's
  uint32_t woff[C::BM];      // tile row l's GEMM row in the expert (weight_layout.h); kNoRow past it
  int outRow[C::BN];
  float weight[C::BN];
  unsigned long long barrier[16]; // WS: full[8], empty[8]

  template <bool GATE_UP> __device__ void fill(const GemmOperands& op, const GemmTile& tile) {
    for (int slot = threadIdx.x; slot < 32 * C::XS; slot += blockDim.x) {
      const int n = wgmmaCopyRow(slot, C::XS), r = n < tile.rows ? n : 0; // rows past the tile: any valid row
      const int xRow = GATE_UP ? op.routing.sortedPair[tile.rowBegin + r] / op.topk : tile.rowBegin + r;
      xoff[slot] = uint32_t(xRow) * uint32_t(op.K * 2);
    }
    for (int n = threadIdx.x; n < C::BN; n += blockDim.x) {
      const bool valid = n < tile.rows;
      const int pair = valid ? op.routing.sortedPair[tile.rowBegin + n] : 0;
      outRow[n] = pair / op.topk;
      weight[n] = valid ? op.topkWeights[pair] : 0.0f;
    }
    for (int l = threadIdx.x; l < C::BM; l += blockDim.x) {
      const int row = wgmmaWeightRow<GATE_UP>(blockIdx.x * C::BM, l, op.inter);
      woff[l] = row < op.rowsPerExpert ? uint32_t(gemmRowOfStored(row, op.inter, GATE_UP)) : kNoRow;
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

/// Pair P (0..3) of dequantWord: real k (3-P, 7-P) of the word, times the
/// scale (both halves of `scale`).
template <int P> __device__ __forceinline__ uint32_t dequantPair(uint32_t q, __nv_bfloat162 scale) {
  return bf16x2Bits(__hmul2(asBf16x2(unpackPair<P>(q)), scale));
}

/// The block scales of a lane's two rows as bf16 scale * 2^118: byte c of
/// words.x (row g) in the low half, byte c of words.y (row g+8) in the high
/// half; sel = 0x4400 + 0x1111 c. Normal ue4m3 bytes take
/// wgmmaNormalScalePair (one multiply-add for both); a subnormal one (never
/// produced by the quantizer for these weights, but valid) the exact path.
__device__ __forceinline__ uint32_t scalePair(uint2 words, uint32_t sel) {
  const uint32_t b = __byte_perm(words.x, words.y, sel) & 0x007F007Fu;
  if ((b & 0x78u) == 0 || (b & 0x780000u) == 0)
    return (biasedScale(b & 0xFFu) & 0xFFFFu) | (biasedScale(b >> 16) & 0xFFFF0000u);
  return wgmmaNormalScalePair(b);
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
/// cp.async of 16 bytes, all read (no zero fill).
__device__ __forceinline__ void copyAsync16(void* smem, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sharedAddress(smem)), "l"(gmem));
}

/// cp.async of 4 bytes (the first sourceBytes read, the rest zeros) if `p`.
__device__ __forceinline__ void copyAsync4If(bool p, void* smem, const void* gmem, int sourceBytes) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %3, 0;\n@p cp.async.ca.shared.global [%0], [%1], 4, %2;\n}\n" ::"r"(
                   sharedAddress(smem)),
               "l"(gmem), "r"(sourceBytes), "r"(int(p)));
}
/// a * b + c as one 64-bit multiply-add (a, b unsigned 32-bit).
__device__ __forceinline__ const uint8_t* madWide(uint32_t a, uint32_t b, const uint8_t* c) {
  uint64_t r;
  asm("mad.wide.u32 %0, %1, %2, %3;\n" : "=l"(r) : "r"(a), "r"(b), "l"(reinterpret_cast<uint64_t>(c)));
  return reinterpret_cast<const uint8_t*>(r);
}

/// The ring: STAGES activation tiles of NR rows (1024-byte aligned), then
/// STAGES weight + scale blocks.
template <class C, int NR, int STAGES> struct WgmmaRing {
  uint8_t* base; // 1024-byte aligned
  __device__ uint8_t* x(int stage) const { return base + stage * (NR * 128); }
  __device__ uint8_t* ws(int stage) const { return base + STAGES * (NR * 128) + stage * C::WS_BYTES; }
};

/// Copies of one stage by one producer warp (wgmmaTileWs): 128 x 2 weight
/// chunks (with an L2 prefetch of the row's next 128 bytes), 128 scale words,
/// N x 8 activation chunks (rows past the tile read a valid row: they only
/// feed accumulator columns the epilogue skips).
template <class C, int N> struct WarpStageCopies {
  __device__ static void weights(const WgmmaTables<C>& tb, uint8_t* ws, int kt, int lane, const uint8_t* wBase,
                                 const uint8_t* sBase, int K) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int chunk = lane + 32 * j, row = chunk >> 1, half = chunk & 1;
      const uint32_t wo = tb.woff[row];
      copyAsyncPrefetch(ws + row * 32 + half * 16, wBase + (wo != kNoRow ? weightChunkOffset(wo, 2 * kt + half, K) : 0),
                        wo != kNoRow ? 16 : 0);
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int row = lane + 32 * j;
      const uint32_t wo = tb.woff[row];
      copyAsync<4>(ws + C::W_BYTES + wgmmaScaleOffset(row), sBase + (wo != kNoRow ? scaleWordOffset(wo, kt, K) : 0),
                   wo != kNoRow ? 4 : 0);
    }
  }
  __device__ static void activations(const WgmmaTables<C>& tb, uint8_t* xs, int kt, int lane, const uint8_t* xBase) {
    const int q = lane & 7, r0 = lane >> 3;
#pragma unroll 4
    for (int i = 0; i < N / 4; ++i) {
      const int n = r0 + 4 * i;
      copyAsync16(xs + swizzle128Offset(n, q), xBase + tb.xoff[wgmmaCopySlot(n, C::XS)] + size_t(kt) * 128 + q * 16);
    }
  }
};

/// 4 x wgmma m64nNk16 over one k tile: dequantize this lane's rows (rowTop,
/// rowTop + 8) from stage `ws` into fragment slot s % FRAGS and issue step s,
/// then wgmma.wait_group FRAGS-1 (the slot written next has retired).
/// `afterRetire` runs once every wgmma of the previous k tile has retired.
template <class C, int N, class AfterRetire>
__device__ __forceinline__ void wgmmaKTile(const uint8_t* ws, const uint8_t* xs, int rowTop, int c, uint32_t sel,
                                           uint32_t (&a)[C::FRAGS][4], float (&acc)[N / 2], AfterRetire afterRetire) {
  const uint2 top = *reinterpret_cast<const uint2*>(ws + rowTop * 32 + c * 8);
  const uint2 bottom = *reinterpret_cast<const uint2*>(ws + (rowTop + 8) * 32 + c * 8);
  const uint32_t scales = scalePair(*reinterpret_cast<const uint2*>(ws + C::W_BYTES + wgmmaScaleOffset(rowTop)), sel);
  const __nv_bfloat162 scaleTop = __low2bfloat162(asBf16x2(scales)), scaleBottom = __high2bfloat162(asBf16x2(scales));
  const uint64_t desc = sw128Descriptor(sharedAddress(xs));
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    uint32_t(&f)[4] = a[s % C::FRAGS];
    const uint32_t qTop = s < 2 ? top.x : top.y, qBottom = s < 2 ? bottom.x : bottom.y;
    if (s % 2 == 0) {
      f[0] = dequantPair<0>(qTop, scaleTop), f[1] = dequantPair<0>(qBottom, scaleBottom);
      f[2] = dequantPair<1>(qTop, scaleTop), f[3] = dequantPair<1>(qBottom, scaleBottom);
    } else {
      f[0] = dequantPair<2>(qTop, scaleTop), f[1] = dequantPair<2>(qBottom, scaleBottom);
      f[2] = dequantPair<3>(qTop, scaleTop), f[3] = dequantPair<3>(qBottom, scaleBottom);
    }
    wgmmaFence();
    WgmmaRs<N>::mma(acc, f, desc + 2 * s);
    wgmmaCommit();
    wgmmaWait<C::FRAGS - 1>();
    if (s == C::FRAGS - 2) afterRetire();
  }
}

/// Gate/up: bf16 SwiGLU at the down GEMM's k position; down: weight * y added
/// into `out`. acc[4j + 2v + e] is fragment row g + 8v of slab `slab`, pair 8j + 2c + e.
/// The lane's slab, g and c are read from threadIdx again here: with values
/// kept live across the k loop, ptxas serialized every wgmma of the down GEMM
/// (C7515, "non wgmma instructions defining accumulator registers").
template <class C, int N, bool GATE_UP, int FIRST_WARP>
__device__ __forceinline__ void wgmmaEpilogue(const GemmOperands& op, const GemmTile& tile,
                                              const WgmmaTables<C>& tb, float (&acc)[N / 2]) {
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
/// deep, one barrier per k tile. Each thread's copies are fixed for the tile:
/// weight chunk t % 2 of tile row t / 2 and, for t < 128, the scale word of
/// row t (source pointers in registers, advanced by k through the blocked
/// layout's whole tiles, weight_layout.h), and chunk t % 8 of
/// activation rows t / 8 + 32 i (offsets read from the table, 16 bytes at a
/// time). Rows past the tile copy a valid row: they only feed accumulator
/// columns the epilogue skips.
template <class C, int N, bool GATE_UP>
__device__ __forceinline__ void wgmmaTileSync(uint8_t* base, const WgmmaTables<C>& tb, int kTiles,
                                              const GemmOperands& op, const GemmTile& tile) {
  constexpr int XN = (N + 31) / 32; // activation chunks per thread
  // Activation tiles of XN * 32 rows: rows N.. of the last group are zero-filled
  // (no global read), so every thread issues XN copies without a branch.
  constexpr int FIT = C::RING_BYTES / (XN * 32 * 128 + C::WS_BYTES); // >= STAGES (XN * 32 <= BN)
  constexpr int S = FIT < C::MAX_STAGES ? FIT : C::MAX_STAGES, AHEAD = S - 2;
  static_assert(C::BM == 128 && C::THREADS == 256, "one weight chunk per thread");
  const WgmmaRing<C, XN * 32, S> ring{base};
  const int t = threadIdx.x, warp = t >> 5, lane = t & 31, g = lane >> 2, c = lane & 3;
  const size_t expertRow0 = size_t(tile.expert) * op.rowsPerExpert;
  const uint32_t wo = tb.woff[t >> 1], so = tb.woff[t & (C::BM - 1)];
  const int wBytes = wo != kNoRow ? 16 : 0, sBytes = so != kNoRow ? 4 : 0; // rows past the expert: zeros
  const int wRow = wBytes ? int(wo) : 0, sRow = sBytes ? int(so) : 0;
  const uint8_t* wSrc = op.packed + expertRow0 * (op.K / 2) + blockWeightOffset(wRow, op.K) +
                        wholeTileChunkOffset(wRow % kBlockRows, 0, t & 1);
  const uint8_t* sSrc = op.scales + expertRow0 * (op.K / 16) + blockScaleOffset(sRow, op.K) +
                        wholeTileScaleOffset(sRow % kBlockRows, 0);
  const int tailGroups = layoutTileGroups(op.K, layoutWholeTiles(op.K));
  const int tailW = wholeTileTailShift(wRow % kBlockRows, tailGroups);
  const int tailS = wholeTileScaleTailShift(sRow % kBlockRows, tailGroups);
  const int wDst = (t >> 1) * 32 + (t & 1) * 16, sDst = C::W_BYTES + wgmmaScaleOffset(t & (C::BM - 1));
  const int q = t & 7, r0 = t >> 3;
  const uint8_t* xSrc = reinterpret_cast<const uint8_t*>(op.x) + q * 16;
  const int xDst = swizzle128Offset(r0, q);
  const uint4* xTable = reinterpret_cast<const uint4*>(tb.xoff + r0 * C::XS);
  const int lastBytes = r0 + 32 * (XN - 1) < N ? 16 : 0;

  // Addresses as one mad.wide each; the copies of a stage issued back to back
  // (ptxas pads a run of LDGSTS with three predicated-off loads, not each one).
  auto copyWeights = [&](uint32_t kt, int stage) {
    uint8_t* ws = ring.ws(stage);
    // In the layout's partial last tile (K % 256 != 0) the chunks sit closer: the fast address moves by tailW / tailS.
    const bool tail = kt >= uint32_t(layoutWholeTiles(op.K)) * 4;
    const uint8_t* w = madWide(kt >> 2, kLayoutTileBytes, wSrc) + (kt & 3) * 32 + (tail ? tailW : 0);
    const uint8_t* sc = madWide(kt >> 2, kLayoutScaleTileBytes, sSrc) + (kt & 3) * 8 + (tail ? tailS : 0);
    copyAsyncPrefetch(ws + wDst, w, wBytes);
    copyAsync4If(t < C::BM, ws + sDst, sc, sBytes);
  };
  auto activationSources = [&](uint32_t kt, const uint8_t* (&src)[XN]) {
    uint32_t off[(XN + 3) / 4 * 4];
#pragma unroll
    for (int j = 0; j < (XN + 3) / 4; ++j) {
      const uint4 v = xTable[j];
      off[4 * j] = v.x, off[4 * j + 1] = v.y, off[4 * j + 2] = v.z, off[4 * j + 3] = v.w;
    }
    const uint8_t* xk = madWide(kt, 128, xSrc);
#pragma unroll
    for (int i = 0; i < XN; ++i) src[i] = madWide(off[i], 1, xk);
  };
  auto copyActivations = [&](const uint8_t* const (&src)[XN], int stage) {
    uint8_t* xs = ring.x(stage) + xDst;
#pragma unroll
    for (int i = 0; i < XN; ++i) {
      if (N % 32 == 0 || i < XN - 1) copyAsync16(xs + 4096 * i, src[i]);
      else copyAsync<16>(xs + 4096 * i, src[i], lastBytes); // the last, partial row group
    }
  };

#pragma unroll
  for (int s = 0; s < AHEAD; ++s)
    if (s < kTiles) copyWeights(s, s);
  if constexpr (!GATE_UP) waitPrimaryGrid(); // the activations are the gate/up grid's output
#pragma unroll
  for (int s = 0; s < AHEAD; ++s) {
    if (s < kTiles) {
      const uint8_t* src[XN];
      activationSources(s, src);
      copyActivations(src, s);
    }
    commitAsync(); // group s completes tile s (group 0 also holds the early weight copies)
  }
  float acc[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) acc[i] = 0.0f;
  uint32_t a[C::FRAGS][4]; // slot s % FRAGS is rewritten once the wgmma reading it has retired
  const uint32_t sel = 0x4400u + 0x1111u * c;
  int readStage = 0, writeStage = AHEAD;
  for (int kt = 0; kt < kTiles; ++kt) {
    waitAsync<AHEAD - 1>(); // this thread's copies of tile kt landed
    fenceProxyAsync();
    __syncthreads(); // tile kt visible to both warpgroups' wgmma; tile kt-2's stage is free
    if (kt + AHEAD < kTiles) {
      const uint8_t* src[XN];
      activationSources(kt + AHEAD, src);
      copyWeights(kt + AHEAD, writeStage);
      copyActivations(src, writeStage);
    }
    commitAsync();
    wgmmaKTile<C, N>(ring.ws(readStage), ring.x(readStage), 16 * warp + g, c, sel, a, acc, [] {});
    readStage = readStage + 1 == S ? 0 : readStage + 1;
    writeStage = writeStage + 1 == S ? 0 : writeStage + 1;
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
__device__ __forceinline__ void wgmmaTileWs(uint8_t* base, WgmmaTables<C>& tb, int kTiles,
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
    using Copies = WarpStageCopies<C, N>;
    const size_t expertRow0 = size_t(tile.expert) * op.rowsPerExpert;
    const uint8_t* wBase = op.packed + expertRow0 * (op.K / 2);
    const uint8_t* sBase = op.scales + expertRow0 * (op.K / 16);
    const uint8_t* xBase = reinterpret_cast<const uint8_t*>(op.x);
    bool waited = GATE_UP;
    for (int kt = warp; kt < kTiles; kt += 4) {
      const int s = kt % S;
      if (kt >= S) mbarWait(&empty[s], ((kt / S) & 1) ^ 1);
      Copies::weights(tb, ring.ws(s), kt, lane, wBase, sBase, op.K);
      if (!waited) waitPrimaryGrid(), waited = true; // down: the activations are the gate/up grid's output
      Copies::activations(tb, ring.x(s), kt, lane, xBase);
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
  uint32_t a[C::FRAGS][4];
  const uint32_t sel = 0x4400u + 0x1111u * c;
  for (int kt = 0; kt < kTiles; ++kt) {
    const int s = kt % S;
    mbarWait(&full[s], (kt / S) & 1);
    wgmmaKTile<C, N>(ring.ws(s), ring.x(s), 16 * cw + g, c, sel, a, acc, [&] {
      if (kt > 0) mbarArrive(&empty[(kt - 1) % S]);
    });
  }
  wgmmaWait<0>();
  fenceAccumulators(acc);
  if constexpr (!GATE_UP) waitPrimaryGrid();
  wgmmaEpilogue<C, N, GATE_UP, 4>(op, tile, tb, acc);
}

template <class C, bool GATE_UP, int V>
__device__ __forceinline__ void wgmmaDispatch(int variant, uint8_t* base, WgmmaTables<C>& tb, int kTiles,
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
  static_assert(sizeof(WgmmaTables<C>) <= C::TABLE_BYTES, "table bytes");
  auto& tb = *reinterpret_cast<WgmmaTables<C>*>(base + C::RING_BYTES);
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
