// The sm_100 module: tcgen05 MMA (the tcgen05 family).
#include <tvm/ffi/function.h> // not in the tree: skipped

__global__ void moe_sm100_kernel(unsigned *out) {
  asm volatile("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale [%0], %1, %2, %3;" ::"r"(0), "l"(0ull),
               "l"(0ull), "r"(0));
  out[threadIdx.x] = 1u;
}

void run_moe_sm100(unsigned *out) { moe_sm100_kernel<<<1, 32>>>(out); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(fp4_moe, run_moe_sm100);
