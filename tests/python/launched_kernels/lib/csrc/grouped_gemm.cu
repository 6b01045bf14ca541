// Two ops' kernels in one file, as engines' csrc often has them.
__global__ void pack_weights_kernel(float *w) { w[threadIdx.x] *= 2.0f; }

__global__ void grouped_gemm_kernel(float *out) {
#if __CUDA_ARCH__ >= 1000 && __CUDA_ARCH__ < 1100
  out[threadIdx.x] = 1.0f;
#endif
}

void run_pack_weights(float *w) {
  pack_weights_kernel<<<1, 32>>>(w);
}

void run_grouped_gemm(float *out) {
  grouped_gemm_kernel<<<1, 32>>>(out);
}
