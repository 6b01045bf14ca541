// Checks the index maps of the w4a16 GEMVs (kernels/w4a16/gemv_layout.h) on
// the CPU: the lanes' chunks cover every k of a row exactly once, for every K
// the shapes allow (K % 64 == 0, partial last tiles included), and every row
// and chunk of a block exactly once; the scale bytes a lane takes are its
// words' groups; staging writes each activation piece where the lane of its k
// reads it, and a warp's 8 chunks hit 8 disjoint bank ranges; the k groups of
// the gate/up GEMV split a row's k tiles without gap or overlap. And a model
// of one warp's m16n8k16 MMAs as gemv.cuh issues them (its fragments, the
// zeros of the other MMA set, the halves added across quads) yields each
// block row's dot product in the lane that writes it.
#include "../../../kernels/w4a16/gemv_layout.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace {
using namespace archscope::w4a16;

TEST(W4a16GemvLayout, ChunksCoverEveryKOnce) {
  for (int K = 64; K <= 4096; K += 64) {
    std::vector<int> seen(K, 0);
    const int kTiles = (K + kGemvTileK - 1) / kGemvTileK;
    for (int q = 0; q < 8; ++q) {
      ASSERT_LE(gemvLaneKTiles(K, q), kTiles);
      for (int kt = 0; kt < gemvLaneKTiles(K, q); ++kt)
        for (int w = 0; w < 4; ++w)
          for (int k = gemvWordK(kt, q, w); k < gemvWordK(kt, q, w) + 8; ++k) {
            ASSERT_LT(k, K) << "K=" << K << " chunk " << q << " tile " << kt << " word " << w;
            ++seen[k];
          }
    }
    for (int k = 0; k < K; ++k) ASSERT_EQ(seen[k], 1) << "K=" << K << " k=" << k;
  }
}

TEST(W4a16GemvLayout, LanesCoverEveryRowAndChunkOfTheBlockOnce) {
  std::set<std::pair<int, int>> seen;
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < 4; ++j) {
      ASSERT_LT(gemvLaneRow(lane, j), 16);
      EXPECT_TRUE(seen.insert({gemvLaneRow(lane, j), gemvLaneChunk(lane)}).second) << "lane " << lane << " load " << j;
    }
  EXPECT_EQ(seen.size(), 128u);
  std::set<int> written; // and the writing lanes hold each of the 16 rows once
  for (int lane = 0; lane < 32; ++lane) {
    if (!gemvLaneWrites(lane)) continue;
    for (int half = 0; half < 2; ++half) EXPECT_TRUE(written.insert(gemvRowOfLane(lane) + 8 * half).second);
  }
  EXPECT_EQ(written.size(), 16u);
}

TEST(W4a16GemvLayout, ScaleBytesAreTheWordsGroups) {
  // gemv.cuh: word w of chunk q takes byte 2(q % 2) + w / 2 of the scale word
  // of 64-k group q / 2 (groups 4(q / 2) .. 4(q / 2) + 3 of the tile).
  for (int kt = 0; kt < 8; ++kt)
    for (int q = 0; q < 8; ++q)
      for (int w = 0; w < 4; ++w)
        EXPECT_EQ(gemvWordK(kt, q, w) / 16, kt * 16 + 4 * (q / 2) + 2 * (q % 2) + w / 2);
}

TEST(W4a16GemvLayout, StagedPiecesAreWhereTheLanesRead) {
  for (int K = 64; K <= 2048; K += 64) {
    const int kTiles = (K + kGemvTileK - 1) / kGemvTileK;
    std::set<int> offsets;
    for (int kt = 0; kt < kTiles; ++kt)
      for (int q = 0; q < 8; ++q)
        for (int w = 0; w < 4; ++w) {
          const int at = gemvActivationOffset(kt, q, w);
          EXPECT_EQ(at, gemvStagedOffset(gemvWordK(kt, q, w) / 8));
          EXPECT_EQ(at % 16, 0);
          EXPECT_LE(at + 16, gemvSharedBytes(K));
          EXPECT_TRUE(offsets.insert(at).second) << "two pieces at byte " << at;
        }
    EXPECT_EQ(gemvRowAndZerosBytes(K), 2 * gemvSharedBytes(K));
  }
}

