//===--- gemv_layout.h - w4a16: where the GEMVs' lanes read k --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Plain C++ (host and device), so tests/unit/kernels/W4a16GemvLayoutTest.cpp
// checks the index maps gemv.cuh runs. A warp streams one 16-row block of
// weight_layout.h, whose whole k tile is 16 rows of 128 bytes one after the
// other. Lane L = 8p + q reads 16-byte chunk q (k [32q, 32q + 32) of the
// 256-wide tile) of block rows p, p + 4, p + 8, p + 12: its load j is bytes
// [512j + 16L, +16), so each warp-wide load is 512 contiguous bytes (whole
// lines; the GEMV was 5% faster with loads of that shape in run 14). The MMA
// rows a lane feeds are free to choose, its k are not: every quad's lane c
// gives the same MMA k slots. Here quad g's lanes give chunks 4(g % 2) + c,
// so the MMA's even columns sum the tile's first half of k and its odd
// columns the second: each lane's activations (the B operand) are its own
// chunk q, and quad g keeps column g % 2 (gemvRowOfLane says which rows).
// The activation row sits in shared memory as 16-byte pieces of 8 bf16 (k
// order permuted inside each, mma.cuh), each lane's chunk of a tile in 64
// bytes padded to 80, so that the 8 chunks a warp reads at once hit 8
// disjoint bank ranges.
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/host_device.h"

namespace archscope::w4a16 {

constexpr int kGemvTileK = 256;
constexpr int kGemvChunkBytes = 80; // a lane's 4 pieces (64 bytes) and 16 bytes of padding

/// Chunk (16 bytes of a row, 32 k) lane L reads in every k tile.
ARCHSCOPE_HD constexpr int gemvLaneChunk(int lane) { return lane % 8; }

/// Block row of lane L's load j (0..3).
ARCHSCOPE_HD constexpr int gemvLaneRow(int lane, int j) { return lane / 8 + 4 * j; }

/// First k of word w (0..3) of chunk q in k tile kt.
ARCHSCOPE_HD constexpr int gemvWordK(int kt, int q, int w) { return kt * kGemvTileK + q * 32 + w * 8; }

/// k tiles holding data for chunk q: its 32 k of tile kt exist iff kt*256 + q*32 < K.
ARCHSCOPE_HD constexpr int gemvLaneKTiles(int K, int q) { return K > q * 32 ? (K - q * 32 + 255) / 256 : 0; }

/// Block row whose sums lane L = 4g + c holds once the halves of k are added:
/// load j feeds MMA row g + 8 (j / 2) of set j % 2, and MMA column n sums set
/// (n / 2) % 2 and half n % 2 of k, so the lane's columns 2c, 2c + 1 are set
/// c % 2: rows p + 4 (c % 2) and 8 on.
ARCHSCOPE_HD constexpr int gemvRowOfLane(int lane) { return lane / 8 + 4 * (lane % 2); }

/// The lanes that write the 16 rows' sums (the lane 4 on holds them too).
ARCHSCOPE_HD constexpr bool gemvLaneWrites(int lane) { return lane % 8 < 2; }

/// The k tiles [first, last) of k group `group` of `groups` (warps that share
/// rows and split k): whole tiles, the last groups short or empty.
struct GemvTileRange {
  int first, last;
};
ARCHSCOPE_HD constexpr GemvTileRange gemvGroupTiles(int kTiles, int groups, int group) {
  const int per = (kTiles + groups - 1) / groups;
  return {group * per < kTiles ? group * per : kTiles, (group + 1) * per < kTiles ? (group + 1) * per : kTiles};
}

/// Shared-memory bytes of a staged activation row of K bf16 (whole tiles).
ARCHSCOPE_HD constexpr int gemvSharedBytes(int K) { return (K + kGemvTileK - 1) / kGemvTileK * 8 * kGemvChunkBytes; }

/// The staged row, then as many bytes of zeros: what a lane reads for the
/// MMA set that is not its own (gemv.cuh, gemvActivationBases).
ARCHSCOPE_HD constexpr int gemvRowAndZerosBytes(int K) { return 2 * gemvSharedBytes(K); }

/// Where staging writes piece n (k [8n, 8n + 8)) of the activation row.
ARCHSCOPE_HD constexpr int gemvStagedOffset(int n) { return (n / 4) * kGemvChunkBytes + (n % 4) * 16; }

/// Where a lane of chunk q reads the piece of its word w in k tile kt.
ARCHSCOPE_HD constexpr int gemvActivationOffset(int kt, int q, int w) { return (kt * 8 + q) * kGemvChunkBytes + w * 16; }

} // namespace archscope::w4a16
