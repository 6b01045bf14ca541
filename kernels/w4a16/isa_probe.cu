//===--- isa_probe.cu - w4a16: instantiate the kernels, no host main -------===//
// SPDX-License-Identifier: Apache-2.0
//
// `nvcc -cubin -arch=sm_XX kernels/w4a16/isa_probe.cu` assembles on sm_80 and
// newer (mma.sync m16n8k16 bf16, cp.async); on older targets ptxas names the
// missing feature. One tile configuration suffices: every configuration uses
// the same instructions, and one keeps the ISA check fast.
//===----------------------------------------------------------------------===//
#include "moe.cuh"

namespace archscope::w4a16 {
template __global__ void moeGemm<DecodeConfig, true>(GemmOperands);
template __global__ void moeGemm<DecodeConfig, false>(GemmOperands);
} // namespace archscope::w4a16
