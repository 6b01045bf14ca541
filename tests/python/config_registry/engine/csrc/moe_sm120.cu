// The NVFP4 MoE kernel the sm120 module is built from: warp-level block-scaled MMA.
#include <tvm/ffi/function.h> // not in the tree: skipped

__global__ void fp4_moe_kernel(unsigned *d, const unsigned *a, const unsigned *b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1200
  asm volatile("mma.sync.aligned.kind::mxf4nvf4.block_scale.scale_vec::4X.m16n8k64.row.col.f32.e2m1.e2m1.f32.ue4m3"
               " {%0}, {%1}, {%2}, {%0};" : "+r"(d[0]) : "r"(a[0]), "r"(b[0]));
#endif
}

void fp4_moe(unsigned *d, const unsigned *a, const unsigned *b) { fp4_moe_kernel<<<1, 32>>>(d, a, b); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(fp4_moe, fp4_moe);
