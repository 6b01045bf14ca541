// Runs the batched GEMMs of prebuilt cubins (batched_gemm_runner.cu).
#include <tvm/ffi/function.h>

void trtllm_moe(int x) {}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(trtllm_moe, trtllm_moe);
