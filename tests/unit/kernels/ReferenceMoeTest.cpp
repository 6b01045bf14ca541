//===--- ReferenceMoeTest.cpp - problem generator and fp64 MoE reference --===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "../../../kernels/common/moe_problem.h"
#include "../../../kernels/common/nvfp4.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

using namespace archscope;

namespace {

constexpr uint8_t kScaleOne = 0x38; // ue4m3 1.0

/// Every element of every row of `expert` is `code` with block scale 1.0.
void fillExpert(Nvfp4Weights& w, int expert, int rowBegin, int rowEnd, uint8_t code) {
  for (int r = rowBegin; r < rowEnd; ++r) {
    uint8_t* packed = const_cast<uint8_t*>(w.packedRow(expert, r));
    uint8_t* scales = const_cast<uint8_t*>(w.scaleRow(expert, r));
    for (int i = 0; i < w.cols / 2; ++i) packed[i] = uint8_t(code | (code << 4));
    for (int b = 0; b < w.cols / 16; ++b) scales[b] = kScaleOne;
  }
}

/// T=1, H=I=64, two experts, both routed (weights 0.25 and 0.75); x = 1/64.
/// W1: gate elements 1, up elements 2; W2 elements 0.5; expert 1 has global 2.
MoeProblem handProblem() {
  MoeProblem p;
  p.shape = {1, 64, 64, 2, 2};
  p.x.assign(64, floatToBf16Bits(1.0f / 64.0f));
  p.xGlobalScale = nvfp4::globalScaleFor(1.0f / 64.0f);
  p.topkIds = {1, 0};
  p.topkWeights = {0.75f, 0.25f};
  p.routed = {1, 1};
  p.w1.allocate(2, 128, 64);
  p.w2.allocate(2, 64, 64);
  for (int e = 0; e < 2; ++e) {
    fillExpert(p.w1, e, 0, 64, 0x2);  // 1.0
    fillExpert(p.w1, e, 64, 128, 0x4); // 2.0
    fillExpert(p.w2, e, 0, 64, 0x1);  // 0.5
  }
  p.w1.global = {1.0f, 2.0f};
  p.w2.global = {1.0f, 2.0f};
  return p;
}

double silu(double v) { return v / (1.0 + std::exp(-v)); }

/// The MoE written out as plainly as possible, for cross-checking.
std::vector<double> naiveMoe(const MoeProblem& p) {
  const MoeShape& s = p.shape;
  std::vector<double> out(size_t(s.tokens) * s.hidden, 0.0), w1(s.hidden), w2(s.inter), act(s.inter);
  for (int t = 0; t < s.tokens; ++t)
    for (int j = 0; j < s.topk; ++j) {
      const int e = p.topkIds[t * s.topk + j];
      for (int i = 0; i < s.inter; ++i) {
        double gate = 0, up = 0;
        p.w1.dequantizeRow(e, i, w1.data());
        for (int h = 0; h < s.hidden; ++h) gate += w1[h] * bf16BitsToFloat(p.x[t * s.hidden + h]);
        p.w1.dequantizeRow(e, s.inter + i, w1.data());
        for (int h = 0; h < s.hidden; ++h) up += w1[h] * bf16BitsToFloat(p.x[t * s.hidden + h]);
        act[i] = silu(gate) * up;
      }
      for (int h = 0; h < s.hidden; ++h) {
        p.w2.dequantizeRow(e, h, w2.data());
        double y = 0;
        for (int i = 0; i < s.inter; ++i) y += w2[i] * act[i];
        out[t * s.hidden + h] += p.topkWeights[t * s.topk + j] * y;
      }
    }
  return out;
}

} // namespace

TEST(ReferenceMoe, HandComputedCase) {
  const MoeProblem p = handProblem();
  // Expert e with global g: gate = g, up = 2g, act = silu(g) * 2g, and every
  // W2 output = 64 * 0.5g * act.
  auto act = [](double g) { return silu(g) * 2 * g; };
  const double expected = 0.25 * 32 * act(1.0) + 0.75 * 64 * act(2.0);
  const MoeReference ref = referenceMoe(p, {0}, false, 2);
  ASSERT_EQ(ref.out.size(), 64u);
  for (double v : ref.out) EXPECT_NEAR(v, expected, 1e-12 * expected);
}

