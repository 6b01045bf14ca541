//===--- moe_shape.h - the NVFP4 MoE problem shape (host and device) ------===//
// SPDX-License-Identifier: Apache-2.0
//
// T tokens of hidden size H, E experts of intermediate size I, top-k routing.
// Per expert: W1 (2I x H; rows 0..I-1 gate, I..2I-1 up), SwiGLU, W2 (H x I).
//===----------------------------------------------------------------------===//
#pragma once
#include <cstddef>
#include <cstdint>

#include "host_device.h"

namespace archscope {

struct MoeShape {
  int tokens = 0;  // T
  int hidden = 0;  // H
  int inter = 0;   // I
  int experts = 0; // E
  int topk = 0;    // k

  /// Every family tiles K by 64 (four ue4m3 blocks), hence the divisibility.
  ARCHSCOPE_HD bool valid() const {
    return tokens > 0 && hidden > 0 && inter > 0 && experts > 0 && topk > 0 &&
           topk <= experts && hidden % 64 == 0 && inter % 64 == 0;
  }
  ARCHSCOPE_HD int64_t pairs() const { return int64_t(tokens) * topk; } // routed (token, slot) pairs
  // Bytes of one expert's NVFP4 weights: packed e2m1 plus ue4m3 scales.
  ARCHSCOPE_HD int64_t w1BytesPerExpert() const { return int64_t(2) * inter * hidden * 9 / 16; }
  ARCHSCOPE_HD int64_t w2BytesPerExpert() const { return int64_t(hidden) * inter * 9 / 16; }
};

} // namespace archscope
