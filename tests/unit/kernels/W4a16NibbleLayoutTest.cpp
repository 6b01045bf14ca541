// Checks the repacked e2m1 word layout of the w4a16 GEMMs
// (kernels/w4a16/nibble_layout.h) on the CPU: the repack is a permutation of
// a word's 32 bits, and each pair the dequantizer unpacks from a repacked word
// is the bf16x2 of e2m1 * 2^-126 of the right two elements, sign included,
// for every value of every element.
#include "../../../kernels/w4a16/nibble_layout.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>

namespace {
using namespace archscope::w4a16;

/// bf16 bits of e2m1 nibble `n` times 2^-126, from the values themselves.
uint16_t expectedBf16(uint32_t n) {
  static const float kMagnitude[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  const float v = (n & 8 ? -1.0f : 1.0f) * kMagnitude[n & 7] * 0x1p-126f;
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return uint16_t(bits >> 16); // exact: at most 2 significant bits, in bf16's subnormal range
}

/// Pair P of NVFP4 word q: (k3-P low, k7-P high).
uint32_t expectedPair(uint32_t q, int p) {
  return expectedBf16((q >> (4 * (3 - p))) & 0xF) | (uint32_t(expectedBf16((q >> (4 * (7 - p))) & 0xF)) << 16);
}

uint32_t unpacked(uint32_t r, int p) {
  switch (p) {
  case 0: return unpackPair<0>(r);
  case 1: return unpackPair<1>(r);
  case 2: return unpackPair<2>(r);
  default: return unpackPair<3>(r);
  }
}

TEST(W4a16NibbleLayout, RepackMovesEveryBitToItsOwnPlace) {
  std::set<uint32_t> images;
  for (int bit = 0; bit < 32; ++bit) {
    const uint32_t r = repackNibbles(1u << bit);
    EXPECT_EQ(__builtin_popcount(r), 1) << "bit " << bit;
    images.insert(r);
  }
  EXPECT_EQ(images.size(), 32u);
}

TEST(W4a16NibbleLayout, EveryElementValueInEveryPosition) {
  for (int k = 0; k < 8; ++k)
    for (uint32_t n = 0; n < 16; ++n) {
      const uint32_t q = n << (4 * k); // element k = n, the others +0
      for (int p = 0; p < 4; ++p) EXPECT_EQ(unpacked(repackNibbles(q), p), expectedPair(q, p)) << "k" << k << "=" << n;
    }
}

TEST(W4a16NibbleLayout, RandomWordsUnpackToTheirFourPairs) {
  std::mt19937 random(7);
  for (int i = 0; i < 100000; ++i) {
    const uint32_t q = random();
    for (int p = 0; p < 4; ++p) ASSERT_EQ(unpacked(repackNibbles(q), p), expectedPair(q, p)) << std::hex << q;
  }
}

} // namespace
