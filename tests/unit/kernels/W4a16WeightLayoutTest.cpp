// Checks the blocked weight layout of the w4a16 kernels
// (kernels/w4a16/weight_layout.h) on the CPU: every 16-byte chunk and scale
// word of every row lands once inside the buffer, for every K the shapes allow
// (K % 64 == 0, partial last tiles included); a GEMV warp's loads of a tile
// read its block's 2 KB run of that tile exactly once, and the address steps
// gemv.cuh and loader.cuh take (whole tiles fast, the partial tile apart) land
// where the full map says; the layout's row order is the GEMMs' (weightRow,
// wgmmaWeightRow), so each tile's rows are whole blocks.
#include "../../../kernels/w4a16/tile_layout.h"
#include "../../../kernels/w4a16/weight_layout.h"
#include "../../../kernels/w4a16/wgmma_layout.h"

#include <gtest/gtest.h>

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
    for (int lane = 0; lane < 32; ++lane)
      for (int j = 0; j < 4; ++j) { // rows g and g + 8, k [64c, 64c + 32) and [64c + 32, 64c + 64)
        const int g = lane / 4, c = lane % 4, row = block * kBlockRows + g + 8 * (j / 2);
        chunks.insert(weightChunkOffset(row, kt * 8 + 2 * c + j % 2, K));
      }
    ASSERT_EQ(chunks.size(), 128u);
    EXPECT_EQ(*chunks.begin(), blockStart + kt * 2048u) << "tile " << kt;
    EXPECT_EQ(*chunks.rbegin(), blockStart + kt * 2048u + 2048 - 16) << "tile " << kt;
  }
  // and a lane's two scale words (rows g, g + 8) are one aligned 8-byte pair
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, c = lane % 4;
    const size_t top = scaleWordOffset(block * kBlockRows + g, 4 + c, K);
    EXPECT_EQ(scaleWordOffset(block * kBlockRows + g + 8, 4 + c, K), top + 4);
    EXPECT_EQ(top % 8, 0u);
  }
}

// gemv.cuh's loadKTile: lane (g, c) at wholeTileChunkOffset(g, c, 0) of its block; chunk j = 2h + u
// of whole tile kt: + kt * 2048 + 1024 h + 16 u; of the partial tile: + kt * 2048 + 32 g (cw - 4) + 256 cw h + 16 u.
TEST(W4a16WeightLayout, GemvLaneStepsMatchTheMap) {
  for (int K = 64; K <= 2048; K += 64) {
    const int whole = layoutWholeTiles(K), cw = layoutTileGroups(K, whole);
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, c = lane % 4;
      for (int kt = 0; kt * kLayoutTileK + c * 64 < K; ++kt)
        for (int j = 0; j < 4; ++j) {
          const int h = j / 2, u = j % 2;
          const size_t step = kt < whole ? size_t(kt) * 2048 + 1024 * h + 16 * u
                                         : size_t(kt) * 2048 + 32 * g * (cw - 4) + 256 * cw * h + 16 * u;
          EXPECT_EQ(wholeTileChunkOffset(g, c, 0) + step, blockChunkOffset(g + 8 * (j / 2), kt * 8 + 2 * c + j % 2, K))
              << "K=" << K << " lane " << lane << " tile " << kt << " load " << j;
          const size_t scaleStep = size_t(kt) * 256 + (kt < whole ? 0 : 8 * g * (cw - 4));
          EXPECT_EQ(size_t(wholeTileScaleOffset(g, c)) + scaleStep, blockScaleWordOffset(g + 8 * (j / 2), kt * 4 + c, K) - 4 * (j / 2));
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
