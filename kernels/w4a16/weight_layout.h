//===--- weight_layout.h - w4a16: where the repacked weights lie in memory -===//
// SPDX-License-Identifier: Apache-2.0
//
// Plain C++ (host and device), so tests/unit/kernels/W4a16WeightLayoutTest.cpp
// checks the maps that the repack (moe.cuh) and every w4a16 loader use.
// When the weights are loaded, each expert's e2m1 bytes and ue4m3 scales are
// moved into blocks of 16 rows in the GEMMs' row order (gate/up: gate rows
// i..i+7, then up rows I+i..I+i+7, as tile_layout.h's weightRow; down: as
// stored). A block is one contiguous run, k tile after k tile (256 k: 2 KB of
// e2m1 and 256 bytes of scales for its 16 rows), and a tile holds its rows one
// after the other (cw * 32 bytes each, cw being the tile's 64-k groups: 4,
// fewer in a last partial tile). So a GEMV warp (gemv.cuh) streams one run of
// 2 KB a k tile, where the row-major layout had it read 16 rows K/2 bytes
// apart, and a GEMM's k tile of a row is still its 32..128 contiguous bytes.
// H200, run 14, against the row-major layout: 0.5-13% faster at every T of
// both benchmark shapes. Orders inside a tile that gave the GEMV whole sectors per
// load were faster there (Qwen-like T = 1 28.7 us against 30.0-30.5) but split
// a GEMM row's 64-k group: the decode GEMMs 47-64% slower, wgmma 6-20%. So the
// GEMV got such loads from its lane map instead (gemv_layout.h, run 15).
// Scale word (m = g + 8h, group c) is word (g * cw + c) * 2 + h of its tile:
// a GEMV lane's two in one 8-byte load. Blocks never straddle experts (rows %
// 16 == 0), offsets are from the expert's first byte, and the buffers keep
// their size.
// The repack also marks each expert that has a block scale of exponent field
// 0 (a zero or subnormal ue4m3, which the one multiply-add of the normal
// decoders gets wrong): bit 7 of the expert's first scale byte, which ue4m3
// leaves unused and every decoder masks off. The GEMVs read the mark once
// and run the exact decoder only for marked experts (H200, run 18: the test of
// every tile's scales cost 1.4 us of the Qwen-like T = 1 MoE's 29.1).
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/host_device.h"

#include <cstddef>

namespace archscope::w4a16 {

constexpr int kBlockRows = 16;

/// A ue4m3 scale the normal decoders get wrong: exponent field 0 (bit 7 ignored).
ARCHSCOPE_HD constexpr bool scaleNeedsExactDecode(unsigned byte) { return (byte & 0x78u) == 0; }
/// Set in an expert's first scale byte when one of its scales needs the exact decoder.
constexpr unsigned kExactScalesMark = 0x80u;
constexpr int kLayoutTileK = 256, kLayoutTileBytes = 2048, kLayoutScaleTileBytes = 256;

/// GEMM-order row of stored row r (gate/up: 2I rows, gate then up).
ARCHSCOPE_HD constexpr int gemmRowOfStored(int r, int inter, bool gateUp) {
  if (!gateUp) return r;
  return r < inter ? r / 8 * 16 + r % 8 : (r - inter) / 8 * 16 + 8 + r % 8;
}

/// 64-k groups in k tile kt of K (K % 64 == 0).
ARCHSCOPE_HD constexpr int layoutTileGroups(int K, int kt) { return K / 64 - kt * 4 < 4 ? K / 64 - kt * 4 : 4; }

/// Whole 256-wide k tiles of K: the loaders' fast path (all groups present).
ARCHSCOPE_HD constexpr int layoutWholeTiles(int K) { return K / kLayoutTileK; }

ARCHSCOPE_HD constexpr size_t blockWeightOffset(int row, int K) { return size_t(row / kBlockRows) * K * 8; }
ARCHSCOPE_HD constexpr size_t blockScaleOffset(int row, int K) { return size_t(row / kBlockRows) * K; }

/// Byte of chunk (m, c, u) inside a whole tile (rows of 128 bytes).
ARCHSCOPE_HD constexpr int wholeTileChunkOffset(int m, int c, int u) { return (m * 4 + c) * 32 + u * 16; }
/// Byte of scale word (m, c) inside a whole tile.
ARCHSCOPE_HD constexpr int wholeTileScaleOffset(int m, int c) { return ((m % 8 * 4 + c) * 2 + m / 8) * 4; }

/// Byte, from its block's first, of the chunk of block row m with k [32q, 32q + 32).
ARCHSCOPE_HD constexpr size_t blockChunkOffset(int m, int q, int K) {
  const int kt = q / 8, c = q % 8 / 2, u = q % 2, cw = layoutTileGroups(K, kt);
  return size_t(kt) * kLayoutTileBytes + size_t(m * cw + c) * 32 + u * 16;
}
/// Byte, from its block's first, of the scale word of block row m with k [64p, 64p + 64).
ARCHSCOPE_HD constexpr size_t blockScaleWordOffset(int m, int p, int K) {
  const int kt = p / 4, c = p % 4, cw = layoutTileGroups(K, kt);
  return size_t(kt) * kLayoutScaleTileBytes + size_t((m % 8 * cw + c) * 2 + m / 8) * 4;
}

/// Byte, from the expert's first, of GEMM row `row`'s chunk q / scale word p.
ARCHSCOPE_HD constexpr size_t weightChunkOffset(int row, int q, int K) {
  return blockWeightOffset(row, K) + blockChunkOffset(row % kBlockRows, q, K);
}
ARCHSCOPE_HD constexpr size_t scaleWordOffset(int row, int p, int K) {
  return blockScaleOffset(row, K) + blockScaleWordOffset(row % kBlockRows, p, K);
}

/// A GEMM's k tile kTile of width BK (64, 128, 256) inside whole layout
/// tiles: its offset from k tile 0 (the tile, then the 64-k groups before it),
/// for a row's chunks and for its scale words (loader.cuh's fast path).
template <int BK> ARCHSCOPE_HD constexpr size_t wholeTilesWeightStep(int kTile) {
  return size_t(kTile / (kLayoutTileK / BK)) * kLayoutTileBytes + (kTile % (kLayoutTileK / BK)) * (BK / 64) * 32;
}
template <int BK> ARCHSCOPE_HD constexpr size_t wholeTilesScaleStep(int kTile) {
  return size_t(kTile / (kLayoutTileK / BK)) * kLayoutScaleTileBytes + (kTile % (kLayoutTileK / BK)) * (BK / 64) * 8;
}
/// How far the chunks and the scale words of row m in a last partial tile of
/// cw groups lie from where a whole tile has them (the same c, same tile base).
ARCHSCOPE_HD constexpr int wholeTileTailShift(int m, int cw) { return m * (cw - 4) * 32; }
ARCHSCOPE_HD constexpr int wholeTileScaleTailShift(int m, int cw) { return (m % 8) * (cw - 4) * 8; }

/// Chunk j of a run of a row's chunks, from the run's first, in a whole tile.
ARCHSCOPE_HD constexpr int wholeTileChunkStep(int j) { return j * 16; }

} // namespace archscope::w4a16
