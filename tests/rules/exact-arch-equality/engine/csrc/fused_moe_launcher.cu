// Field bug 13 (flashinfer #2723, PR #2725): the JIT builds the grouped GEMM
// for majors 10 and 12 and its kernel has a body on both, but the launcher
// asserts ICHECK_EQ(major, 10): an RTX PRO 6000 is refused by a check, not
// by the kernel. The fix was ICHECK_GE. Written here for archscope's tests.
#include <tvm/ffi/container/tensor.h>  // not in the tree: skipped

__global__ void grouped_gemm_nvfp4(float *out) {
#if __CUDA_ARCH__ >= 1000
  out[threadIdx.x] = 1.0f;
#endif
}

void launch_grouped_gemm(float *out) {
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  TVM_FFI_ICHECK_EQ(major, 10) << "grouped GEMM needs SM10x";  // EXPECT: exact-arch-equality
  grouped_gemm_nvfp4<<<1, 32>>>(out);
}

// Must not flag: the kernel only has a body on Hopper, the check agrees.
__global__ void hopper_gemm(float *out) {
#if __CUDA_ARCH__ == 900
  out[threadIdx.x] = 2.0f;
#endif
}

void launch_hopper_gemm(float *out) {
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  TVM_FFI_ICHECK_EQ(major, 9) << "Hopper only";
  hopper_gemm<<<1, 32>>>(out);
}

// Must not flag: an open lower bound (the fix).
void launch_grouped_gemm_fixed(float *out) {
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  TVM_FFI_ICHECK_GE(major, 10) << "grouped GEMM needs SM10x or newer";
  grouped_gemm_nvfp4<<<1, 32>>>(out);
}
