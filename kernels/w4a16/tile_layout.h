//===--- tile_layout.h - w4a16: the mma.sync tiles' shared-memory layout ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Plain C++ (host and device), so tests/unit/kernels/W4a16TileLayoutTest.cpp
// checks the same functions the mma.sync GEMMs use (loader.cuh, gemm.cuh).
// A stage holds BM weight rows of BK/2 bytes, then their block scales, then
// the tile's activation rows of BK*2 bytes (bf16), each in 16-byte chunks.
// Lane c of a quad in k group kg owns the k "slot" kg*4 + c: WORDS words of
// 8 e2m1 per weight row (WORDS / 4 chunks; an 8-byte half chunk at BK = 64)
// and the same k range of each activation row (WORDS chunks of 8 bf16).
// One LDS.128 phase is 8 lanes: rows g and g+1 (g even) x the 4 lanes of a
// quad, reading the same part / word; the swizzles below put those 8 reads on
// 8 distinct 16-byte bank groups (a 128-byte line has 8).
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/host_device.h"

namespace archscope::w4a16 {

/// Where activation chunk q of row n lands (BK >= 128: XOR the quad lane of
/// the chunk's slot into the low bits, the row's parity into bit 2).
template <int BK, int WORDS> ARCHSCOPE_HD constexpr int activationChunkSwizzle(int n, int q) {
  if constexpr (BK == 64) return q ^ (n & 1);
  else return q ^ ((q / WORDS) & 3) ^ ((n & 1) << 2);
}

/// Where weight chunk `chunk` of tile row `row` lands: with 128-byte rows
/// (BK = 256) rows g and g+1 would share banks; on odd rows flip the chunk's
/// low bit when a lane reads two chunks (WORDS = 8), bit 2 when it reads one.
template <int BK, int WORDS> ARCHSCOPE_HD constexpr int weightChunkSwizzle(int row, int chunk) {
  if constexpr (BK != 256) return chunk;
  else return chunk ^ ((row & 1) << (WORDS == 8 ? 0 : 2));
}

/// Weight row of the expert for tile row `l`. GATE_UP: each 16 tile rows are
/// gate rows i..i+7 (MMA rows 0-7) then up rows I+i..I+i+7 (rows 8-15), so a
/// lane holds both halves of SwiGLU for one i.
template <bool GATE_UP> ARCHSCOPE_HD constexpr int weightRow(int tileRow0, int l, int inter) {
  if constexpr (GATE_UP) return tileRow0 / 2 + (l >> 4) * 8 + (l & 7) + ((l & 8) ? inter : 0);
  else return tileRow0 + l;
}

} // namespace archscope::w4a16
