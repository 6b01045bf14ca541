__global__ void grouped_gemm_kernel(float *out) {
#if __CUDA_ARCH__ >= 1000 && __CUDA_ARCH__ < 1100
  out[threadIdx.x] = 1.0f;
#endif
}

void run_grouped_gemm(float *out) { grouped_gemm_kernel<<<1, 32>>>(out); }
