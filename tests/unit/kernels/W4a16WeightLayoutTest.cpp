// Checks the blocked weight layout of the w4a16 kernels
// (kernels/w4a16/weight_layout.h) on the CPU: every 16-byte chunk and scale
// word of every row lands once inside the buffer, for every K the shapes allow
// (K % 64 == 0, partial last tiles included); a GEMV warp's loads of a tile
// read its block's 2 KB run of that tile exactly once, 512 contiguous bytes a
// load (gemv_layout.h), and the address steps
// gemv.cuh and loader.cuh take (whole tiles fast, the partial tile apart) land
// where the full map says; the layout's row order is the GEMMs' (weightRow,
// wgmmaWeightRow), so each tile's rows are whole blocks; and the repack's mark
// for experts whose scales need the exact decoder.
#include "../../../kernels/common/nvfp4.h"
#include "../../../kernels/w4a16/gemv_layout.h"
#include "../../../kernels/w4a16/tile_layout.h"
#include "../../../kernels/w4a16/weight_layout.h"
#include "../../../kernels/w4a16/wgmma_layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

namespace {
using namespace archscope::w4a16;

constexpr int kRows = 48; // three blocks

TEST(W4a16WeightLayout, EveryChunkAndScaleWordOnceInsideTheBuffer) {
  for (int K = 64; K <= 2048; K += 64) {
    std::vector<int> chunks(size_t(kRows) * K / 32, 0), words(size_t(kRows) * K / 64, 0);
    for (int row = 0; row < kRows; ++row) {
      for (int q = 0; q < K / 32; ++q) {
        const size_t at = weightChunkOffset(row, q, K);
        ASSERT_EQ(at % 16, 0u);
        ASSERT_LT(at, size_t(kRows) * K / 2) << "K=" << K << " row " << row << " chunk " << q;
        ++chunks[at / 16];
      }
      for (int p = 0; p < K / 64; ++p) {
        const size_t at = scaleWordOffset(row, p, K);
        ASSERT_EQ(at % 4, 0u);
        ASSERT_LT(at, size_t(kRows) * K / 16) << "K=" << K << " row " << row << " word " << p;
        ++words[at / 4];
      }
    }
    for (size_t i = 0; i < chunks.size(); ++i) ASSERT_EQ(chunks[i], 1) << "K=" << K << " chunk slot " << i;
    for (size_t i = 0; i < words.size(); ++i) ASSERT_EQ(words[i], 1) << "K=" << K << " word slot " << i;
  }
}

TEST(W4a16WeightLayout, GemvWarpReadsOneRunATile) {
  constexpr int K = 1024, block = 2;
  const size_t blockStart = blockWeightOffset(block * kBlockRows, K);
  for (int kt = 0; kt < K / kLayoutTileK; ++kt) {
    std::set<size_t> chunks;
    for (int j = 0; j < 4; ++j) { // chunk q of rows p, p + 4, p + 8, p + 12 (gemv_layout.h)
      std::set<size_t> load;
      for (int lane = 0; lane < 32; ++lane)
        load.insert(weightChunkOffset(block * kBlockRows + gemvLaneRow(lane, j), kt * 8 + gemvLaneChunk(lane), K));
      ASSERT_EQ(load.size(), 32u); // one warp-wide load: 512 contiguous bytes
      EXPECT_EQ(*load.rbegin() - *load.begin(), 512u - 16) << "tile " << kt << " load " << j;
      chunks.insert(load.begin(), load.end());
    }
    ASSERT_EQ(chunks.size(), 128u);
    EXPECT_EQ(*chunks.begin(), blockStart + kt * 2048u) << "tile " << kt;
    EXPECT_EQ(*chunks.rbegin(), blockStart + kt * 2048u + 2048 - 16) << "tile " << kt;
  }
  // and the scale words of rows m and m + 8 of one 64-k group are one aligned
  // 8-byte pair (gemv.cuh reads them so from its shared-memory ring)
  for (int m = 0; m < 8; ++m)
    for (int c = 0; c < 4; ++c) {
      const size_t top = scaleWordOffset(block * kBlockRows + m, 4 + c, K);
      EXPECT_EQ(scaleWordOffset(block * kBlockRows + m + 8, 4 + c, K), top + 4);
      EXPECT_EQ(top % 8, 0u);
    }
}

// gemv.cuh's loadKTile: lane L's first chunk at wholeTileChunkOffset(p, q / 2, q % 2) of its block
// (p = L / 8, q = L % 8), load j of tile kt at + kt * 2048 + 512 j; in the partial tile the rows are
// shorter: + wholeTileTailShift(p, cw) + j wholeTileTailShift(4, cw). Its scale word of set s
// (row p + 4s + 8(q % 2)) likewise, 128 bytes a set and wholeTileScaleTailShift for the partial tile.
TEST(W4a16WeightLayout, GemvLaneStepsMatchTheMap) {
  for (int K = 64; K <= 2048; K += 64) {
    const int whole = layoutWholeTiles(K), cw = layoutTileGroups(K, whole);
    for (int lane = 0; lane < 32; ++lane) {
      const int p = gemvLaneRow(lane, 0), q = gemvLaneChunk(lane);
      EXPECT_EQ(wholeTileChunkOffset(p, q / 2, q % 2), 16 * lane);
      EXPECT_EQ(wholeTileScaleOffset(p + 8 * (q % 2), q / 2), 4 * lane);
      for (int kt = 0; kt < gemvLaneKTiles(K, q); ++kt) {
        const bool partial = kt >= whole;
        for (int j = 0; j < 4; ++j) {
          const size_t step = size_t(kt) * 2048 + 512 * j +
                              (partial ? wholeTileTailShift(p, cw) + j * wholeTileTailShift(4, cw) : 0);
          EXPECT_EQ(wholeTileChunkOffset(p, q / 2, q % 2) + step, blockChunkOffset(gemvLaneRow(lane, j), kt * 8 + q, K))
              << "K=" << K << " lane " << lane << " tile " << kt << " load " << j;
        }
        for (int s = 0; s < 2; ++s) {
          const size_t step = size_t(kt) * 256 + 128 * s +
                              (partial ? wholeTileScaleTailShift(p, cw) + s * wholeTileScaleTailShift(4, cw) : 0);
          EXPECT_EQ(wholeTileScaleOffset(p + 8 * (q % 2), q / 2) + step,
                    blockScaleWordOffset(p + 4 * s + 8 * (q % 2), kt * 4 + q / 2, K))
              << "K=" << K << " lane " << lane << " tile " << kt << " set " << s;
        }
      }
    }
  }
}

// loader.cuh's fast path: a thread's first chunk, then wholeTilesWeightStep and wholeTileChunkStep.
template <int BK, int CHUNKS> void checkGemmSteps() {
  constexpr int K = 2048;
  for (int m = 0; m < kBlockRows; ++m)
    for (int first = 0; first < BK / 32; first += CHUNKS)
      for (int kTile = 0; kTile < K / BK; ++kTile) {
        for (int j = 0; j < CHUNKS; ++j)
          EXPECT_EQ(wholeTileChunkOffset(m, first / 2, 0) + wholeTilesWeightStep<BK>(kTile) + wholeTileChunkStep(j),
                    blockChunkOffset(m, kTile * (BK / 32) + first + j, K))
              << "BK=" << BK << " row " << m << " chunk " << first + j << " k tile " << kTile;
        for (int p = 0; p < BK / 64; ++p)
          EXPECT_EQ(wholeTileScaleOffset(m, 0) + wholeTilesScaleStep<BK>(kTile) + 8 * p,
                    blockScaleWordOffset(m, kTile * (BK / 64) + p, K));
      }
}

// gemm_wgmma.cuh's tail: the whole-tile address of row m plus wholeTileTailShift / wholeTileScaleTailShift.
TEST(W4a16WeightLayout, TailShiftsMatchTheMap) {
  for (int K = 64; K <= 1024; K += 64) {
    const int whole = layoutWholeTiles(K), cw = layoutTileGroups(K, whole);
    if (cw == 4) continue;
    for (int m = 0; m < kBlockRows; ++m)
      for (int c = 0; c < cw; ++c) {
        for (int u = 0; u < 2; ++u)
          EXPECT_EQ(size_t(whole) * 2048 + wholeTileChunkOffset(m, c, u) + wholeTileTailShift(m, cw),
                    blockChunkOffset(m, whole * 8 + 2 * c + u, K));
        EXPECT_EQ(size_t(whole) * 256 + wholeTileScaleOffset(m, c) + wholeTileScaleTailShift(m, cw),
                  blockScaleWordOffset(m, whole * 4 + c, K));
      }
  }
}

TEST(W4a16WeightLayout, GemmLoaderStepsMatchTheMap) {
  checkGemmSteps<256, 4>(); // decode
  checkGemmSteps<256, 2>(); // decode-k2
  checkGemmSteps<128, 2>(); // medium
  checkGemmSteps<64, 2>();  // prefill; the wgmma GEMMs take chunk t % 2 of BK = 64 the same way
}

TEST(W4a16WeightLayout, RowOrderIsTheGemmsOrder) {
  constexpr int kInter = 192;
  std::set<int> gateUp;
  for (int r = 0; r < 2 * kInter; ++r) gateUp.insert(gemmRowOfStored(r, kInter, true));
  EXPECT_EQ(gateUp.size(), size_t(2 * kInter));
  EXPECT_EQ(*gateUp.rbegin(), 2 * kInter - 1);
  for (int tileRow0 = 0; tileRow0 < 2 * kInter; tileRow0 += 64)
    for (int l = 0; l < 64; ++l) // mma.sync tiles: tile row l is GEMM row tileRow0 + l
      EXPECT_EQ(gemmRowOfStored(weightRow<true>(tileRow0, l, kInter), kInter, true), tileRow0 + l);
  EXPECT_EQ(gemmRowOfStored(133, kInter, false), 133);
  for (int tileRow0 = 0; tileRow0 < 2 * kInter; tileRow0 += 128) { // wgmma tiles: a permutation of whole blocks
    std::set<int> up, down;
    for (int l = 0; l < 128; ++l) {
      up.insert(gemmRowOfStored(wgmmaWeightRow<true>(tileRow0, l, kInter), kInter, true));
      down.insert(wgmmaWeightRow<false>(tileRow0, l, kInter));
    }
    ASSERT_EQ(up.size(), 128u);
    EXPECT_EQ(*up.begin(), tileRow0);
    EXPECT_EQ(*up.rbegin(), tileRow0 + 127);
    EXPECT_EQ(*down.begin(), tileRow0);
    EXPECT_EQ(*down.rbegin(), tileRow0 + 127);
  }
}

} // namespace

TEST(W4a16WeightLayout, ExactDecodeMarkCoversEveryScaleTheNormalDecoderGetsWrong) {
  // The normal decoders (mma.cuh's biasedScales, wgmmaNormalScalePair) read
  // byte * 16 + (238 << 7) as bf16, exact for exponent fields 1..15 (the wgmma
  // test checks every such byte); bytes 0..7, the zero and the subnormals, are
  // what the repack marks an expert for. Bit 7 is ignored, so the mark itself
  // (set in the expert's first scale byte) never changes a scale's value.
  for (unsigned byte = 0; byte < 256; ++byte) {
    const float value = archscope::nvfp4::ue4m3ToFloat(uint8_t(byte));
    EXPECT_EQ(scaleNeedsExactDecode(byte), value < std::ldexp(1.0f, -6)) << byte;
    EXPECT_EQ(scaleNeedsExactDecode(byte | kExactScalesMark), scaleNeedsExactDecode(byte)) << byte;
  }
  EXPECT_EQ(kExactScalesMark & 0x7Fu, 0u) << "the mark must be the bit every decoder masks off";
}
