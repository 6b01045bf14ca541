//===--- layouts.h - tcgen05 descriptors and memory layouts (host+device) --===//
// SPDX-License-Identifier: Apache-2.0
//
// Encoders and address maps for the tcgen05 NVFP4 MoE (kernels/tcgen05/moe.cuh):
// M = 128, .cta_group::1, .kind::mxf4nvf4, block16 (= scale_vec::4X) ue4m3.
// Plain C++ so tests/unit/kernels/Tcgen05LayoutTest.cpp checks them on the CPU.
//
// Sources, PTX ISA 9.1 numbering (9.7.17.x in ISA 9.3):
// - 9.7.16.4.1 "Shared memory descriptor", Table 40.
// - 9.7.16.4.2 "Instruction descriptor", Table 44 (.kind::mxf4 / mxf4nvf4).
// - 9.7.16.3 "Major-ness supported by Strides" (LBO, SBO) and 9.7.16.3.3
//   "Canonical Layouts": K-major, no swizzle ((8,m),(T,2k)):((1T,SBO),(1,LBO)),
//   T = 128 / 4 bits = 32 e2m1 elements (16 bytes).
// - 9.7.16.10.4.6: e2m1 in shared memory is two per byte, no padding.
// - 9.7.16.1.1 "Tensor Memory Addressing": lane in bits 31..16, column 15..0.
// - 9.7.16.10.5.4 "Layout D (M = 128 + cta-group::1)" and 9.7.16.8.1 "Access
//   restrictions": row m of D is TMEM lane m; warp w of the warpgroup reads
//   lanes 32w..32w+31.
// - 9.7.16.10.7 "Block Scaling", 9.7.16.10.7.2.3 / 9.7.16.10.7.3.3 (4X/block16:
//   four scale bytes per row in one 4-byte TMEM column, SF_ID must be 0) and
//   "Scale factors ... need to be duplicated to all 32 lane partitions".
// The exact TMEM lane/column of each scale row is only drawn (Figures 233, 242);
// the map below is the one CUTLASS uses (Sm1xxBlockScaledBasicChunk SfKMajorAtom
// ((32,4),(16,4)):((16,4),(0,1)) copied by tcgen05.cp .32x128b.warpx4).
//===----------------------------------------------------------------------===//
#pragma once
#include <cstdint>

#include "../common/nvfp4.h"

