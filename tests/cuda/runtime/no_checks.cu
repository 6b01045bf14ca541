// Comparisons that look like capability checks and are not: none of these
// may produce a runtime check.
#include "cutlass/arch/arch.h"

using ArchTag = cutlass::arch::Sm100;

void moe(int num_experts, int sm_count, int tile_config_sm90, int arch_id) {
  if (num_experts >= 10) return;
  TVM_FFI_ICHECK_GT(sm_count, 0) << "SM count must be positive";
  switch (tile_config_sm90) {
  case 100:
    break;
  }
  int cc = 5;
  if (cc == 1000) return;
  int major_dim = 12;
  if (major_dim == 12) return;
}

__global__ void sampling_kernel(unsigned lane, unsigned num_sms) {
  unsigned int sm = lane + 32;
  if (sm < num_sms) return;
  int cc[8];
  if (cc[1] > 4) return;
}

__device__ int device_only(int major) { return major >= 10 ? 1 : 0; }
