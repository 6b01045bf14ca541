// A kernel with a body on every target: only the build decides where it exists.
__global__ void grouped_fp4_moe_kernel(float *out) { out[threadIdx.x] = 1.0f; }

void grouped_fp4_moe(at::Tensor &x) { grouped_fp4_moe_kernel<<<1, 32>>>(nullptr); }
