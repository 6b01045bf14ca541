// A CUTLASS-like config header: what it decides per target reaches the file
// that includes it only through its macros (read from its directives alone).
#pragma once
#include "arch_config_detail.h"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000 && defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define DEMO_ARCH_TCGEN05_ENABLED 1
#endif
#define DEMO_ARCH_AT_LEAST(cc) (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= (cc))
#define DEMO_KERNEL __global__
// A kernel of the header's own: not the including file's.
__global__ void header_kernel() {}
