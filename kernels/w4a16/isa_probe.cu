//===--- isa_probe.cu - w4a16: instantiate every kernel, no host main ------===//
// SPDX-License-Identifier: Apache-2.0
//
// `nvcc -cubin -arch=sm_XX kernels/w4a16/isa_probe.cu` assembles on sm_80 and
// newer (mma.sync bf16, cp.async); older targets fail in ptxas naming them.
//===----------------------------------------------------------------------===//
#include "moe.cuh"

// An external definition that calls the launcher instantiates all its kernels.
cudaError_t archscopeW4a16Probe(const archscope::MoeDeviceArgs& args, cudaStream_t stream) {
  return launchMoe_w4a16(args, stream);
}
