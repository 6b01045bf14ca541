//===--- isa_probe.cu - reference: instantiate every kernel, no host main --===//
// SPDX-License-Identifier: Apache-2.0
//
// `nvcc -cubin -arch=sm_XX kernels/reference/isa_probe.cu` assembles on every
// target nvcc supports (plain CUDA-core code); the family runs on sm_75+.
//===----------------------------------------------------------------------===//
#include "moe.cuh"

// An external definition that calls the launcher instantiates all its kernels.
cudaError_t archscopeReferenceProbe(const archscope::MoeDeviceArgs& args, cudaStream_t stream) {
  return launchMoe_reference(args, stream);
}
