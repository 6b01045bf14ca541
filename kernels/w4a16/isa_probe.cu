//===--- isa_probe.cu - w4a16: instantiate the kernels, no host main -------===//
// SPDX-License-Identifier: Apache-2.0
//
// `nvcc -cubin -arch=sm_XX kernels/w4a16/isa_probe.cu` assembles on sm_80 and
// newer (mma.sync m16n8k16 bf16, cp.async); on older targets ptxas names the
// missing feature. One tile configuration suffices: every configuration uses
// the same instructions, and one keeps the ISA check fast. The wgmma kernels
// (gemm_wgmma.cuh) have a body only on sm_90a, where this file assembles
// their wgmma, cp.async and red.global.add.v2.f32 too; on every other target
// they compile to empty kernels (the launcher never runs them there). The
// GEMVs (gemv.cuh, the T = 1 path) use no instruction beyond those, but are
// what runs at T = 1, so they are assembled too. It includes configs.cuh,
// not moe.cuh: the launcher's switch would instantiate every configuration
// (33 kernels, 10.3 MB of PTX at compute_90a, where these 7 and the routing
// kernel make 0.65 MB).
//===----------------------------------------------------------------------===//
#include "configs.cuh"
#include "routing.cuh"

namespace archscope::w4a16 {
template __global__ void moeGemm<DecodeConfig, true>(GemmOperands);
template __global__ void moeGemm<DecodeConfig, false>(GemmOperands);
template __global__ void moeGemmWgmma<WgmmaSmallConfig, true>(GemmOperands);
template __global__ void moeGemmWgmma<WgmmaSmallConfig, false>(GemmOperands);
template __global__ void gemvGateUp<GemvFewPairsConfig, true>(GemvOperands);
template __global__ void gemvDown<GemvFewPairsConfig, true>(GemvOperands);
template __global__ void gemvDown<GemvDepth3Config, true>(GemvOperands);
} // namespace archscope::w4a16
