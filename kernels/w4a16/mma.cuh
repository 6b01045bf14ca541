//===--- mma.cuh - w4a16: PTX wrappers and the NVFP4 -> bf16 dequantizer ---===//
// SPDX-License-Identifier: Apache-2.0
//
// The dequantizer works on one 32-bit word of 8 e2m1 (k0..k7), repacked at
// load time (nibble_layout.h), and yields four bf16x2 registers in the order
// the GEMM feeds the MMA: (k3,k7) (k2,k6) (k1,k5) (k0,k4). Both MMA operands
// use this same permutation of k, so the dot product is unchanged, and each
// pair is one to four shifts and masks instead of a table lookup.
// Placing a nibble's sign at bit 15 and its 3 magnitude bits at bits 8..6 of a
// bf16 gives exactly e2m1 * 2^-126 (subnormal for 0 and 0.5 too). Multiplying
// by the block scale pre-multiplied by 2^118 gives e2m1 * scale * 2^-8, exact
// in bf16 (at most 6 significant bits, far from under- or overflow); the GEMM
// epilogue multiplies by 2^8 with the global scale.
//===----------------------------------------------------------------------===//
#pragma once
#include "nibble_layout.h"

#include <cstdint>
#include <cuda_bf16.h>

namespace archscope::w4a16 {

constexpr float kScaleBias = 0x1p118f;    // folded into each block scale
constexpr float kUnbias = 0x1p8f;         // undone in the epilogue

__device__ __forceinline__ uint32_t bf16x2Bits(__nv_bfloat162 v) { return *reinterpret_cast<uint32_t*>(&v); }
__device__ __forceinline__ __nv_bfloat162 asBf16x2(uint32_t v) { return *reinterpret_cast<__nv_bfloat162*>(&v); }

/// ue4m3 byte -> bf16x2 (both halves) holding scale * 2^118, exactly.
__device__ __forceinline__ uint32_t biasedScale(uint32_t byte) {
  const float scale = __uint_as_float((byte & 0x7F) << 20) * 0x1p120f; // see moe_device.cuh
  return bf16x2Bits(__float2bfloat162_rn(scale * kScaleBias));
}

/// Four ue4m3 bytes -> four bf16x2 scales (as biasedScale). A normal ue4m3
/// (exponent field >= 1) becomes the bf16 with exponent + 238 and the same 3
/// mantissa bits: byte * 16 + (238 << 7), one byte-spread and one multiply-add
/// per scale; a block with a subnormal scale (rare) takes the exact float path.
/// EXACT = false: the caller knows that none of the four has exponent 0
/// (weight_layout.h's mark), so the test and its branch go.
template <bool EXACT = true> __device__ __forceinline__ void biasedScales(uint32_t bytes, uint32_t (&scale2)[4]) {
  bytes &= 0x7F7F7F7Fu;
  if (EXACT && __vcmpltu4(bytes, 0x08080808u) != 0) {
#pragma unroll
    for (int j = 0; j < 4; ++j) scale2[j] = biasedScale(bytes >> (8 * j));
    return;
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) scale2[j] = __byte_perm(bytes, 0, 0x4040 + 0x0101 * j) * 16u + 0x77007700u;
}

/// Eight nibbles of a repacked word (nibble_layout.h) -> four scaled bf16x2
/// pairs (k3,k7) (k2,k6) (k1,k5) (k0,k4).
__device__ __forceinline__ void dequantWord(uint32_t q, uint32_t scale2, uint32_t (&pair)[4]) {
  pair[0] = unpackPair<0>(q), pair[1] = unpackPair<1>(q), pair[2] = unpackPair<2>(q), pair[3] = unpackPair<3>(q);
#pragma unroll
  for (int i = 0; i < 4; ++i) pair[i] = bf16x2Bits(__hmul2(asBf16x2(pair[i]), asBf16x2(scale2)));
}

/// Position of k (0..7) inside its group of 8 once permuted: the inverse of
/// (k3, k7, k2, k6, k1, k5, k0, k4).
__device__ __forceinline__ int permutedPosition(int k) { return ((k & 3) ^ 3) * 2 + (k >> 2); }

/// Eight bf16 (k0..k7 in four registers) -> the same four pairs as dequantWord.
__device__ __forceinline__ void permuteActivations(const uint4& x, uint32_t (&pair)[4]) {
  pair[0] = __byte_perm(x.y, x.w, 0x7632); // (k3, k7)
  pair[1] = __byte_perm(x.y, x.w, 0x5410); // (k2, k6)
  pair[2] = __byte_perm(x.x, x.z, 0x7632); // (k1, k5)
  pair[3] = __byte_perm(x.x, x.z, 0x5410); // (k0, k4)
}

/// D += A * B, m16n8k16, bf16 in, fp32 accumulate.
__device__ __forceinline__ void mmaBf16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ uint32_t sharedAddress(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/// Asynchronous global -> shared copy of BYTES (4, 8 or 16); the first
/// `sourceBytes` come from `gmem`, the rest are zero-filled.
template <int BYTES> __device__ __forceinline__ void copyAsync(void* smem, const void* gmem, int sourceBytes) {
  if constexpr (BYTES == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sharedAddress(smem)), "l"(gmem), "r"(sourceBytes));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(sharedAddress(smem)), "l"(gmem), "n"(BYTES),
                 "r"(sourceBytes));
}
/// The same to a shared-memory address (sharedAddress).
template <int BYTES> __device__ __forceinline__ void copyAsyncTo(uint32_t smem, const void* gmem, int sourceBytes) {
  if constexpr (BYTES == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem), "l"(gmem), "r"(sourceBytes));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem), "l"(gmem), "n"(BYTES), "r"(sourceBytes));
}

/// Asynchronous copy of BYTES (4, 8 or 16), all from `gmem` (no zero fill).
template <int BYTES> __device__ __forceinline__ void copyAsyncWhole(uint32_t smem, const void* gmem) {
  if constexpr (BYTES == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem), "l"(gmem));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(smem), "l"(gmem), "n"(BYTES));
}
__device__ __forceinline__ void commitAsync() { asm volatile("cp.async.commit_group;\n" ::); }
template <int PENDING> __device__ __forceinline__ void waitAsync() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}

/// Programmatic dependent launch (sm_90+; no-ops on older targets and when a
/// kernel was launched without the attribute). waitPrimaryGrid returns once the
/// previous grid in the stream has completed and its writes are visible;
/// allowDependentGrid lets the next grid's CTAs start (and prefetch) early.
__device__ __forceinline__ void waitPrimaryGrid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void allowDependentGrid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

/// One CTA's work is published: every thread's writes before this call are
/// visible at GPU scope before the counter moves (barrier, then a release).
__device__ __forceinline__ void publishDone(int* counter) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(counter, 1);
  }
}

/// Waits until `*counter` reaches `target` (thread 0 polls with acquire
/// loads), then the whole CTA goes on.
__device__ __forceinline__ void awaitCount(const int* counter, int target) {
  if (threadIdx.x == 0) {
    int seen;
    for (;;) {
      asm volatile("ld.acquire.gpu.global.s32 %0, [%1];\n" : "=r"(seen) : "l"(counter) : "memory");
      if (seen >= target) break;
      __nanosleep(64);
    }
  }
  __syncthreads();
}

} // namespace archscope::w4a16
