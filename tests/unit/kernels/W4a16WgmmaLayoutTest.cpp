// Checks the k order and row maps of the w4a16 wgmma path
// (kernels/w4a16/wgmma_layout.h) on the CPU: one BK = 64 k tile of a
// warpgroup (64 weight rows) is dequantized into A fragments the way
// gemm_wgmma.cuh does it (nibble_layout.h's repack and unpack, pairs (k3,k7)
// (k2,k6) (k1,k5) (k0,k4) of each word), the fragments are read back into
// matrices through CUTLASS's SM90 RS layout ALayout_64x16 evaluated literally
// (Shape ((4,8,4),(2,2,2)), Stride ((128,1,16),(64,8,512)) over (m + 64 k)),
// the activations are permuted as prepareRouting does (its __byte_perm
// selectors emulated) and read as wgmma reads B (K-major, row n, logical k
// 16s + j), and the four k16 products must equal the plain dot products over
// real k (the block scales read as the loader stores them and the kernel decodes them).
// Also: the row maps, the scale and copy tables, the swizzled addresses, the balanced tile cut.
#include "../../../kernels/common/nvfp4.h"
#include "../../../kernels/w4a16/nibble_layout.h"
#include "../../../kernels/w4a16/wgmma_layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <vector>

namespace {
using namespace archscope::w4a16;

// ---- emulated device steps ---------------------------------------------------
float bf16Bits(uint16_t b) {
  const uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// gemm_wgmma.cuh dequantPair<P> before the scale multiply, on NVFP4 word q as
// the kernel sees it (repacked at load time): e2m1 * 2^-126 in each half.
uint32_t dequantPairBits(uint32_t q, int p) {
  const uint32_t r = repackNibbles(q);
  switch (p) {
  case 0: return unpackPair<0>(r);
  case 1: return unpackPair<1>(r);
  case 2: return unpackPair<2>(r);
  default: return unpackPair<3>(r);
  }
}
// Values of the two halves, block scale applied (the kernel's 2^118 bias and its 2^8 undo cancel).
void pairValues(uint32_t q, int p, float scale, double& lo, double& hi) {
  const uint32_t v = dequantPairBits(q, p);
  lo = double(bf16Bits(uint16_t(v))) * std::ldexp(1.0, 126) * scale;
  hi = double(bf16Bits(uint16_t(v >> 16))) * std::ldexp(1.0, 126) * scale;
}
uint32_t bytePerm(uint32_t x, uint32_t y, uint32_t s) { // __byte_perm, selector nibbles 0..7
  const uint64_t v = uint64_t(x) | (uint64_t(y) << 32);
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= uint32_t((v >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i);
  return r;
}
// routing.cuh permuteActivations64 on 64 bf16 bit patterns.
std::vector<uint16_t> permute64(const std::vector<uint16_t>& in) {
  uint32_t v[32];
  for (int m = 0; m < 32; ++m) v[m] = uint32_t(in[2 * m]) | (uint32_t(in[2 * m + 1]) << 16);
  std::vector<uint16_t> out(64);
  for (int m = 0; m < 32; ++m) {
    const int lo = wgmmaRealK(2 * m), hi = wgmmaRealK(2 * m + 1);
    const uint32_t o = bytePerm(v[lo >> 1], v[hi >> 1], ((lo & 1) ? 0x32 : 0x10) | ((hi & 1) ? 0x7600 : 0x5400));
    out[2 * m] = uint16_t(o), out[2 * m + 1] = uint16_t(o >> 16);
  }
  return out;
}
uint16_t floatToBf16Bits(float f) { // inputs here are exactly representable
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16);
}

// ---- CUTLASS ALayout_64x16 (RS A operand), evaluated literally ---------------
struct MK {
  int m, k;
};
MK aLayout64x16(int thread, int value) {
  const int t0 = thread % 4, t1 = (thread / 4) % 8, t2 = thread / 32;
  const int v0 = value % 2, v1 = (value / 2) % 2, v2 = value / 4;
  const int offset = 128 * t0 + 1 * t1 + 16 * t2 + 64 * v0 + 8 * v1 + 512 * v2; // over (m + 64 k)
  return {offset % 64, offset / 64};
}

TEST(W4a16WgmmaLayout, RealKAndPositionAreInverseBijections) {
  std::set<int> seen;
  for (int L = 0; L < 64; ++L) {
    const int k = wgmmaRealK(L);
    ASSERT_GE(k, 0);
    ASSERT_LT(k, 64);
    seen.insert(k);
    EXPECT_EQ(wgmmaPosition(k), L);
  }
  EXPECT_EQ(seen.size(), 64u);
}

TEST(W4a16WgmmaLayout, ALayoutIsTheMma16816FragmentPerWarp) {
  // Register r = value/2 holds values 2r, 2r+1: rows g / g+8, k 2c.. / 2c+8..
  for (int t = 0; t < 128; ++t)
    for (int v = 0; v < 8; ++v) {
      const int w = t / 32, g = (t % 32) / 4, c = t % 4;
      const MK e = aLayout64x16(t, v);
      EXPECT_EQ(e.m, 16 * w + g + ((v / 2) % 2) * 8);
      EXPECT_EQ(e.k, 2 * c + (v % 2) + (v / 4) * 8);
    }
}

TEST(W4a16WgmmaLayout, FragmentsTimesPermutedActivationsGivePlainDotProducts) {
  std::mt19937 rng(20261104);
  std::uniform_int_distribution<int> nibble(0, 15), scaleByte(0x20, 0x50), small(-64, 64);
  constexpr int kRows = 64, kCols = 24;
  // Weights: real k order, nibbles packed two per byte (even k low).
  std::vector<uint8_t> packed(kRows * 32);
  std::vector<uint8_t> scales(kRows * 4);
  double w[kRows][64];
  for (int r = 0; r < kRows; ++r) {
    for (int b = 0; b < 4; ++b) scales[r * 4 + b] = uint8_t(scaleByte(rng));
    for (int k = 0; k < 64; k += 2) {
      const int lo = nibble(rng), hi = nibble(rng);
      packed[r * 32 + k / 2] = uint8_t(lo | (hi << 4));
      w[r][k] = archscope::nvfp4::e2m1ToFloat(uint8_t(lo)) * archscope::nvfp4::ue4m3ToFloat(scales[r * 4 + k / 16]);
      w[r][k + 1] = archscope::nvfp4::e2m1ToFloat(uint8_t(hi)) * archscope::nvfp4::ue4m3ToFloat(scales[r * 4 + k / 16]);
    }
  }
  // Activations: real order per column, then stored permuted (prepareRouting).
  double x[kCols][64];
  std::vector<std::vector<uint16_t>> stored(kCols);
  for (int n = 0; n < kCols; ++n) {
    std::vector<uint16_t> bits(64);
    for (int k = 0; k < 64; ++k) {
      x[n][k] = small(rng) / 16.0;
      bits[k] = floatToBf16Bits(float(x[n][k]));
    }
    stored[n] = permute64(bits);
    for (int L = 0; L < 64; ++L) ASSERT_EQ(stored[n][L], bits[wgmmaRealK(L)]) << "byte_perm selectors";
  }
  // The stage's scale block as the loader writes it (row l's word at wgmmaScaleOffset(l)).
  std::vector<uint8_t> scaleStage(kRows * 4);
  for (int r = 0; r < kRows; ++r) std::memcpy(&scaleStage[wgmmaScaleOffset(r)], &scales[r * 4], 4);
  // A fragments as gemm_wgmma.cuh builds them: lane (g, c) of warp wq, rows 16wq+g (+8),
  // words top/bottom .x (w = 0) and .y (w = 1) at bytes 8c.., step s = 2w + h; the two
  // rows' scales from one 8-byte load at 64wq + 8g, byte c of each word (scalePair).
  double a[4][64][16] = {}; // [step][m][logical k], reassembled through ALayout_64x16
  for (int t = 0; t < 128; ++t) {
    const int wq = t / 32, lane = t % 32, g = lane / 4, c = lane % 4;
    uint32_t words[2];
    std::memcpy(words, &scaleStage[64 * wq + 8 * g], 8);
    const uint32_t pair = wgmmaNormalScalePair(bytePerm(words[0], words[1], 0x4400u + 0x1111u * c) & 0x007F007Fu);
    for (int s = 0; s < 4; ++s) {
      const int wIdx = s / 2, h = s % 2;
      double values[8];
      for (int half = 0; half < 2; ++half) { // rows g, g+8
        const int row = 16 * wq + g + 8 * half;
        uint32_t q;
        std::memcpy(&q, &packed[row * 32 + 8 * c + 4 * wIdx], 4);
        const float scale = float(bf16Bits(uint16_t(pair >> (16 * half))) * std::ldexp(1.0, -118));
        ASSERT_EQ(scale, archscope::nvfp4::ue4m3ToFloat(scales[row * 4 + c])) << "row " << row << " block " << c;
        double lo, hi;
        pairValues(q, 2 * h, scale, lo, hi); // register 0 (top) / 1 (bottom)
        values[2 * half] = lo, values[2 * half + 1] = hi;
        pairValues(q, 2 * h + 1, scale, lo, hi); // register 2 (top) / 3 (bottom)
        values[4 + 2 * half] = lo, values[4 + 2 * half + 1] = hi;
      }
      for (int v = 0; v < 8; ++v) {
        const MK e = aLayout64x16(t, v);
        a[s][e.m][e.k] = values[v];
      }
    }
  }
  // wgmma: D[m][n] = sum_s sum_j A_s[m][j] * B[16s + j][n], B[L][n] = stored[n][L].
  for (int m = 0; m < kRows; ++m)
    for (int n = 0; n < kCols; ++n) {
      double d = 0.0, ref = 0.0;
      for (int s = 0; s < 4; ++s)
        for (int j = 0; j < 16; ++j) d += a[s][m][j] * double(bf16Bits(stored[n][16 * s + j]));
      for (int k = 0; k < 64; ++k) ref += w[m][k] * x[n][k];
      ASSERT_NEAR(d, ref, 1e-9 * (1.0 + std::fabs(ref))) << "row " << m << " column " << n;
    }
}

TEST(W4a16WgmmaLayout, ScaleWordsOfALanesTwoRowsAreAdjacent) {
  std::set<int> offsets;
  for (int l = 0; l < 128; ++l) {
    const int o = wgmmaScaleOffset(l);
    EXPECT_EQ(o % 4, 0);
    offsets.insert(o);
    if ((l & 8) == 0) {
      EXPECT_EQ(wgmmaScaleOffset(l + 8), o + 4) << "rows g and g+8 in one 8-byte word pair";
      EXPECT_EQ(o, 64 * (l >> 4) + 8 * (l & 7)) << "the lane's load address";
    }
  }
  EXPECT_EQ(offsets.size(), 128u);
  EXPECT_EQ(*offsets.rbegin(), 127 * 4) << "a permutation of the 512-byte block";
}

TEST(W4a16WgmmaLayout, NormalScalePairIsTheBiasedScaleExactly) {
  // Both halves: bf16(ue4m3 * 2^118) for every normal byte (exponent field 1..15, not NaN).
  for (int lo = 8; lo < 0x7F; ++lo)
    for (int hi : {8, 0x38, lo, 0x7E}) {
      const uint32_t pair = wgmmaNormalScalePair(uint32_t(lo) | (uint32_t(hi) << 16));
      EXPECT_EQ(bf16Bits(uint16_t(pair)) * std::ldexp(1.0, -118), archscope::nvfp4::ue4m3ToFloat(uint8_t(lo)));
      EXPECT_EQ(bf16Bits(uint16_t(pair >> 16)) * std::ldexp(1.0, -118), archscope::nvfp4::ue4m3ToFloat(uint8_t(hi)));
    }
}

TEST(W4a16WgmmaLayout, CopySlotsListEachThreadRowsOffsetsContiguously) {
  for (int stride : {4, 8}) {
    std::set<int> rows;
    for (int slot = 0; slot < 32 * stride; ++slot) {
      const int n = wgmmaCopyRow(slot, stride);
      rows.insert(n);
      EXPECT_EQ(wgmmaCopySlot(n, stride), slot);
      EXPECT_EQ(n % 32, slot / stride) << "thread row r = t / 8 copies rows r + 32 i";
    }
    EXPECT_EQ(rows.size(), size_t(32 * stride));
    EXPECT_EQ(*rows.rbegin(), 32 * stride - 1);
  }
}

TEST(W4a16WgmmaLayout, GateUpRowsPairGateWithUpAndStoreInDownKOrder) {
  constexpr int kInter = 320;
  for (int block = 0; block < 2 * kInter / 128; ++block) {
    const int tileRow0 = 128 * block;
    std::set<int> rows;
    for (int l = 0; l < 128; ++l) {
      const int row = wgmmaWeightRow<true>(tileRow0, l, kInter);
      rows.insert(row);
      const int i = (l & 8) ? row - kInter : row;
      EXPECT_GE(i, tileRow0 / 2);
      EXPECT_LT(i, tileRow0 / 2 + 64);
      if (l & 8) {
        EXPECT_EQ(row, wgmmaWeightRow<true>(tileRow0, l - 8, kInter) + kInter) << "up row of the same i";
      }
      // The epilogue writes i at column tileRow0/2 + 8 * (l/16) + (l%8); the down GEMM reads
      // position L of a group as real k wgmmaRealK(L).
      const int column = tileRow0 / 2 + 8 * (l >> 4) + (l & 7);
      EXPECT_EQ(tileRow0 / 2 + wgmmaRealK(column - tileRow0 / 2), i);
    }
    EXPECT_EQ(rows.size(), 128u);
  }
}

TEST(W4a16WgmmaLayout, DownRowsAreAdjacentPairsPerLane) {
  std::set<int> rows;
  for (int l = 0; l < 128; ++l) {
    const int h = wgmmaWeightRow<false>(256, l, 0);
    rows.insert(h);
    const int slab = l >> 4, g = l & 7;
    EXPECT_EQ(h, 256 + 16 * slab + 2 * g + ((l >> 3) & 1)); // the epilogue's h (+1 for row g+8)
  }
  EXPECT_EQ(rows.size(), 128u);
  EXPECT_EQ(*rows.begin(), 256);
  EXPECT_EQ(*rows.rbegin(), 383);
}

TEST(W4a16WgmmaLayout, DescriptorStepsReadWhatTheLoaderWrote) {
  // wgmma's 128-byte swizzle on a 1024-aligned K-major tile: address bits [4,7) ^= bits [7,10);
  // k step s starts at +32 s bytes, 8-row groups 1024 bytes apart (SBO).
  for (int n = 0; n < 256; ++n)
    for (int L = 0; L < 64; ++L) {
      const int s = L / 16, j = L % 16;
      const int linear = 32 * s + 1024 * (n / 8) + 128 * (n % 8) + 2 * j;
      const int physical = linear ^ (((linear >> 7) & 7) << 4);
      EXPECT_EQ(physical, swizzle128Offset(n, L / 8) + 2 * (L % 8));
    }
}

TEST(W4a16WgmmaLayout, BalancedTilesCoverEveryPairWithinBounds) {
  for (int tileTokens : {64, 256})
    for (int round : {8, 16})
      for (int c = 1; c <= 1000; ++c) {
        const int size = balancedTileSize(c, tileTokens, round);
        const int tiles = (c + size - 1) / size;
        EXPECT_LE(size, tileTokens);
        EXPECT_LE(tiles, (c + tileTokens - 1) / tileTokens) << "more tiles than maxGemmTiles counts";
        EXPECT_GE(size * tiles, c);
        EXPECT_EQ(size % round == 0 || size == tileTokens, true);
        EXPECT_LT(size * (tiles - 1), c) << "an empty last tile";
      }
  EXPECT_EQ(balancedTileSize(140, 256, 16), 144);
  EXPECT_EQ(balancedTileSize(270, 256, 16), 144);
}

} // namespace
