//===--- moe_tiles.h - CTA tile staging of the tcgen05 NVFP4 MoE ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// One CTA (one warpgroup) owns a 128-row x 32-pair tile of one expert's GEMM
// and walks K in rounds of 256 (four MMAs of K = 64). Per round every thread
// stages part of A, B and the scale chunks into shared memory through these
// functions (layouts.h decides every byte's place); one thread then issues
// tcgen05.cp + tcgen05.mma. Plain C++ so the CPU test runs the same staging
// into a simulated shared-memory image.
//
// GEMM1 tiles 64 intermediate rows: A rows 0..63 are W1 gate rows i0..i0+63
// and A rows 64..127 the up rows I+i0.., so gate and up of one output land in
// the same CTA. GEMM2 tiles 128 hidden rows (rows past H are zero).
//===----------------------------------------------------------------------===//
#pragma once
#include <cstdint>

#include "../common/moe_device.cuh"
#include "../mma-blockscale/moe_steps.h"
#include "layouts.h"

namespace archscope::tcgen05 {

constexpr int kThreads = 128;
constexpr int kARows = layout::kM, kBRows = layout::kN;
constexpr int kChunksPerRow = layout::kTileRowBytes / layout::kCoreRowBytes; // 8 x 16 bytes
constexpr int kABytes = kARows * layout::kTileRowBytes, kBBytes = kBRows * layout::kTileRowBytes;
constexpr int kScaleBytes = layout::kMmasPerTile * layout::kScaleChunkBytes;

/// One expert's GEMM as seen by a CTA tile.
struct TileView {
  const uint8_t *wPacked; // expert's [wRows][K/2]
  const uint8_t *wScales; // expert's [wRows][K/16]
  int K;
  int rowBase0, rowBase1, split, rowLimit; // A row m -> weight row (see aRow)
  const uint8_t *actPacked;                // [*][K/2]
  const uint8_t *actScales;                // [*][K/16]
  const int32_t *pairs;
  int count, pairDivisor;
};

/// The tile of CTA x = `tile` of expert e: GEMM1 covers intermediate rows
/// i0 = 64*tile (gate in A rows 0..63, up in 64..127), GEMM2 hidden rows
/// 128*tile. Works on host pointers as well (the CPU model).
ARCHSCOPE_HD inline TileView gemmView(bool gemm1, const MoeDeviceArgs &a, const nvfp4moe::Workspace &w, int e,
                                      int tile) {
  const MoeShape &s = a.shape;
  const int32_t *pairs = w.pairList + w.offsets[e];
  if (gemm1) {
    const size_t expert = size_t(e) * 2 * s.inter * s.hidden;
    const int i0 = tile * (kARows / 2);
    return {a.w1Packed + expert / 2,
            a.w1Scales + expert / nvfp4::kBlock,
            s.hidden,
            i0,
            s.inter + i0,
            kARows / 2,
            2 * s.inter,
            w.xPacked,
            w.xScales,
            pairs,
            w.counts[e],
            s.topk};
  }
  const size_t expert = size_t(e) * s.hidden * s.inter;
  const int row0 = tile * kARows;
  return {a.w2Packed + expert / 2,
          a.w2Scales + expert / nvfp4::kBlock,
          s.inter,
          row0,
          row0,
          kARows,
          s.hidden,
          w.actPacked,
          w.actScales,
          pairs,
          w.counts[e],
          1};
}
/// Factor turning the MMA's sum into the real product (global scales).
ARCHSCOPE_HD inline float gemmScale(bool gemm1, const MoeDeviceArgs &a, int e) {
  return gemm1 ? a.w1Global[e] * a.xGlobalScale : a.w2Global[e] * a.actGlobalScale;
}
ARCHSCOPE_HD constexpr int rowTiles(bool gemm1, const MoeShape &s) {
  return gemm1 ? s.inter / (kARows / 2) : (s.hidden + kARows - 1) / kARows;
}

/// Weight row of A row m, or -1 when it is padding.
ARCHSCOPE_HD inline int aRow(const TileView &v, int m) {
  const int row = m < v.split ? v.rowBase0 + m : v.rowBase1 + (m - v.split);
  return row < v.rowLimit ? row : -1;
}
/// Activation row of B row n of tile nTile, or -1 past the expert's pairs.
ARCHSCOPE_HD inline int bRow(const TileView &v, int nTile, int n) {
  const int i = nTile * kBRows + n;
  return i < v.count ? v.pairs[i] / v.pairDivisor : -1;
}
ARCHSCOPE_HD inline int tilePair(const TileView &v, int nTile, int n) {
  const int i = nTile * kBRows + n;
  return i < v.count ? v.pairs[i] : -1;
}
ARCHSCOPE_HD constexpr int roundsFor(int K) { return (K + layout::kKTile - 1) / layout::kKTile; }
/// MMAs in round `round` (the last round of a K that is not a multiple of 256 is short).
ARCHSCOPE_HD constexpr int stepsInRound(int K, int round) {
  return (K - round * layout::kKTile) / layout::kKPerMma < layout::kMmasPerTile
             ? (K - round * layout::kKTile) / layout::kKPerMma
             : layout::kMmasPerTile;
}

/// Copies 16 bytes of a packed row (or zeros) to a 16-byte smem chunk.
ARCHSCOPE_HD inline void copyChunk(const uint8_t *src, uint8_t *dst) {
  for (int i = 0; i < 16; ++i)
    dst[i] = src ? src[i] : uint8_t(0);
}

/// Chunk `c` (0 .. kARows*8-1) of A for round `round`: row c/8, K bytes 16*(c%8).
ARCHSCOPE_HD inline void stageA(const TileView &v, int round, int c, uint8_t *smemA) {
  const int m = c / kChunksPerRow, piece = c % kChunksPerRow, row = aRow(v, m);
  const int byte = round * layout::kTileRowBytes + piece * 16;
  const uint8_t *src = row >= 0 && byte < v.K / 2 ? v.wPacked + size_t(row) * (v.K / 2) + byte : nullptr;
  copyChunk(src, smemA + layout::canonicalChunk(m, piece * 32));
}
/// Chunk `c` (0 .. kBRows*8-1) of B for round `round` of pair tile nTile.
ARCHSCOPE_HD inline void stageB(const TileView &v, int round, int nTile, int c, uint8_t *smemB) {
  const int n = c / kChunksPerRow, piece = c % kChunksPerRow, row = bRow(v, nTile, n);
  const int byte = round * layout::kTileRowBytes + piece * 16;
  const uint8_t *src = row >= 0 && byte < v.K / 2 ? v.actPacked + size_t(row) * (v.K / 2) + byte : nullptr;
  copyChunk(src, smemB + layout::canonicalChunk(n, piece * 32));
}
/// Scale bytes of A row / B row `r` (0..127) for every MMA step of the round:
/// chunk s holds the 4 blocks of step s (layouts.h scaleChunkByte).
ARCHSCOPE_HD inline void stageScales(const TileView &v, int round, int nTile, int r, uint8_t *smemSfa,
                                     uint8_t *smemSfb) {
  const int blocksPerRow = v.K / nvfp4::kBlock, aW = aRow(v, r), bA = r < kBRows ? bRow(v, nTile, r) : -1;
  for (int s = 0; s < layout::kMmasPerTile; ++s)
    for (int j = 0; j < 4; ++j) {
      const int block = round * (layout::kKTile / nvfp4::kBlock) + 4 * s + j;
      const bool inK = block < blocksPerRow;
      const uint32_t at = s * layout::kScaleChunkBytes + layout::scaleChunkByte(r, j);
      smemSfa[at] = aW >= 0 && inK ? v.wScales[size_t(aW) * blocksPerRow + block] : uint8_t(0);
      smemSfb[at] = bA >= 0 && inK ? v.actScales[size_t(bA) * blocksPerRow + block] : uint8_t(0);
    }
}

/// GEMM2 epilogue: the weighted term of accumulator (m, n), or false for padding.
struct OutAdd {
  size_t index; // into out [T][H]
  float value;
};
ARCHSCOPE_HD inline bool combineTerm(const TileView &v, int nTile, int m, int n, float d, float scale,
                                     const MoeDeviceArgs &a, OutAdd &o) {
  const int h = aRow(v, m), pair = tilePair(v, nTile, n);
  if (h < 0 || pair < 0)
    return false;
  o = {size_t(pair / a.shape.topk) * a.shape.hidden + h, a.topkWeights[pair] * (d * scale)};
  return true;
}

/// GEMM1 epilogue unit t (0..127): pair column t%32, act block t/32 of the 64
/// rows; `stage` is the scaled accumulator, row-major [128][stride].
ARCHSCOPE_HD inline void swigluEpilogue(const TileView &v, int nTile, int t, const float *stage, int stride,
                                        int i0, int inter, float actGlobal, const nvfp4moe::Workspace &w) {
  const int n = t % kBRows, b = t / kBRows, pair = tilePair(v, nTile, n);
  if (pair < 0)
    return;
  const float *gate = stage + size_t(16 * b) * stride + n;
  const float *up = stage + size_t(64 + 16 * b) * stride + n;
  const int block = i0 / nvfp4::kBlock + b;
  nvfp4moe::swigluQuantizeBlock(gate, up, stride, actGlobal, nvfp4moe::actBlockPacked(w, inter, pair, block),
                                nvfp4moe::actBlockScale(w, inter, pair, block));
}

} // namespace archscope::tcgen05