namespace archscope::tcgen05::layout {

// ---- Tile shape chosen for the kernel -----------------------------------------
constexpr int kM = 128;      // A rows (weight rows) per MMA, cta_group::1
constexpr int kN = 32;       // B rows (tokens) per MMA; N % 8 == 0, 8..256
constexpr int kKPerMma = 64; // K of one dense mxf4nvf4 MMA (Table 39)
constexpr int kKTile = 256;  // K staged in shared memory per round
constexpr int kMmasPerTile = kKTile / kKPerMma;
constexpr int kCoreRowBytes = 16; // a core matrix is 8 rows x 16 bytes
constexpr int kCoreBytes = 8 * kCoreRowBytes;
constexpr int kTileRowBytes = kKTile / 2; // e2m1: two per byte
constexpr int kScaleChunkBytes = 512;     // 128 rows x 4 scale bytes (one MMA)

// ---- 9.7.16.4.1 Table 40: shared memory descriptor --------------------------
ARCHSCOPE_HD constexpr uint64_t matrixDescriptorEncode(uint32_t x) { return (x & 0x3FFFFu) >> 4; }

enum class Swizzle : uint32_t { None = 0, B128Base32 = 1, B128 = 2, B64 = 4, B32 = 6 };

struct SmemDescriptor {
  uint32_t startAddress = 0;      // shared::cta byte address, 16-byte aligned
  uint32_t leadingByteOffset = 0; // LBO, bytes (relative mode)
  uint32_t strideByteOffset = 0;  // SBO, bytes
  uint32_t baseOffset = 0;        // 0 for SWIZZLE_NONE
  bool leadingAbsolute = false;   // bit 52
  Swizzle swizzle = Swizzle::None;
};

ARCHSCOPE_HD constexpr uint64_t encode(const SmemDescriptor &d) {
  return matrixDescriptorEncode(d.startAddress)              // bits 0-13
         | matrixDescriptorEncode(d.leadingByteOffset) << 16 // bits 16-29
         | matrixDescriptorEncode(d.strideByteOffset) << 32  // bits 32-45
         | uint64_t(1) << 46                                 // bits 46-48: fixed 0b001
         | uint64_t(d.baseOffset & 7) << 49                  // bits 49-51
         | uint64_t(d.leadingAbsolute ? 1 : 0) << 52         // bit 52
         | uint64_t(uint32_t(d.swizzle) & 7) << 61;          // bits 61-63 (53-60 are 0)
}

// ---- 9.7.16.4.2 Table 44: instruction descriptor, .kind::mxf4nvf4 -----------
struct InstrDescriptor {
  int m = kM, n = kN;
  bool sparse = false;
  int scaleFactorAId = 0, scaleFactorBId = 0; // must be 0 for 4X / block16
  bool negateA = false, negateB = false;
  bool scaleUe8m0 = false; // false: UE4M3 (NVFP4)
  bool k96 = false;        // dense K = 96 (sm_103a only); we use K = 64
};
constexpr uint32_t kE2m1Format = 1; // atype/btype E2M1 = 1 for mxf4/mxf4nvf4

ARCHSCOPE_HD constexpr uint32_t encode(const InstrDescriptor &d) {
  return uint32_t(d.sparse ? 1 : 0) << 2       // bit 2: sparsity
         | uint32_t(d.scaleFactorBId & 3) << 4 // bits 4-5: SFB ID
         | kE2m1Format << 7                    // bits 7-9: atype
         | kE2m1Format << 10                   // bits 10-11: btype
         | uint32_t(d.negateA ? 1 : 0) << 13   // bit 13
         | uint32_t(d.negateB ? 1 : 0) << 14   // bit 14
         /* bits 15, 16: transpose A/B = 0, both K-major (only value allowed) */
         | uint32_t((d.n >> 3) & 0x3F) << 17    // bits 17-22: N >> 3
         | uint32_t(d.scaleUe8m0 ? 1 : 0) << 23 // bit 23: UE4M3 = 0
         | uint32_t((d.m >> 7) & 3) << 27       // bits 27-28: M >> 7
         | uint32_t(d.scaleFactorAId & 3) << 29 // bits 29-30: SFA ID
         | uint32_t(d.k96 ? 1 : 0) << 31;       // bit 31: K dimension
}

// ---- Canonical K-major SWIZZLE_NONE layout of an e2m1 tile -----------------
// Core matrices (8 rows x 16 bytes, contiguous) are laid K-first: the next
// 16 bytes of K is the next core matrix (LBO = 128), the next 8 rows start
// after a whole row band of the tile (SBO = kTileRowBytes / 16 * 128).
constexpr uint32_t kLeadingByteOffset = kCoreBytes;
constexpr uint32_t kStrideByteOffset = kTileRowBytes / kCoreRowBytes * kCoreBytes;

struct NibbleAddress {
  uint32_t byte;
  int nibble; // 0 = low (even k), 1 = high
};
/// Shared-memory position of element (row, k) of a tile (k < kKTile).
ARCHSCOPE_HD constexpr NibbleAddress canonicalKMajor(int row, int k) {
  const int t = 2 * kCoreRowBytes; // T = 32 elements per core-matrix row
  return {uint32_t((row % 8) * kCoreRowBytes + (row / 8) * kStrideByteOffset + (k % t) / 2 +
                   (k / t) * kLeadingByteOffset),
          k & 1};
}
/// Byte offset of the 16-byte chunk holding k0..k0+31 of `row` (k0 % 32 == 0).
ARCHSCOPE_HD constexpr uint32_t canonicalChunk(int row, int k0) { return canonicalKMajor(row, k0).byte; }

/// Descriptor of MMA number `step` (0..kMmasPerTile-1) of a tile at `tileAddr`:
/// K step s starts 64 elements = 2 core matrices further along K.
ARCHSCOPE_HD constexpr uint64_t operandDescriptor(uint32_t tileAddr, int step) {
  return encode(SmemDescriptor{tileAddr + uint32_t(step) * 2 * kLeadingByteOffset, kLeadingByteOffset,
                               kStrideByteOffset, 0, false, Swizzle::None});
}

// ---- Scale factors: shared-memory chunk and Tensor Memory placement ---------
/// Byte of scale (row r < 128, K block j < 4) in the 512-byte chunk one
/// tcgen05.cp .32x128b.warpx4 copies: 32 rows of 16 bytes, row r%32 holding
/// rows r%32 + 32c at bytes 4c..4c+3.
ARCHSCOPE_HD constexpr uint32_t scaleChunkByte(int r, int j) {
  return uint32_t((r % 32) * 16 + (r / 32) * 4 + j);
}
/// The chunk as a 32-row, 16-byte-wide K-major matrix: core matrices of 8 rows
/// are 128 bytes apart (SBO); it has a single 16-byte column, so LBO is unused.
ARCHSCOPE_HD constexpr uint64_t scaleChunkDescriptor(uint32_t chunkAddr) {
  return encode(SmemDescriptor{chunkAddr, kCoreBytes, kCoreBytes, 0, false, Swizzle::None});
}

struct TmemCell {
  int lane;   // 0..127 (any of the replicated lanes; this is the one in row's own quarter)
  int column; // relative to the scale base column
  int byte;   // byte within the 32-bit cell
};
/// Where the MMA finds the scale of row r, K block j, once the chunk was copied
/// to column `base` with .warpx4: lane r (lanes r%32 + 32q all hold the same
/// bytes), column base + r/32, byte j.
ARCHSCOPE_HD constexpr TmemCell scaleCell(int r, int j) { return {r, r / 32, j}; }

// ---- Tensor Memory use of one CTA --------------------------------------------
ARCHSCOPE_HD constexpr uint32_t tmemAddress(uint32_t base, int lane, int column) {
  return base + (uint32_t(lane) << 16) + uint32_t(column);
}
constexpr int kAccumColumn = 0;   // D: N f32 columns
constexpr int kScaleAColumn = kN; // 4 columns per MMA step
constexpr int kScaleBColumn = kScaleAColumn + 4 * kMmasPerTile;
constexpr int kTmemColumns = 64; // power of two >= kScaleBColumn + 4 * kMmasPerTile
static_assert(kScaleBColumn + 4 * kMmasPerTile <= kTmemColumns, "TMEM columns");

/// tcgen05.ld .32x32b: thread `lane` of warp `warp` gets D[32*warp + lane][col]
/// in register col - first column (Layout D, access restrictions).
ARCHSCOPE_HD constexpr int accumulatorRow(int warp, int lane) { return 32 * warp + lane; }

} // namespace archscope::tcgen05::layout
