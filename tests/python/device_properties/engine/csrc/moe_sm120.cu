// The sm_120 module: block-scaled mma.sync (the mma-blockscale family).
#include <tvm/ffi/function.h> // not in the tree: skipped

__global__ void moe_sm120_kernel(unsigned *out) {
  asm volatile("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue4m3 {};");
  out[threadIdx.x] = 2u;
}

void run_moe_sm120(unsigned *out) { moe_sm120_kernel<<<1, 32>>>(out); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(fp4_moe, run_moe_sm120);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run_moe_sm120);
