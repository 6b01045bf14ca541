// ISA probe of the tcgen05 family: instantiates both GEMM kernels with the
// tcgen05 instructions emitted unconditionally, so that
//   nvcc -cubin -arch=sm_XX kernels/tcgen05/isa_probe.cu
// succeeds exactly where tcgen05 + TMEM exist (sm_100a, sm_103a, sm_110a and
// their f targets) and ptxas names the instruction elsewhere ("Instruction
// 'tcgen05.alloc' not supported on .target 'sm_120a'"). No host main; nothing
// is launched.
#define ARCHSCOPE_ISA_PROBE 1
#include "moe.cuh"

template __global__ void archscope::tcgen05::gemmKernel<true>(archscope::MoeDeviceArgs,
                                                              archscope::nvfp4moe::Workspace);
template __global__ void archscope::tcgen05::gemmKernel<false>(archscope::MoeDeviceArgs,
                                                               archscope::nvfp4moe::Workspace);
