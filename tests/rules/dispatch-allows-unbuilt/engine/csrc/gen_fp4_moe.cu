// tcgen05 code exists only for the SM100 family: on sm_90a and sm_12x the
// kernel compiles with an empty body.
#include <cutlass/arch/config.h>  // not in the tree: skipped

__global__ void gen_fp4_moe_kernel(float *out) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL) || defined(__CUDA_ARCH_FEAT_SM110_ALL)
  out[threadIdx.x] = 1.0f;
#endif
}

void gen_fp4_moe(at::Tensor &x) { gen_fp4_moe_kernel<<<1, 32>>>(nullptr); }
