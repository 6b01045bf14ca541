//===--- nibble_layout.h - w4a16: the repacked bit layout of e2m1 words ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Plain C++ (host and device), so tests/unit/kernels/W4a16NibbleLayoutTest.cpp
// checks the functions the GEMMs run.
// The dequantizer turns one 32-bit word of 8 e2m1 (k0..k7) into four bf16x2
// pairs, P = 0..3 holding (k3-P, k7-P) (mma.cuh): the low element's sign at
// bit 15 and magnitude at bits 6..8, the high one's at 31 and 22..24, which
// is exactly e2m1 * 2^-126 in bf16. In the NVFP4 layout (k0 in the low nibble)
// a sign sits 3 bits above its magnitude instead of 9, so every pair needs two
// shifts and two masks: 15 integer instructions per word. The weights are
// therefore repacked once when they are loaded (as Marlin-style engines
// repack theirs) so that each pair's 8 bits lie where few instructions bring
// them: pair 0 in place (one AND), pair 1 three bits lower (shift, AND), pairs
// 2 and 3 with sign and magnitude shifted apart (two shifts, two LOP3 each):
// 11 instructions. No layout does better with one shift per pair: no four
// rotations of a pair's bit pattern tile a word (an exhaustive search).
//   pair 0: signs 15 / 31, magnitudes  6..8 / 22..24   (r & M)
//   pair 1: signs 12 / 28, magnitudes  3..5 / 19..21   ((r << 3) & M)
//   pair 2: signs 14 / 30, magnitudes  0..2 / 16..18   (sign r << 1, magnitude r << 6)
//   pair 3: signs 13 / 29, magnitudes 25..27 /  9..11  (sign r << 2, magnitude r rotated left 13)
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/host_device.h"

#include <cstdint>

namespace archscope::w4a16 {

constexpr uint32_t kPairSign = 0x80008000u, kPairMagnitude = 0x01C001C0u;

/// Where pair P's low element puts its sign and its magnitude's lowest bit,
/// and the same for its high element (see the table above).
struct PairBits {
  int lowSign, lowMagnitude, highSign, highMagnitude;
};

/// NVFP4 word (k0 in bits 0..3, k7 in 28..31) -> the repacked layout.
ARCHSCOPE_HD constexpr uint32_t repackNibbles(uint32_t q) {
  constexpr PairBits kPairBits[4] = {{15, 6, 31, 22}, {12, 3, 28, 19}, {14, 0, 30, 16}, {13, 25, 29, 9}};
  uint32_t r = 0;
  for (int p = 0; p < 4; ++p) {
    const uint32_t low = (q >> (4 * (3 - p))) & 0xFu, high = (q >> (4 * (7 - p))) & 0xFu; // k3-p, k7-p
    const PairBits b = kPairBits[p];
    r |= ((low >> 3) << b.lowSign) | ((low & 7u) << b.lowMagnitude);
    r |= ((high >> 3) << b.highSign) | ((high & 7u) << b.highMagnitude);
  }
  return r;
}

ARCHSCOPE_HD constexpr uint32_t rotateLeft(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

/// Pair P of a repacked word as bf16x2 bits of e2m1 * 2^-126 (before the scale).
template <int P> ARCHSCOPE_HD constexpr uint32_t unpackPair(uint32_t r) {
  constexpr uint32_t kBoth = kPairSign | kPairMagnitude;
  if constexpr (P == 0) return r & kBoth;
  else if constexpr (P == 1) return (r << 3) & kBoth;
  else if constexpr (P == 2) return ((r << 1) & kPairSign) | ((r << 6) & kPairMagnitude);
  else return ((r << 2) & kPairSign) | (rotateLeft(r, 13) & kPairMagnitude);
}

} // namespace archscope::w4a16
