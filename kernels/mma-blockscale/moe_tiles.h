//===--- moe_tiles.h - warp tile index math of the mma-blockscale MoE -----===//
// SPDX-License-Identifier: Apache-2.0
//
// One warp owns a 16-row x 8-pair output tile of one expert and walks K in
// steps of 64 with mma.m16n8k64 (A = 16 weight rows, B = 8 routed pairs'
// activations, both K-contiguous NVFP4). Everything here is per lane and
// plain C++: moe.cuh runs it on the GPU with the real instruction between
// loadStep and the epilogue; the CPU test runs it for all 32 lanes with an
// emulated instruction and compares the MoE with the fp64 reference.
//===----------------------------------------------------------------------===//
#pragma once
#include <cstdint>

#include "fragments.h"
#include "moe_steps.h"

namespace archscope::mma_blockscale {

constexpr int kWarpsPerBlock = 4; // a CTA covers 4 x 16 = 64 weight rows

/// One expert's GEMM: weight rows [rows][K] against the NVFP4 rows of the
/// routed pairs. Column n of a tile is pair pairs[n]; its activation row is
/// pair / pairDivisor (x is per token: divisor k; the SwiGLU output is per
/// pair: divisor 1).
struct GemmView {
  const uint8_t *wPacked; // expert's [rows][K/2]
  const uint8_t *wScales; // expert's [rows][K/16]
  int K;
  const uint8_t *actPacked; // [*][K/2]
  const uint8_t *actScales; // [*][K/16]
  const int32_t *pairs;     // this expert's pairs
  int count;                // number of pairs
  int pairDivisor;
};

/// Expert e's view of weights [E][rows][K] against activation rows.
ARCHSCOPE_HD inline GemmView expertView(const uint8_t *packed, const uint8_t *scales, int rows, int K,
                                        const uint8_t *actPacked, const uint8_t *actScales, int e,
                                        int divisor, const nvfp4moe::Workspace &w) {
  return {packed + size_t(e) * rows * K / 2,
          scales + size_t(e) * rows * K / nvfp4::kBlock,
          K,
          actPacked,
          actScales,
          w.pairList + w.offsets[e],
          w.counts[e],
          divisor};
}

struct Fragments {
  uint32_t a[4], b[2], sfa, sfb;
};

/// Pair in column n of tile `nTile`, or -1 past the end.
ARCHSCOPE_HD inline int tilePair(const GemmView &g, int nTile, int n) {
  const int i = nTile * frag::kN + n;
  return i < g.count ? g.pairs[i] : -1;
}

/// Operands of K step `kStep` for the tile whose first weight row is `row0`.
/// Columns past the end reuse the tile's first pair; their results are dropped.
ARCHSCOPE_HD inline void loadStep(const GemmView &g, int row0, int nTile, int kStep, int lane, Fragments &f) {
  const int rowBytes = g.K / 2, scaleRow = g.K / nvfp4::kBlock;
  frag::loadA(g.wPacked + size_t(row0) * rowBytes + kStep * (frag::kK / 2), rowBytes, lane, f.a);
  const uint8_t *rowScales[frag::kM];
  for (int r = 0; r < frag::kM; ++r)
    rowScales[r] = g.wScales + size_t(row0 + r) * scaleRow + kStep * frag::kScaleBlocks;
  f.sfa = frag::loadScaleA(rowScales, lane);
  const uint8_t *cols[frag::kN];
  const uint8_t *colScales[frag::kN];
  for (int n = 0; n < frag::kN; ++n) {
    int p = tilePair(g, nTile, n);
    if (p < 0)
      p = tilePair(g, nTile, 0);
    const size_t row = size_t(p / g.pairDivisor);
    cols[n] = g.actPacked + row * rowBytes + kStep * (frag::kK / 2);
    colScales[n] = g.actScales + row * scaleRow + kStep * frag::kScaleBlocks;
  }
  frag::loadB(cols, lane, f.b);
  f.sfb = frag::loadScaleB(colScales, lane);
}

/// Writes a lane's accumulator, times `scale`, into a 16x8 staging tile.
ARCHSCOPE_HD inline void stageAccumulator(int lane, const float d[4], float scale,
                                          float tile[frag::kM][frag::kN]) {
  for (int r = 0; r < 4; ++r) {
    const frag::Coord c = frag::cElement(lane, r);
    tile[c.row][c.col] = d[r] * scale;
  }
}

/// GEMM1 epilogue for staged column n (one pair): SwiGLU of the gate and up
/// tiles, quantized as one 16-element block of the pair's intermediate row
/// (the 16 tile rows are act rows row0..row0+15, row0 % 16 == 0).
ARCHSCOPE_HD inline void swigluQuantizeColumn(const float gate[frag::kM][frag::kN],
                                              const float up[frag::kM][frag::kN], int n, int pair, int row0,
                                              int inter, float actGlobal, const nvfp4moe::Workspace &w) {
  const int b = row0 / nvfp4::kBlock;
  nvfp4moe::swigluQuantizeBlock(&gate[0][n], &up[0][n], frag::kN, actGlobal,
                                nvfp4moe::actBlockPacked(w, inter, pair, b),
                                nvfp4moe::actBlockScale(w, inter, pair, b));
}

/// GEMM2 epilogue for lane register r: (token, hidden index, weighted value)
/// to add into out. Returns false for a padding column.
struct OutAdd {
  int token, h;
  float value;
};
ARCHSCOPE_HD inline bool combineTerm(const GemmView &g, int nTile, int row0, int lane, int r,
                                     const float d[4], float scale, const float *topkWeights, int topk,
                                     OutAdd &o) {
  const frag::Coord c = frag::cElement(lane, r);
  const int pair = tilePair(g, nTile, c.col);
  if (pair < 0)
    return false;
  o = {pair / topk, row0 + c.row, topkWeights[pair] * (d[r] * scale)};
  return true;
}

/// Tiles along the pairs of an expert.
ARCHSCOPE_HD constexpr int pairTiles(int count) { return (count + frag::kN - 1) / frag::kN; }

} // namespace archscope::mma_blockscale
