//===--- fragments.h - Operand layouts of mma.m16n8k64 mxf4nvf4 -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// Per-lane register layouts of the warp instruction
//   mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X
//       .f32.e2m1.e2m1.f32.ue4m3
// as plain C++ (host and device), so the kernel loads and stores its operands
// only through these functions and the CPU tests can check them.
//
// Sources (PTX ISA 9.x):
// - "Matrix Fragments for mma.m16n8k64" (9.7.14.5.11 in ISA 9.1; 9.7.15.5.11 in
//   9.3): A is four .b32 registers of eight .e2m1 each, elements a0..a31 low to
//   high; B two registers, b0..b15; C/D four .f32, c0..c3.
// - "Block Scaling for mma.sync" (9.7.14.3 / 9.7.15.3), Tables 35-37 and
//   Figures 43-45: scale_A is M x 4 and scale_B is 4 x N for scale_vec::4X;
//   thread-id-a picks the lane pair {2*tidA, 2*tidA+1} of each quad, thread-id-b
//   the lane tidB of each quad; with 4X all four bytes are used and byte-id must
//   be 0. Which lane of the pair holds row g and which row g+8 is drawn only in
//   Figure 43 (an image); it is taken from CUTLASS's SM120 SFALayout
//   (cute/atom/mma_traits_sm120.hpp: thread stride (8,0,1) over (2,2,8)), i.e.
//   lane%2 == 0 -> row g, lane%2 == 1 -> row g+8. Byte b of the register holds
//   K block b (16 elements), per Figure 45 and the same CUTLASS layout.
//===----------------------------------------------------------------------===//
#pragma once
#include <cstdint>

#include "../common/nvfp4.h"

namespace archscope::mma_blockscale::frag {

constexpr int kM = 16, kN = 8, kK = 64;          // instruction shape
constexpr int kScaleBlocks = kK / nvfp4::kBlock; // 4 (scale_vec::4X)
// Selectors passed to the instruction: byte-id must be 0 for 4X (Table 37);
// we let lanes 4g+0/4g+1 supply SF_A and lane 4g+0 supply SF_B.
constexpr uint16_t kByteIdA = 0, kThreadIdA = 0, kByteIdB = 0, kThreadIdB = 0;

struct Coord {
  int row; // A: row (M), B: k, C: row (M)
  int col; // A: k,       B: n, C: col (N)
};

ARCHSCOPE_HD constexpr int groupId(int lane) { return lane >> 2; }
ARCHSCOPE_HD constexpr int threadInGroup(int lane) { return lane & 3; }

/// A register `reg` (0..3) of `lane` holds 8 consecutive K elements of one row:
/// odd registers are the lower half of the tile (rows 8..15), registers 2 and 3
/// the upper 32 K.
ARCHSCOPE_HD constexpr Coord aRegisterStart(int lane, int reg) {
  return {groupId(lane) + 8 * (reg & 1), 8 * threadInGroup(lane) + 32 * (reg >> 1)};
}
/// (row, k) of nibble `nibble` (0 = least significant) of A register `reg`.
ARCHSCOPE_HD constexpr Coord aElement(int lane, int reg, int nibble) {
  const Coord s = aRegisterStart(lane, reg);
  return {s.row, s.col + nibble};
}

/// B register `reg` (0..1) of `lane` holds 8 consecutive K of column groupId.
ARCHSCOPE_HD constexpr Coord bRegisterStart(int lane, int reg) {
  return {8 * threadInGroup(lane) + 32 * reg, groupId(lane)};
}
/// (k, n) of nibble `nibble` of B register `reg`.
ARCHSCOPE_HD constexpr Coord bElement(int lane, int reg, int nibble) {
  const Coord s = bRegisterStart(lane, reg);
  return {s.row + nibble, s.col};
}

/// (row, col) of accumulator register `reg` (0..3) of `lane`.
ARCHSCOPE_HD constexpr Coord cElement(int lane, int reg) {
  return {groupId(lane) + 8 * (reg >> 1), 2 * threadInGroup(lane) + (reg & 1)};
}

/// Row of scale_A whose four K-block scales `lane` supplies, or -1 when the
/// lane is not in the pair thread-id-a selects.
ARCHSCOPE_HD constexpr int scaleARow(int lane) {
  return (threadInGroup(lane) >> 1) == kThreadIdA ? groupId(lane) + 8 * (lane & 1) : -1;
}
/// Column of scale_B that `lane` supplies, or -1 when not selected.
ARCHSCOPE_HD constexpr int scaleBCol(int lane) {
  return threadInGroup(lane) == kThreadIdB ? groupId(lane) : -1;
}

/// Little-endian 32-bit word from 4 bytes (aligned or not).
ARCHSCOPE_HD inline uint32_t loadWord(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

/// A operand of `lane` from a K-contiguous packed e2m1 tile: row r of the tile
/// starts at tile + r * rowBytes (PTX e2m1x2 order: even k in the low nibble,
/// so 8 consecutive k are one little-endian word starting at byte k/2).
ARCHSCOPE_HD inline void loadA(const uint8_t *tile, int rowBytes, int lane, uint32_t a[4]) {
  for (int reg = 0; reg < 4; ++reg) {
    const Coord s = aRegisterStart(lane, reg);
    a[reg] = loadWord(tile + s.row * rowBytes + s.col / 2);
  }
}
/// B operand of `lane`: column n of the tile is the K-contiguous packed row
/// `cols[n]` (a gathered token), so B needs no transpose.
ARCHSCOPE_HD inline void loadB(const uint8_t *const cols[kN], int lane, uint32_t b[2]) {
  for (int reg = 0; reg < 2; ++reg) {
    const Coord s = bRegisterStart(lane, reg);
    b[reg] = loadWord(cols[s.col] + s.row / 2);
  }
}
/// scale-a-data of `lane`: the 4 ue4m3 bytes of its row (K blocks 0..3,
/// byte b = block b), from `rowScales[r]` = 4 consecutive scale bytes of row r.
ARCHSCOPE_HD inline uint32_t loadScaleA(const uint8_t *const rowScales[kM], int lane) {
  const int row = scaleARow(lane);
  return row < 0 ? 0u : loadWord(rowScales[row]);
}
/// scale-b-data of `lane`: the 4 ue4m3 bytes of its column.
ARCHSCOPE_HD inline uint32_t loadScaleB(const uint8_t *const colScales[kN], int lane) {
  const int col = scaleBCol(lane);
  return col < 0 ? 0u : loadWord(colScales[col]);
}

} // namespace archscope::mma_blockscale::frag
