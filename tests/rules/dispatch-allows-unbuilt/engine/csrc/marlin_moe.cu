__global__ void marlin_moe_kernel(float *out) {
#if __CUDA_ARCH__ >= 800
  out[threadIdx.x] = 1.0f;
#endif
}

void marlin_moe(at::Tensor &x) { marlin_moe_kernel<<<1, 32>>>(nullptr); }
