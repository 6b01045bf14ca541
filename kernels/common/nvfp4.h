//===--- nvfp4.h - NVFP4 element and scale codecs (host and device) -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Vocabulary:
// - e2m1: the 4-bit NVFP4 element. Bits sign(3) exp(2..1) mantissa(0); the 8
//   magnitudes are 0, 0.5, 1, 1.5, 2, 3, 4, 6. Packed two per byte, element k
//   of a row in byte k/2 with EVEN k in the LOW nibble (PTX e2m1x2 order).
// - ue4m3: the per-16-element block scale. E4M3 (bias 7) with the sign bit
//   unused; 0x7F is NaN, the largest finite value is 0x7E = 448.
// Encoders round to nearest, ties to even, and saturate (like cvt .satfinite).
//===----------------------------------------------------------------------===//
#pragma once
#include <cmath>
#include <cstdint>

#include "host_device.h"

namespace archscope::nvfp4 {

constexpr int kBlock = 16;          // elements per ue4m3 scale along K
constexpr float kE2m1Max = 6.0f;    // largest e2m1 magnitude
constexpr float kUe4m3Max = 448.0f; // largest finite ue4m3 value

/// Decodes the low 4 bits of `nibble` as e2m1.
ARCHSCOPE_HD inline float e2m1ToFloat(uint8_t nibble) {
  const int exponent = (nibble >> 1) & 3;
  const float mantissa = (nibble & 1) ? 0.5f : 0.0f;
  // exponent 0 is the subnormal pair {0, 0.5}; otherwise (1 + m) * 2^(e-1).
  const float magnitude = exponent == 0 ? mantissa : (1.0f + mantissa) * float(1 << (exponent - 1));
  return (nibble & 8) ? -magnitude : magnitude;
}

/// Encodes to e2m1: round to nearest, ties to the even code, saturating at
/// +-6. NaN saturates to 6 with its sign bit (e2m1 has no NaN).
ARCHSCOPE_HD inline uint8_t floatToE2m1(float x) {
  const float a = std::fabs(x);
  // Count the midpoints below |x|; `>` where the lower neighbour has the even
  // code (ties go down), `>=` where the upper one has. Branch-free on purpose.
  int code = (a > 0.25f) + (a >= 0.75f) + (a > 1.25f) + (a >= 1.75f) + (a > 2.5f) + (a >= 3.5f) + (a > 5.0f);
  if (a != a) code = 7;
  return uint8_t(std::signbit(x) ? (code | 8) : code);
}

/// Decodes a ue4m3 scale byte (bit 7 ignored). 0x7F decodes to NaN.
ARCHSCOPE_HD inline float ue4m3ToFloat(uint8_t byte) {
  const int exponent = (byte >> 3) & 0xF;
  const int mantissa = byte & 7;
  if (exponent == 15 && mantissa == 7) return NAN;
  if (exponent == 0) return ldexpf(float(mantissa), -9); // subnormal: m/8 * 2^-6
  return ldexpf(float(8 + mantissa), exponent - 10);     // (1 + m/8) * 2^(e-7)
}

/// Encodes x >= 0 to ue4m3: round to nearest, ties to even, saturating at
/// 448 (0x7E). Negative values and zero give 0; NaN gives 0x7F.
ARCHSCOPE_HD inline uint8_t floatToUe4m3(float x) {
  if (x != x) return 0x7F;
  if (!(x > 0.0f)) return 0;
  if (x >= kUe4m3Max) return 0x7E;
  if (x < ldexpf(1.0f, -6)) // subnormal range: multiples of 2^-9 (8 rounds up to 0x08)
    return uint8_t(rintf(ldexpf(x, 9)));
  int exponent; // x = f * 2^exponent with f in [0.5, 1)
  const float fraction = frexpf(x, &exponent);
  const int significand = int(rintf(fraction * 16.0f)); // 8..16, i.e. 1.mmm * 8
  // A carry to 16 moves into the next binade: (e+1, m=0) is exactly code + 8.
  const int code = ((exponent - 1 + 7) << 3) + (significand - 8);
  return code > 0x7E ? uint8_t(0x7E) : uint8_t(code);
}

/// The fp32 global scale of a tensor whose largest magnitude is `amax`: the
/// standard NVFP4 recipe amax / (6 * 448), which puts the largest block scale
/// at ue4m3's 448. An all-zero tensor gets 1 so that scales stay finite.
ARCHSCOPE_HD inline float globalScaleFor(float amax) {
  return amax > 0.0f ? amax / (kE2m1Max * kUe4m3Max) : 1.0f;
}

/// The ue4m3 block-scale byte for a block whose largest magnitude is `amax`,
/// relative to the tensor's fp32 global scale: amax / (6 * global), so the
/// block's largest element lands on e2m1's 6. Shared by the host quantizer and
/// any kernel that quantizes on the fly, so both make the same choice.
ARCHSCOPE_HD inline uint8_t blockScaleByte(float amax, float globalScale) {
  return floatToUe4m3(amax / (kE2m1Max * globalScale));
}

/// The e2m1 code of `value` in a block whose scale byte is `scaleByte`.
/// A zero scale (all-zero block) encodes every element as 0.
ARCHSCOPE_HD inline uint8_t quantizeElement(float value, uint8_t scaleByte, float globalScale) {
  const float step = ue4m3ToFloat(scaleByte) * globalScale;
  return step > 0.0f ? floatToE2m1(value / step) : uint8_t(0);
}

} // namespace archscope::nvfp4
