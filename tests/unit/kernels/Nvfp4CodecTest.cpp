//===--- Nvfp4CodecTest.cpp - e2m1 / ue4m3 codecs of kernels/common -------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "../../../kernels/common/nvfp4.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace archscope::nvfp4;

TEST(Nvfp4Codec, AllSixteenE2m1Codes) {
  const float magnitudes[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  for (int code = 0; code < 16; ++code) {
    const float value = e2m1ToFloat(uint8_t(code));
    EXPECT_EQ(std::fabs(value), magnitudes[code & 7]) << code;
    EXPECT_EQ(std::signbit(value), code >= 8) << code;
    EXPECT_EQ(floatToE2m1(value), code) << code; // -0 keeps its sign bit
  }
}

TEST(Nvfp4Codec, E2m1DecodeUsesLowNibbleOnly) {
  EXPECT_EQ(e2m1ToFloat(0xF5), e2m1ToFloat(0x05));
  EXPECT_EQ(e2m1ToFloat(0x3A), -1.0f);
}

TEST(Nvfp4Codec, E2m1TiesGoToTheEvenCode) {
  // Midpoints between neighbours: the code with mantissa bit 0 wins.
  EXPECT_EQ(floatToE2m1(0.25f), 0);  // 0 vs 0.5
  EXPECT_EQ(floatToE2m1(0.75f), 2);  // 0.5 vs 1
  EXPECT_EQ(floatToE2m1(1.25f), 2);  // 1 vs 1.5
  EXPECT_EQ(floatToE2m1(1.75f), 4);  // 1.5 vs 2
  EXPECT_EQ(floatToE2m1(2.5f), 4);   // 2 vs 3
  EXPECT_EQ(floatToE2m1(3.5f), 6);   // 3 vs 4
  EXPECT_EQ(floatToE2m1(5.0f), 6);   // 4 vs 6
  EXPECT_EQ(floatToE2m1(-3.5f), 0xE);
  EXPECT_EQ(floatToE2m1(-0.25f), 0x8);
}

TEST(Nvfp4Codec, E2m1RoundsToNearestOffTies) {
  EXPECT_EQ(floatToE2m1(std::nextafter(0.25f, 1.0f)), 1);
  EXPECT_EQ(floatToE2m1(std::nextafter(5.0f, 6.0f)), 7);
  EXPECT_EQ(floatToE2m1(std::nextafter(5.0f, 0.0f)), 6);
  EXPECT_EQ(floatToE2m1(2.9f), 5);
  EXPECT_EQ(floatToE2m1(-1.4f), 0xB);
}

TEST(Nvfp4Codec, E2m1Saturates) {
  EXPECT_EQ(floatToE2m1(6.5f), 7);
  EXPECT_EQ(floatToE2m1(1e30f), 7);
  EXPECT_EQ(floatToE2m1(-1e30f), 0xF);
  EXPECT_EQ(floatToE2m1(std::numeric_limits<float>::infinity()), 7);
  EXPECT_EQ(floatToE2m1(std::numeric_limits<float>::quiet_NaN()) & 7, 7);
}

TEST(Nvfp4Codec, Ue4m3RoundTripsEveryFiniteCode) {
  for (int code = 0; code < 0x7F; ++code) {
    const float value = ue4m3ToFloat(uint8_t(code));
    ASSERT_TRUE(std::isfinite(value)) << code;
    EXPECT_EQ(floatToUe4m3(value), code) << code << " = " << value;
  }
}

TEST(Nvfp4Codec, Ue4m3KnownValues) {
  EXPECT_EQ(ue4m3ToFloat(0x00), 0.0f);
  EXPECT_EQ(ue4m3ToFloat(0x01), std::ldexp(1.0f, -9)); // smallest subnormal
  EXPECT_EQ(ue4m3ToFloat(0x08), std::ldexp(1.0f, -6)); // smallest normal
  EXPECT_EQ(ue4m3ToFloat(0x38), 1.0f);
  EXPECT_EQ(ue4m3ToFloat(0x7E), 448.0f);
  EXPECT_TRUE(std::isnan(ue4m3ToFloat(0x7F)));
  EXPECT_EQ(ue4m3ToFloat(0x80 | 0x38), 1.0f); // the unused sign bit is ignored
}

TEST(Nvfp4Codec, Ue4m3TiesGoToTheEvenMantissa) {
  EXPECT_EQ(floatToUe4m3(1.0625f), 0x38);                      // 1 vs 1.125
  EXPECT_EQ(floatToUe4m3(1.1875f), 0x3A);                      // 1.125 vs 1.25
  EXPECT_EQ(floatToUe4m3(std::ldexp(1.5f, -9)), 0x02);         // subnormal 1 vs 2
  EXPECT_EQ(floatToUe4m3(std::ldexp(7.5f, -9)), 0x08);         // last subnormal vs first normal
  EXPECT_EQ(floatToUe4m3(15.5f), 0x58);                        // 15 vs 16: carry into the next binade
}

TEST(Nvfp4Codec, Ue4m3SaturatesAndClampsNegatives) {
  EXPECT_EQ(floatToUe4m3(447.9f), 0x7E);
  EXPECT_EQ(floatToUe4m3(470.0f), 0x7E);
  EXPECT_EQ(floatToUe4m3(1e9f), 0x7E);
  EXPECT_EQ(floatToUe4m3(std::numeric_limits<float>::infinity()), 0x7E);
  EXPECT_EQ(floatToUe4m3(-3.0f), 0x00);
  EXPECT_EQ(floatToUe4m3(std::ldexp(1.0f, -11)), 0x00); // below half the smallest subnormal
  EXPECT_EQ(floatToUe4m3(std::numeric_limits<float>::quiet_NaN()), 0x7F);
}

TEST(Nvfp4Codec, BlockScalePutsTheBlockMaximumOnSix) {
  const float global = globalScaleFor(3.0f); // tensor amax 3
  EXPECT_FLOAT_EQ(global, 3.0f / (6.0f * 448.0f));
  const uint8_t scale = blockScaleByte(3.0f, global); // the tensor's largest block
  EXPECT_EQ(scale, 0x7E);
  EXPECT_EQ(quantizeElement(3.0f, scale, global), 7);
  EXPECT_EQ(quantizeElement(-1.5f, scale, global), 0xD); // -3 * step
  EXPECT_EQ(quantizeElement(1.0f, 0, global), 0);        // all-zero block
  EXPECT_EQ(globalScaleFor(0.0f), 1.0f);
}
