// One kernel, a body per family, each compiled only when the build defines it.
__global__ void fp4_moe_kernel(float *out) {
#if defined(ENABLE_FP4_SM120) && __CUDA_ARCH__ >= 1200 && __CUDA_ARCH__ < 1300
  out[threadIdx.x] = 1.0f;
#elif defined(ENABLE_FP4_SM100) && __CUDA_ARCH__ >= 1000 && __CUDA_ARCH__ < 1100
  out[threadIdx.x] = 2.0f;
#endif
}

void run_fp4_moe(float *out) { fp4_moe_kernel<<<1, 32>>>(out); }
