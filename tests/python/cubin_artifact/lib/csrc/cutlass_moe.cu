#include <tvm/ffi/function.h>

__global__ void cutlass_moe_kernel(float *out) { out[threadIdx.x] = 0.f; }

void cutlass_moe(int x) { cutlass_moe_kernel<<<1, 32>>>(nullptr); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(cutlass_moe, cutlass_moe);