TEST(W4a16GemvLayout, AWarpsEightChunksAreBankConflictFree) {
  for (int kt = 0; kt < 4; ++kt)
    for (int w = 0; w < 4; ++w) {
      std::set<int> banks; // a 16-byte read covers four of the 32 four-byte banks
      for (int q = 0; q < 8; ++q)
        for (int b = 0; b < 4; ++b) EXPECT_TRUE(banks.insert((gemvActivationOffset(kt, q, w) / 4 + b) % 32).second);
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

// One k tile of gemv.cuh's computeKTile on one warp, in exact integers. PTX's
// m16n8k16 fragments: lane (g, c) gives A rows g and g + 8 and B column g at k
// slots {2c, 2c + 1, 2c + 8, 2c + 9}, and holds D rows g, g + 8 at columns 2c,
// 2c + 1. For word w and MMA m (0, 1) of the word, the lane's four slots carry
// 4 of the word's 8 k (the same 4 in A and in B: mma.cuh's pair order is one
// bijection of them, so any fixed one models it).
TEST(W4a16GemvLayout, WarpMmasGiveEachRowsDotProduct) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> value(-6, 6);
  std::vector<long> W(16 * 256), x(256);
  for (auto& v : W) v = value(rng);
  for (auto& v : x) v = value(rng);
  const auto kOf = [](int lane, int w, int m, int slot) { // slot 0..3 of lane's 4 in MMA m of word w
    return gemvWordK(0, gemvLaneChunk(lane), w) + m * 4 + slot;
  };
  long d[32][4] = {}; // one accumulator for both MMA sets
  for (int s = 0; s < 2; ++s)
    for (int w = 0; w < 4; ++w)
      for (int m = 0; m < 2; ++m)
        for (int lane = 0; lane < 32; ++lane) { // D fragment of this lane: rows g, g + 8; columns 2c, 2c + 1
          const int g = lane / 4, c = lane % 4;
          for (int e = 0; e < 4; ++e) {
            const int mmaRow = g + 8 * (e / 2), column = 2 * c + e % 2;
            long sum = 0;
            for (int cc = 0; cc < 4; ++cc) {
              const int aLane = mmaRow % 8 * 4 + cc, bLane = column * 4 + cc;
              const int row = gemvLaneRow(aLane, s + 2 * (mmaRow / 8)); // load s (top) or s + 2 (bottom)
              const bool zeros = bLane / 8 % 2 != s;                    // gemvActivationBases
              // The MMA multiplies slot by slot, whatever k each side holds
              // there: a column whose half of k is not the A quad's is garbage,
              // which addKHalves must not read.
              for (int slot = 0; slot < 4; ++slot)
                sum += W[row * 256 + kOf(aLane, w, m, slot)] * (zeros ? 0 : x[kOf(bLane, w, m, slot)]);
            }
            d[lane][e] += sum;
          }
        }
  for (int lane = 0; lane < 32; ++lane) {
    if (!gemvLaneWrites(lane)) continue;
    const int g = lane / 4, partner = lane ^ 4;
    for (int half = 0; half < 2; ++half) { // addKHalves: column 2c + g % 2, plus the lane 4 apart
      const long got = d[lane][2 * half + g % 2] + d[partner][2 * half + (g ^ 1) % 2];
      const int row = gemvRowOfLane(lane) + 8 * half;
      long want = 0;
      for (int k = 0; k < 256; ++k) want += W[row * 256 + k] * x[k];
      EXPECT_EQ(got, want) << "lane " << lane << " row " << row;
    }
  }
}

} // namespace
