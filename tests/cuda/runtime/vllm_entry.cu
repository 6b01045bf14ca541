// vLLM-style entry points (csrc/quantization/fp4/nvfp4_scaled_mm_entry.cu):
// TORCH_CHECK from a missing torch header, the SM from get_sm_version_num()
// into a local, capability filters, and a template launcher.
#include <torch/all.h>
#include "cutlass_extensions/common.hpp"
#include <stdexcept>

void cutlass_scaled_fp4_mm(torch::Tensor& D, torch::Tensor const& A) {
  int32_t version_num = get_sm_version_num();
  TORCH_CHECK(version_num >= 100, "cutlass_scaled_fp4_mm requires CUDA capability >= 100, got ", version_num);
  if (version_num >= 120 && version_num < 130) {
    cutlass_scaled_fp4_mm_sm120a(D, A);
    return;
  }
  if (version_num >= 100 && version_num < 120) {
    cutlass_scaled_fp4_mm_sm100a(D, A);
    return;
  }
  TORCH_CHECK_NOT_IMPLEMENTED(false, "No compiled cutlass_scaled_fp4_mm for capability: ", version_num);
}

bool cutlass_scaled_mm_supports_fp4(int64_t cuda_device_capability) {
  int runtimeVersion;
  cudaRuntimeGetVersion(&runtimeVersion);
  return cuda_device_capability >= 100 && runtimeVersion >= 12080;
}

bool isArchCompatible(int arch) { return arch >= 100 && arch < 120; }

template <typename Config>
void launch(Config const& cfg, int arch) {
  if (arch < 100) throw std::invalid_argument("needs Blackwell");
  TORCH_CHECK(cfg.sm_version == 100 || cfg.sm_version == 103, "SM100 family only");
}

TORCH_LIBRARY_IMPL(_C, CUDA, ops) {
  ops.impl("cutlass_scaled_fp4_mm", &cutlass_scaled_fp4_mm);
}

void structuredBinding(torch::Tensor& out) {
  auto [major, minor] = getDeviceComputeCapability();
  if (major == 12 && minor == 1) return;
}
