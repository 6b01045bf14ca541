// ISA probe of the mma-blockscale family: compiles the family's kernels with the
// block-scaled mma.sync emitted unconditionally, so that
//   nvcc -cubin -arch=sm_XX kernels/mma-blockscale/isa_probe.cu
// succeeds exactly where the instruction exists (sm_120a, sm_121a, 12.x f) and
// ptxas names it elsewhere ("Instruction 'mma with block scale' not supported
// on .target 'sm_100a'"). No host main; nothing is launched.
#define ARCHSCOPE_ISA_PROBE 1
#include "moe.cuh"
