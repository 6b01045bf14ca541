// The NVFP4 MoE launcher the sm100 module is built from: its grouped GEMMs
// are tcgen05 kernels, picked from a table of prebuilt kernel configs.
#include <tvm/ffi/function.h> // not in the tree: skipped

enum class CudaArch { Sm100a, Sm103a };

struct KernelConfig {
  CudaArch mSm;
};

int fp4_moe(const KernelConfig *configs, int n, bool sm103) {
  for (int i = 0; i < n; ++i) {
    if (sm103 && configs[i].mSm != CudaArch::Sm103a) continue;
    return i;
  }
  return -1;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(fp4_moe, fp4_moe);