TEST(ReferenceMoe, HandComputedCaseWithQuantizedActivations) {
  const MoeProblem p = handProblem();
  auto act = [](double g) { return silu(g) * 2 * g; };
  // x = 1/64 is exact in NVFP4; the activations share one global scale
  // calibrated on the larger, act(2), which is then exact too, while act(1)
  // rounds: its block scale 448 * act(1)/act(2) = 92.9 becomes 96, and
  // act(1) / (96 * global) = 5.81 becomes e2m1 6.
  const MoeReference ref = referenceMoe(p, {0}, true, 2);
  const float global = nvfp4::globalScaleFor(float(act(2.0)));
  EXPECT_EQ(ref.actGlobalScale, global);
  const double act1 = 6.0 * 96.0 * global, act2 = 6.0 * 448.0 * global;
  EXPECT_NEAR(act2, act(2.0), 1e-6);
  const double expected = 0.25 * 32 * act1 + 0.75 * 64 * act2;
  for (double v : ref.out) EXPECT_NEAR(v, expected, 1e-12 * expected);
}

TEST(ReferenceMoe, MatchesNaiveLoopsOnARandomProblem) {
  const MoeProblem p = makeMoeProblem({5, 128, 64, 6, 3}, 7, 3);
  const std::vector<double> naive = naiveMoe(p);
  const MoeReference ref = referenceMoe(p, checkedTokens(5, 64, 7), false, 3);
  ASSERT_EQ(ref.out.size(), naive.size());
  for (size_t i = 0; i < naive.size(); ++i) EXPECT_NEAR(ref.out[i], naive[i], 1e-12);
}

TEST(ReferenceMoe, SubsetRowsEqualTheFullReference) {
  const MoeProblem p = makeMoeProblem({40, 64, 64, 8, 2}, 11, 2);
  const std::vector<int> subset = checkedTokens(40, 6, 11);
  ASSERT_EQ(subset.size(), 6u);
  EXPECT_TRUE(std::is_sorted(subset.begin(), subset.end()));
  EXPECT_EQ(std::set<int>(subset.begin(), subset.end()).size(), 6u);
  const MoeReference full = referenceMoe(p, checkedTokens(40, 40, 11), false, 2);
  const MoeReference part = referenceMoe(p, subset, false, 2);
  for (size_t row = 0; row < subset.size(); ++row)
    for (int h = 0; h < 64; ++h) EXPECT_EQ(part.out[row * 64 + h], full.out[size_t(subset[row]) * 64 + h]);
}

TEST(ReferenceMoe, RoutingIsTopkOfASoftmax) {
  const MoeProblem p = makeMoeProblem({64, 64, 64, 16, 4}, 3, 2);
  for (int t = 0; t < 64; ++t) {
    std::set<int> experts;
    double sum = 0;
    for (int j = 0; j < 4; ++j) {
      const int e = p.topkIds[t * 4 + j];
      const float w = p.topkWeights[t * 4 + j];
      EXPECT_TRUE(e >= 0 && e < 16);
      EXPECT_GT(w, 0.0f);
      if (j > 0) {
        EXPECT_LE(w, p.topkWeights[t * 4 + j - 1]); // descending, like the logits
      }
      experts.insert(e);
      sum += w;
      EXPECT_TRUE(p.routed[e]);
    }
    EXPECT_EQ(experts.size(), 4u);
    EXPECT_NEAR(sum, 1.0, 1e-6);
  }
}

TEST(ReferenceMoe, QuietBlocksGiveEvenExpertsExponentZeroScales) {
  const MoeShape shape{6, 128, 64, 8, 3};
  const MoeProblem plain = makeMoeProblem(shape, 21, 2), quiet = makeMoeProblem(shape, 21, 2, true);
  EXPECT_EQ(plain.routedExpertsWithExponentZeroScales(), 0);
  int evenRouted = 0;
  for (int e = 0; e < shape.experts; e += 2) evenRouted += quiet.routed[e];
  ASSERT_GT(evenRouted, 0);
  EXPECT_EQ(quiet.routedExpertsWithExponentZeroScales(), evenRouted) << "every even expert, no odd one";
  const size_t w2Bytes = size_t(quiet.w2.rows) * quiet.w2.cols / 2;
  for (int e = 1; e < shape.experts; e += 2)
    EXPECT_TRUE(std::equal(quiet.w2.packedRow(e, 0), quiet.w2.packedRow(e, 0) + w2Bytes, plain.w2.packedRow(e, 0)))
        << "odd expert " << e << " unchanged";
  const std::vector<double> naive = naiveMoe(quiet);
  const MoeReference ref = referenceMoe(quiet, checkedTokens(6, 64, 21), false, 2);
  for (size_t i = 0; i < naive.size(); ++i) EXPECT_NEAR(ref.out[i], naive[i], 1e-12);
}

