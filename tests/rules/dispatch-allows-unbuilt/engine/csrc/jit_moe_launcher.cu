// A JIT module's launcher (FlashInfer's shape): a tvm-ffi export, built on
// the user's machine; its kernel has a body for the SM100 family only.
#include <tvm/ffi/function.h>  // not in the tree: skipped

__global__ void jit_fp4_moe_kernel(float *out) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL)
  out[threadIdx.x] = 1.0f;
#endif
}

void jit_fp4_moe(TensorView x) { jit_fp4_moe_kernel<<<1, 32>>>(nullptr); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(jit_fp4_moe, jit_fp4_moe);
