// FlashInfer-style launchers (csrc/trtllm_fused_moe_kernel_launcher.cu and
// friends): tvm-ffi headers are missing, so TVM_FFI_ICHECK* are undeclared
// and clang keeps them as recovered calls. Field bug 13 (flashinfer #2723):
// ICHECK_EQ(major, 10) rejects the sm_12x GPUs the JIT builds for.
#include <tvm/ffi/container/tensor.h>
#include "tvm_ffi_utils.h"

using tvm::ffi::TensorView;

void trtllm_fp4_block_scale_moe(TensorView routing_logits, int64_t num_experts) {
  int device = 0;
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  TVM_FFI_ICHECK_EQ(major, 10) << "fused multi-tile routing requires SM10.x; got SM" << major;
  TVM_FFI_ICHECK(major == 10 || major == 12) << "unsupported compute capability " << major;
  TVM_FFI_ICHECK_GT(num_experts, 0) << "num_experts must be positive";
  if (num_experts >= 10) {
    launch_large(routing_logits);
  }
}

void nvfp4_attention_sm120(TensorView q) {
  cudaDeviceProp props;
  cudaGetDeviceProperties(&props, 0);
  TVM_FFI_ICHECK(props.major == 12 && props.minor == 0) << "nvfp4 attention needs SM 12.0";
}

void moe_a2a_combine(TensorView out) {
  auto const sm_version = tensorrt_llm::common::getSMVersion();
  TVM_FFI_ICHECK(sm_version >= 100) << "Quantized moe_a2a_combine requires SM>=100, got SM" << sm_version;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(trtllm_fp4_block_scale_moe, trtllm_fp4_block_scale_moe);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(moe_a2a_combine, moe_a2a_combine);