TEST(ReferenceMoe, GenerationIsDeterministicAndThreadIndependent) {
  const MoeProblem a = makeMoeProblem({9, 64, 128, 8, 2}, 99, 1);
  const MoeProblem b = makeMoeProblem({9, 64, 128, 8, 2}, 99, 4);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.topkIds, b.topkIds);
  EXPECT_EQ(a.w1.packed, b.w1.packed);
  EXPECT_EQ(a.w2.scales, b.w2.scales);
  EXPECT_EQ(a.w1.global, b.w1.global);
  const MoeProblem c = makeMoeProblem({9, 64, 128, 8, 2}, 100, 1);
  EXPECT_NE(a.x, c.x);
}

TEST(ReferenceMoe, PrefixOfAProblemIsTheSmallerProblem) {
  MoeProblem big = makeMoeProblem({20, 64, 64, 8, 2}, 5, 2);
  const MoeProblem small = makeMoeProblem({3, 64, 64, 8, 2}, 5, 2);
  truncateTokens(big, 3);
  EXPECT_EQ(big.x, small.x);
  EXPECT_EQ(big.topkIds, small.topkIds);
  EXPECT_EQ(big.topkWeights, small.topkWeights);
  EXPECT_EQ(big.routed, small.routed);
  EXPECT_EQ(big.xGlobalScale, small.xGlobalScale);
  EXPECT_EQ(big.routedWeightBytes(), small.routedWeightBytes());
}

TEST(ReferenceMoe, OnlyRoutedExpertsAreGenerated) {
  const MoeProblem p = makeMoeProblem({1, 64, 64, 32, 2}, 1, 2);
  EXPECT_EQ(p.routedExperts(), 2);
  EXPECT_EQ(p.routedWeightBytes(), 2 * (p.w1.bytesPerExpert() + p.w2.bytesPerExpert()));
  for (int e = 0; e < 32; ++e) {
    const bool anyByte = *std::max_element(p.w1.scaleRow(e, 0), p.w1.scaleRow(e, 0) + 4) != 0;
    EXPECT_EQ(anyByte, bool(p.routed[e])) << e;
  }
}

TEST(ReferenceMoe, QuantizationErrorIsWithinOneStepPerElement) {
  std::vector<float> row(1024);
  for (size_t i = 0; i < row.size(); ++i) row[i] = float(std::sin(0.37 * i) * std::exp(0.004 * i));
  float amax = 0;
  for (float v : row) amax = std::max(amax, std::fabs(v));
  const float global = nvfp4::globalScaleFor(amax);
  std::vector<uint8_t> packed(512), scales(64);
  quantizeRow(row.data(), 1024, global, packed.data(), scales.data());
  std::vector<double> roundTrip(row.begin(), row.end());
  fakeQuantizeRow(roundTrip.data(), 1024, global);
  for (int k = 0; k < 1024; ++k) {
    // The e2m1 grid's widest gap is 2 steps (4..6) and the scale's rounding
    // overshoots 6 by at most 1/16: one step bounds the error everywhere.
    const double step = double(nvfp4::ue4m3ToFloat(scales[k / 16])) * global;
    EXPECT_LE(std::fabs(roundTrip[k] - row[k]), step * (1 + 1e-6)) << k;
    const int nibble = (packed[k / 2] >> (4 * (k & 1))) & 0xF;
    EXPECT_EQ(roundTrip[k], nvfp4::e2m1ToFloat(uint8_t(nibble)) * step);
  }
}

TEST(ReferenceMoe, WeightsHaveTheRequestedSpread) {
  const MoeProblem p = makeMoeProblem({1, 1024, 256, 1, 1}, 21, 2);
  std::vector<double> row(1024);
  double sumSquares = 0;
  for (int r = 0; r < 512; ++r) {
    p.w1.dequantizeRow(0, r, row.data());
    for (double v : row) sumSquares += v * v;
  }
  EXPECT_NEAR(std::sqrt(sumSquares / (512.0 * 1024)), 1.0 / 32.0, 0.1 / 32.0); // 1/sqrt(H)
}

TEST(ReferenceMoe, RelativeErrorRejectsNaNAndMeasuresTheWorstElement) {
  MoeReference ref;
  ref.tokens = {1};
  ref.out = {2.0, -4.0};
  std::vector<float> out = {9, 9, 2.5f, -4.0f}; // token 0 is not checked
  EXPECT_DOUBLE_EQ(maxRelativeError(ref, out.data(), 2), 0.125);
  out[3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isinf(maxRelativeError(ref, out.data(), 2)));
}
