//===--- wgmma_layout.h - w4a16: the k order and row maps of the wgmma path --===//
// SPDX-License-Identifier: Apache-2.0
//
// Plain C++ (host and device), so tests/unit/kernels/W4a16WgmmaLayoutTest.cpp
// checks the same functions the sm_90a kernels use (gemm_wgmma.cuh).
//
// One BK = 64 k tile feeds four wgmma m64nNk16 steps (s = 0..3). The A
// operand comes from registers in the m16n8k16 A fragment (per warp of the
// warpgroup): lane (g = lane/4, c = lane%4) holds rows g and g+8 at logical
// k 2c, 2c+1 (registers 0, 1) and 2c+8, 2c+9 (registers 2, 3) of the step.
// Lane c dequantizes real k [16c, 16c+16) of the tile, one scale block: two
// words of 8 nibbles (w = 0, 1: real k 16c+8w .. 16c+8w+7), each into four
// bf16x2 pairs p = 0..3 holding real k (3-p, 7-p) of the word (mma.cuh,
// dequantWord). Step s = 2w + h takes pairs 2h (registers 0, 1) and 2h+1
// (registers 2, 3) of word w. So logical k L = 16s + j of the tile (what
// wgmma pairs with B's row L) is real k
//   wgmmaRealK(L) = 16c + 8w + (e ? 7 - p : 3 - p),
//   s = L/16, w = s/2, h = s%2, j = L%16, p = 2h + j/8, c = (j%8)/2, e = j%2.
// B (activations, K-major rows of 128 bytes in shared memory) must hold real
// k wgmmaRealK(L) at column L: activations are stored in global memory in
// that order per group of 64 (x by prepareRouting, the SwiGLU output by the
// gate/up epilogue), and copied into shared memory as they are.
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/host_device.h"

#include <cstdint>

namespace archscope::w4a16 {

/// Real k (0..63) at logical position L (0..63) of a k tile of the wgmma path.
ARCHSCOPE_HD constexpr int wgmmaRealK(int L) {
  const int s = L >> 4, j = L & 15, w = s >> 1, h = s & 1;
  const int p = 2 * h + (j >> 3), c = (j & 7) >> 1, e = j & 1;
  return 16 * c + 8 * w + (e ? 7 - p : 3 - p);
}

/// Inverse of wgmmaRealK: where real k (0..63) is stored.
ARCHSCOPE_HD constexpr int wgmmaPosition(int k) {
  const int c = k >> 4, w = (k >> 3) & 1, r = k & 7, e = r >> 2;
  const int p = e ? 7 - r : 3 - r, h = p >> 1, half = p & 1;
  return 16 * (2 * w + h) + 8 * half + 2 * c + e;
}

/// Weight row (within the expert) of tile row l (0..127) of a 128-row tile
/// starting at tileRow0. Tile row l is wgmma row l%64 of warpgroup l/64:
/// slab m = l/16 (warp m%4 of warpgroup m/4), fragment row l%16.
/// Gate/up: rows l%16 < 8 are gate rows, >= 8 the up rows of the same
/// intermediate index, which is chosen so that the lanes g = 0..7 of slab m
/// produce the SwiGLU outputs stored at positions 8m + g of the tile's group
/// of 64 (the down GEMM's k order): index tileRow0/2 + wgmmaRealK(8m + g).
/// Down: fragment rows g and g+8 are output rows 2g and 2g+1 of the slab, so
/// each lane adds two adjacent floats (one red.global.add.v2.f32).
template <bool GATE_UP> ARCHSCOPE_HD constexpr int wgmmaWeightRow(int tileRow0, int l, int inter) {
  if (GATE_UP) return tileRow0 / 2 + wgmmaRealK(8 * (l >> 4) + (l & 7)) + ((l & 8) ? inter : 0);
  return tileRow0 + (l & ~15) + 2 * (l & 7) + ((l >> 3) & 1);
}

/// Pairs per tile of the wgmma path's balanced cut (routing.cuh): an expert
/// with c > 0 pairs gets the fewest tiles of at most `tileTokens` pairs, of
/// equal size rounded up to `tileRound` (the last one takes what remains).
ARCHSCOPE_HD constexpr int balancedTileSize(int c, int tileTokens, int tileRound) {
  const int parts = (c + tileTokens - 1) / tileTokens;
  const int even = ((c + parts - 1) / parts + tileRound - 1) / tileRound * tileRound;
  return even < tileTokens ? even : tileTokens;
}

/// Byte offset of tile row l's four block-scale bytes (one per 16-k block of
/// the k tile) in a stage's scale block: rows l and l+8 of a 16-row slab are
/// adjacent words, so lane (g, c) of warp m reads both of its rows' scales
/// with one 8-byte load at 64m + 8g and takes byte c of each word.
ARCHSCOPE_HD constexpr int wgmmaScaleOffset(int l) { return 64 * (l >> 4) + 8 * (l & 7) + 4 * ((l >> 3) & 1); }

/// bf16 bits of a normal ue4m3 block scale (exponent field >= 1, bit 7
/// clear) times 2^118, for two bytes at once (b = byte0 | byte1 << 16): the
/// bf16 exponent is the ue4m3 exponent + 238 and the 3 mantissa bits stay, so
/// each half is byte * 16 + (238 << 7). Subnormal scales (exponent field 0)
/// take the exact float path in the kernel (gemm_wgmma.cuh, scalePair).
ARCHSCOPE_HD constexpr uint32_t wgmmaNormalScalePair(uint32_t b) { return b * 16u + 0x77007700u; }

/// The activation copies of the 256-thread ring: thread t copies chunk t % 8 of
/// rows t / 8 + 32 i. Their row offsets are stored per thread row, `stride`
/// (a multiple of 4) apart, so a thread loads them with 16-byte loads: slot
/// r * stride + i holds row r + 32 i (slots past the tile hold a valid row).
ARCHSCOPE_HD constexpr int wgmmaCopyRow(int slot, int stride) { return slot / stride + 32 * (slot % stride); }
ARCHSCOPE_HD constexpr int wgmmaCopySlot(int row, int stride) { return (row & 31) * stride + (row >> 5); }

/// Byte offset of 16-byte chunk q (0..7) of row n in a K-major tile of
/// 128-byte rows under the 128-byte swizzle (the tile 1024-byte aligned):
/// chunk q of row n lands at chunk q ^ (n % 8).
ARCHSCOPE_HD constexpr int swizzle128Offset(int n, int q) { return n * 128 + ((q ^ (n & 7)) << 4); }

} // namespace archscope::w4a16
