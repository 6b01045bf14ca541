//===--- moe_device.cuh - device-side arguments and helpers of the MoE ----===//
// SPDX-License-Identifier: Apache-2.0
//
// MoeDeviceArgs is what every family's launcher takes:
//   cudaError_t launchMoe_<family>(const archscope::MoeDeviceArgs&, cudaStream_t);
// A family whose kernels read the packed weights in a layout of their own
// defines ARCHSCOPE_FAMILY_REPACKS_WEIGHTS and
//   cudaError_t repackWeights_<family>(const MoeShape&, const MoeWeightBuffers&, cudaStream_t);
// which the probe runs once after uploading the weights (as an engine
// repacks when it loads a model), never inside a timed launch; it rewrites
// the buffers in place and keeps their sizes.
// The launcher owns everything it does on the stream (including clearing
// `out` if it accumulates): the probe poisons `out` with NaN before each
// launch, so an element the kernel never writes fails the check.
// The struct part compiles as plain C++ (host tests); helpers need nvcc.
//===----------------------------------------------------------------------===//
#pragma once
#include "moe_shape.h"
#include "nvfp4.h"

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#endif

namespace archscope {

#if defined(__CUDACC__)
using MoeBf16 = __nv_bfloat16;
#else
struct MoeBf16 { uint16_t bits; }; // layout stand-in so plain C++ sees the struct
#endif

/// The weight buffers a family's repack rewrites (MoeDeviceArgs's, writable).
struct MoeWeightBuffers {
  uint8_t *w1Packed, *w1Scales, *w2Packed, *w2Scales;
};

struct MoeDeviceArgs {
  MoeShape shape;
  const MoeBf16* x = nullptr;          // [T][H] bf16
  const int32_t* topkIds = nullptr;    // [T][k]
  const float* topkWeights = nullptr;  // [T][k]
  // The weights as NVFP4 stores them, unless the family repacks them (above).
  const uint8_t* w1Packed = nullptr;   // [E][2I][H/2] e2m1x2
  const uint8_t* w1Scales = nullptr;   // [E][2I][H/16] ue4m3
  const float* w1Global = nullptr;     // [E]
  const uint8_t* w2Packed = nullptr;   // [E][H][I/2]
  const uint8_t* w2Scales = nullptr;   // [E][H][I/16]
  const float* w2Global = nullptr;     // [E]
  // Activation global scales, used only by families that quantize activations
  // to NVFP4 (mma-blockscale, tcgen05): x, and the SwiGLU output before W2.
  float xGlobalScale = 1.0f;
  float actGlobalScale = 1.0f;
  float* out = nullptr;                // [T][H] fp32
  void* workspace = nullptr;           // moeWorkspaceBytes(shape) bytes, 256-aligned
  size_t workspaceBytes = 0;
};

/// Workspace every family may use: room for an fp32 and a bf16 copy of the
/// intermediate (T*k x I), its NVFP4 form, a bf16 copy of x (T x H), routing
/// tables and per-tile lists. Families document which part they use; none may
/// assume more.
inline size_t moeWorkspaceBytes(const MoeShape& s) {
  const size_t pairs = size_t(s.pairs());
  const size_t intermediate = pairs * size_t(s.inter) * (4 + 2 + 1);
  const size_t tokens = size_t(s.tokens) * size_t(s.hidden) * 2;
  const size_t routing = (pairs * 4 + size_t(s.experts) * 4 + 64) * sizeof(int32_t);
  return intermediate + tokens + routing + (size_t(1) << 20);
}

#if defined(__CUDACC__)
namespace device {

/// e2m1 nibble (low 4 bits) to float; the arithmetic form of the codec.
__device__ __forceinline__ float e2m1ToFloat(uint32_t nibble) {
  return nvfp4::e2m1ToFloat(uint8_t(nibble & 0xF));
}

/// ue4m3 byte to float without ldexpf: placing the 7 bits at the top of an
/// fp32 mantissa gives value * 2^-120 exactly, subnormals included (0x7F is
/// not special-cased: encoders here never produce it).
__device__ __forceinline__ float ue4m3ToFloat(uint32_t byte) {
  return __uint_as_float((byte & 0x7F) << 20) * 0x1p120f;
}

__device__ __forceinline__ float bf16ToFloat(MoeBf16 v) { return __bfloat162float(v); }

/// Zeroes `floats` floats (a multiple of 4) of `out`, 16 bytes per store;
/// thread `first` of `stride` threads clearing together.
__device__ __forceinline__ void clearFloats(float* out, size_t floats, size_t first, size_t stride) {
  float4* quads = reinterpret_cast<float4*>(out);
  for (size_t i = first; i < floats / 4; i += stride) quads[i] = make_float4(0.f, 0.f, 0.f, 0.f);
}

/// Round up `bytes` so consecutive workspace regions stay 256-byte aligned.
__host__ __device__ constexpr size_t alignUp256(size_t bytes) { return (bytes + 255) & ~size_t(255); }

} // namespace device
#endif

} // namespace archscope
