// The fused-MoE binding every module is built from: which runners it has
// depends on the module's -D flags.
#include <tvm/ffi/function.h> // not in the tree: skipped

struct Runner {
  virtual void run(unsigned *out) = 0;
};
Runner *make_fp8_runner();
Runner *make_fp4_runner();

void fp4_moe(unsigned *out, int quant) {
  Runner *runner = nullptr;
#ifdef ENABLE_FP8
  if (quant == 8) runner = make_fp8_runner();
#endif
#if defined(ENABLE_FP4)
  if (quant == 4) runner = make_fp4_runner();
#endif
  runner->run(out);
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(fp4_moe, fp4_moe);
