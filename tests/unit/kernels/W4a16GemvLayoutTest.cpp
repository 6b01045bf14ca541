// Checks the index maps of the w4a16 GEMVs (kernels/w4a16/gemv_layout.h) on
// the CPU: over all lanes of a quad, the words each lane reads cover every k
// of a row exactly once, for every K the shapes allow (K % 64 == 0, partial
// last tiles included); a lane's four scales are its words' blocks; staging
// writes each activation chunk where the lane of its k reads it, inside the
// staged row; the four lanes of quad 0 read four disjoint bank ranges; and
// the k groups of the gate/up GEMV split a row's k tiles without gap or overlap.
#include "../../../kernels/w4a16/gemv_layout.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace {
using namespace archscope::w4a16;

TEST(W4a16GemvLayout, LanesCoverEveryKOnce) {
  for (int K = 64; K <= 4096; K += 64) {
    std::vector<int> seen(K, 0);
    const int kTiles = (K + kGemvTileK - 1) / kGemvTileK;
    for (int c = 0; c < 4; ++c) {
      ASSERT_LE(gemvLaneKTiles(K, c), kTiles);
      for (int kt = 0; kt < gemvLaneKTiles(K, c); ++kt)
        for (int w = 0; w < 8; ++w)
          for (int k = gemvWordK(kt, c, w); k < gemvWordK(kt, c, w) + 8; ++k) {
            ASSERT_LT(k, K) << "K=" << K << " lane " << c << " tile " << kt << " word " << w;
            ++seen[k];
          }
    }
    for (int k = 0; k < K; ++k) ASSERT_EQ(seen[k], 1) << "K=" << K << " k=" << k;
  }
}

TEST(W4a16GemvLayout, ScaleWordHoldsEachWordsBlock) {
  for (int kt = 0; kt < 8; ++kt)
    for (int c = 0; c < 4; ++c)
      for (int w = 0; w < 8; ++w) // the kernel takes byte w / 2 of the word at gemvScaleByte
        EXPECT_EQ(gemvWordK(kt, c, w) / 16, gemvScaleByte(kt, c) + w / 2);
}

TEST(W4a16GemvLayout, StagedChunksAreWhereTheLanesRead) {
  for (int K = 64; K <= 2048; K += 64) {
    const int kTiles = (K + kGemvTileK - 1) / kGemvTileK;
    std::set<int> offsets;
    for (int kt = 0; kt < kTiles; ++kt)
      for (int c = 0; c < 4; ++c)
        for (int w = 0; w < 8; ++w) {
          const int at = gemvActivationOffset(kt, c, w);
          EXPECT_EQ(at, gemvStagedOffset(gemvWordK(kt, c, w) / 8));
          EXPECT_EQ(at % 16, 0);
          EXPECT_LE(at + 16, gemvSharedBytes(K));
          EXPECT_TRUE(offsets.insert(at).second) << "two chunks at byte " << at;
        }
  }
}

TEST(W4a16GemvLayout, QuadZeroReadsAreBankConflictFree) {
  for (int kt = 0; kt < 4; ++kt)
    for (int w = 0; w < 8; ++w) {
      std::set<int> banks; // a 16-byte read covers four of the 32 four-byte banks
      for (int c = 0; c < 4; ++c)
        for (int b = 0; b < 4; ++b) EXPECT_TRUE(banks.insert((gemvActivationOffset(kt, c, w) / 4 + b) % 32).second);
    }
}

TEST(W4a16GemvLayout, KGroupsSplitTheTilesInOrder) {
  for (int kTiles = 1; kTiles <= 40; ++kTiles)
    for (int groups = 1; groups <= 4; ++groups) {
      int next = 0;
      for (int group = 0; group < groups; ++group) {
        const GemvTileRange r = gemvGroupTiles(kTiles, groups, group);
        ASSERT_EQ(r.first, next) << kTiles << " tiles, group " << group << " of " << groups;
        ASSERT_LE(r.first, r.last);
        ASSERT_LE(r.last - r.first, (kTiles + groups - 1) / groups);
        next = r.last;
      }
      ASSERT_EQ(next, kTiles) << kTiles << " tiles in " << groups << " groups";
    }
  const GemvTileRange qwen = gemvGroupTiles(16, 2, 1); // H = 4096: tiles 8..15
  EXPECT_EQ(qwen.first, 8);
  EXPECT_EQ(qwen.last, 16);
}

} // namespace
