//===--- moe_steps.h - non-GEMM steps of the activation-quantizing MoEs ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Routing lists, the workspace map and the NVFP4 activation quantizer shared by
// the two native Blackwell families (mma-blockscale, tcgen05). Plain C++ for
// host and device: the kernels call these per thread, and the CPU tests drive
// the same functions to model a whole MoE against the fp64 reference.
//
// Quantizer semantics are the host reference's (kernels/common/moe_problem.cpp
// quantizeRow): per 16 elements, scale byte = nvfp4::blockScaleByte(amax, g),
// element = e2m1(v / (ue4m3(scale) * g)), relative to a per-tensor global g
// (MoeDeviceArgs::xGlobalScale for x, ::actGlobalScale for the SwiGLU output).
//===----------------------------------------------------------------------===//
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "../common/moe_shape.h"
#include "../common/nvfp4.h"

namespace archscope::nvfp4moe {

/// Quantizes 16 floats (stride `stride` apart) into 8 packed bytes (even
/// element in the low nibble) and one ue4m3 scale byte.
ARCHSCOPE_HD inline void quantizeBlock16(const float *v, int stride, float global, uint8_t *packed,
                                         uint8_t *scale) {
  float amax = 0.0f;
  for (int i = 0; i < nvfp4::kBlock; ++i)
    amax = fmaxf(amax, fabsf(v[i * stride]));
  const uint8_t s = nvfp4::blockScaleByte(amax, global);
  *scale = s;
  for (int i = 0; i < nvfp4::kBlock; i += 2)
    packed[i / 2] = uint8_t(nvfp4::quantizeElement(v[i * stride], s, global) |
                            nvfp4::quantizeElement(v[(i + 1) * stride], s, global) << 4);
}

/// silu(gate) * up, as the reference computes it (in fp32 here).
ARCHSCOPE_HD inline float swiglu(float gate, float up) { return gate / (1.0f + expf(-gate)) * up; }

/// SwiGLU of 16 (gate, up) pairs `stride` apart, quantized as one block.
ARCHSCOPE_HD inline void swigluQuantizeBlock(const float *gate, const float *up, int stride, float global,
                                             uint8_t *packed, uint8_t *scale) {
  float act[nvfp4::kBlock];
  for (int i = 0; i < nvfp4::kBlock; ++i)
    act[i] = swiglu(gate[i * stride], up[i * stride]);
  quantizeBlock16(act, 1, global, packed, scale);
}

// ---- Workspace -----------------------------------------------------------------
/// Regions of the workspace these families use, each 256-byte aligned:
/// per-expert pair counts and offsets, the pair list grouped by expert, x in
/// NVFP4 ([T][H/2] + [T][H/16]) and the SwiGLU output in NVFP4 per pair.
struct Workspace {
  int32_t *counts = nullptr;    // [E]
  int32_t *offsets = nullptr;   // [E + 1]
  int32_t *pairList = nullptr;  // [T*k]: pair p = t*k + j, grouped by expert, ascending
  uint8_t *xPacked = nullptr;   // [T][H/2]
  uint8_t *xScales = nullptr;   // [T][H/16]
  uint8_t *actPacked = nullptr; // [T*k][I/2]
  uint8_t *actScales = nullptr; // [T*k][I/16]
};

ARCHSCOPE_HD constexpr size_t align256(size_t bytes) { return (bytes + 255) & ~size_t(255); }

/// Carves `base` (256-aligned) into the regions; returns the bytes used. With a
/// null base it only measures.
ARCHSCOPE_HD inline size_t carveWorkspace(const MoeShape &s, void *base, Workspace *w) {
  const size_t pairs = size_t(s.tokens) * size_t(s.topk);
  const size_t sizes[7] = {size_t(s.experts) * 4,
                           size_t(s.experts + 1) * 4,
                           pairs * 4,
                           size_t(s.tokens) * size_t(s.hidden) / 2,
                           size_t(s.tokens) * size_t(s.hidden) / 16,
                           pairs * size_t(s.inter) / 2,
                           pairs * size_t(s.inter) / 16};
  char *p = static_cast<char *>(base);
  void *at[7];
  size_t used = 0;
  for (int i = 0; i < 7; ++i) {
    at[i] = p ? p + used : nullptr;
    used += align256(sizes[i]);
  }
  if (w) {
    w->counts = static_cast<int32_t *>(at[0]), w->offsets = static_cast<int32_t *>(at[1]);
    w->pairList = static_cast<int32_t *>(at[2]);
    w->xPacked = static_cast<uint8_t *>(at[3]), w->xScales = static_cast<uint8_t *>(at[4]);
    w->actPacked = static_cast<uint8_t *>(at[5]), w->actScales = static_cast<uint8_t *>(at[6]);
  }
  return used;
}

// ---- Routing lists -------------------------------------------------------------
/// Number of (token, slot) pairs routed to expert `e`.
ARCHSCOPE_HD inline int32_t countPairs(const int32_t *topkIds, int pairs, int e) {
  int32_t n = 0;
  for (int p = 0; p < pairs; ++p)
    n += topkIds[p] == e;
  return n;
}
/// Writes the pairs of expert `e`, ascending, to `out`.
ARCHSCOPE_HD inline void listPairs(const int32_t *topkIds, int pairs, int e, int32_t *out) {
  int32_t n = 0;
  for (int p = 0; p < pairs; ++p)
    if (topkIds[p] == e)
      out[n++] = p;
}
/// offsets[e] = sum of counts before e; offsets[E] = all pairs.
ARCHSCOPE_HD inline void prefixOffsets(const int32_t *counts, int experts, int32_t *offsets) {
  offsets[0] = 0;
  for (int e = 0; e < experts; ++e)
    offsets[e + 1] = offsets[e] + counts[e];
}

/// Where block `b` of the intermediate row of `pair` goes in the workspace.
ARCHSCOPE_HD inline uint8_t *actBlockPacked(const Workspace &w, int inter, int pair, int b) {
  return w.actPacked + size_t(pair) * inter / 2 + size_t(b) * nvfp4::kBlock / 2;
}
ARCHSCOPE_HD inline uint8_t *actBlockScale(const Workspace &w, int inter, int pair, int b) {
  return w.actScales + size_t(pair) * inter / nvfp4::kBlock + b;
}

} // namespace archscope::nvfp4moe
