//===--- gemv_layout.h - w4a16: where the GEMVs' lanes read k --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Plain C++ (host and device), so tests/unit/kernels/W4a16GemvLayoutTest.cpp
// checks the index maps gemv.cuh runs. Lane c of a quad owns k [c*64, c*64+64)
// of each 256-wide k tile: 8 words of 8 e2m1 per weight row (32 bytes), their
// 4 ue4m3 scales (one 4-byte word), and the same k of the activation row,
// which sits in shared memory as 16-byte chunks of 8 bf16 (k order permuted
// inside each chunk, mma.cuh) with each lane's 8 chunks padded to 144 bytes.
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/host_device.h"

namespace archscope::w4a16 {

constexpr int kGemvTileK = 256;
constexpr int kGemvGroupBytes = 144; // a lane's 8 chunks (128 bytes) and 16 bytes of padding

/// First k of word w (0..7) of lane c in k tile kt.
ARCHSCOPE_HD constexpr int gemvWordK(int kt, int c, int w) { return kt * kGemvTileK + c * 64 + w * 8; }

/// k tiles holding data for lane c: its 64 k of tile kt exist iff kt*256 + c*64 < K (K % 64 == 0).
ARCHSCOPE_HD constexpr int gemvLaneKTiles(int K, int c) { return K > c * 64 ? (K - c * 64 + 255) / 256 : 0; }

/// Byte of a weight row's scales where lane c's four scales of tile kt start.
ARCHSCOPE_HD constexpr int gemvScaleByte(int kt, int c) { return kt * 16 + c * 4; }

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
ARCHSCOPE_HD constexpr int gemvSharedBytes(int K) { return (K + kGemvTileK - 1) / kGemvTileK * 4 * kGemvGroupBytes; }

/// Where staging writes chunk q (k [8q, 8q + 8)) of the activation row.
ARCHSCOPE_HD constexpr int gemvStagedOffset(int q) { return (q / 8) * kGemvGroupBytes + (q % 8) * 16; }

/// Where lane c reads the chunk of its word w in k tile kt.
ARCHSCOPE_HD constexpr int gemvActivationOffset(int kt, int c, int w) { return (kt * 4 + c) * kGemvGroupBytes + w * 16; }

} // namespace archscope::w4a16
