// Checks the shared-memory layout of the w4a16 mma.sync tiles
// (kernels/w4a16/tile_layout.h) on the CPU, for the layouts the
// configurations of moe.cuh use: BK = 256 with one k group (decode: a lane
// reads two 16-byte weight chunks per row) and two (decode-k2: one chunk),
// BK = 128 (medium) and BK = 64 (prefill). For every LDS.128 phase of a
// warp (rows g, g+1 x the 4 lanes of a quad) the 8 reads must hit 8
// distinct 16-byte bank groups, each swizzle must be a permutation of a
// row's chunks (what the loader writes is what computeStage reads), and
// the gate/up row map must give each lane gate row i and up row I + i.
#include "../../../kernels/w4a16/tile_layout.h"

#include <gtest/gtest.h>

#include <set>

namespace {
using namespace archscope::w4a16;

/// 16-byte bank group (0..7) of a byte offset in shared memory.
int bankGroup(int byteOffset) { return (byteOffset / 16) % 8; }

/// The weight reads of one phase: rows g0, g0+1, quad lanes 0..3 of k group kg, part `part`.
template <int BK, int WORDS> std::set<int> weightPhase(int g0, int kg, int part) {
  std::set<int> groups;
  for (int row = g0; row < g0 + 2; ++row)
    for (int c = 0; c < 4; ++c) {
      const int slot = kg * 4 + c;
      const int chunk = weightChunkSwizzle<BK, WORDS>(row, slot * (WORDS / 4) + part);
      groups.insert(bankGroup(row * (BK / 2) + chunk * 16));
    }
  return groups;
}

/// The activation reads of one phase: rows n0, n0+1 (pairs), word w of each lane's slot.
template <int BK, int WORDS> std::set<int> activationPhase(int n0, int kg, int w) {
  std::set<int> groups;
  for (int n = n0; n < n0 + 2; ++n)
    for (int c = 0; c < 4; ++c) {
      const int slot = kg * 4 + c;
      groups.insert(bankGroup(n * (BK * 2) + activationChunkSwizzle<BK, WORDS>(n, slot * WORDS + w) * 16));
    }
  return groups;
}

template <int BK, int WORDS, int KGROUPS> void expectConflictFreeWeights() {
  for (int g0 = 0; g0 < 64; g0 += 2)
    for (int kg = 0; kg < KGROUPS; ++kg)
      for (int part = 0; part < WORDS / 4; ++part)
        EXPECT_EQ((weightPhase<BK, WORDS>(g0, kg, part).size()), 8u)
            << "BK " << BK << " words " << WORDS << " rows " << g0 << " group " << kg << " part " << part;
}

template <int BK, int WORDS, int KGROUPS> void expectConflictFreeActivations() {
  for (int n0 = 0; n0 < 8; n0 += 2)
    for (int kg = 0; kg < KGROUPS; ++kg)
      for (int w = 0; w < WORDS; ++w)
        EXPECT_EQ((activationPhase<BK, WORDS>(n0, kg, w).size()), 8u)
            << "BK " << BK << " words " << WORDS << " rows " << n0 << " group " << kg << " word " << w;
}

template <int BK, int WORDS> void expectPermutations() {
  for (int row = 0; row < 4; ++row) {
    std::set<int> weights, activations;
    for (int chunk = 0; chunk < BK / 32; ++chunk) weights.insert(weightChunkSwizzle<BK, WORDS>(row, chunk));
    for (int q = 0; q < BK / 8; ++q) activations.insert(activationChunkSwizzle<BK, WORDS>(row, q));
    EXPECT_EQ(weights.size(), size_t(BK / 32));
    EXPECT_EQ(*weights.rbegin(), BK / 32 - 1);
    EXPECT_EQ(activations.size(), size_t(BK / 8));
    EXPECT_EQ(*activations.rbegin(), BK / 8 - 1);
  }
}

TEST(W4a16TileLayout, DecodeTileReadsAreConflictFree) {
  expectConflictFreeWeights<256, 8, 1>();
  expectConflictFreeActivations<256, 8, 1>();
}

TEST(W4a16TileLayout, TwoKGroupsReadsAreConflictFree) {
  expectConflictFreeWeights<256, 4, 2>();
  expectConflictFreeActivations<256, 4, 2>();
}

TEST(W4a16TileLayout, MediumTileActivationReadsAreConflictFree) {
  // 64-byte weight rows: rows g and g+1 fill one 128-byte line unswizzled.
  expectConflictFreeWeights<128, 4, 1>();
  expectConflictFreeActivations<128, 4, 1>();
}

TEST(W4a16TileLayout, SwizzlesPermuteEachRowsChunks) {
  expectPermutations<256, 8>();
  expectPermutations<256, 4>();
  expectPermutations<128, 4>();
  expectPermutations<64, 2>();
}

TEST(W4a16TileLayout, UnswizzledWeightsWouldConflict) {
  // Why the weight swizzle exists: without it, rows g and g+1 of 128-byte rows
  // put lane c's chunk 2c on the same bank group.
  std::set<int> groups;
  for (int row = 0; row < 2; ++row)
    for (int c = 0; c < 4; ++c) groups.insert(bankGroup(row * 128 + 2 * c * 16));
  EXPECT_EQ(groups.size(), 4u);
}

TEST(W4a16TileLayout, GateUpRowsPairGateWithUp) {
  constexpr int kInter = 2048;
  for (int tileRow0 = 0; tileRow0 < 4 * 64; tileRow0 += 64) {
    std::set<int> rows;
    for (int l = 0; l < 64; ++l) {
      rows.insert(weightRow<true>(tileRow0, l, kInter));
      if ((l & 8) == 0) {
        EXPECT_EQ(weightRow<true>(tileRow0, l + 8, kInter), weightRow<true>(tileRow0, l, kInter) + kInter);
      }
    }
    EXPECT_EQ(rows.size(), 64u);
    // 32 gate rows starting at tileRow0 / 2 and the same 32 up rows.
    EXPECT_EQ(*rows.begin(), tileRow0 / 2);
    EXPECT_EQ(*rows.rbegin(), kInter + tileRow0 / 2 + 31);
  }
  EXPECT_EQ(weightRow<false>(128, 5, kInter), 133);
}

} // namespace
