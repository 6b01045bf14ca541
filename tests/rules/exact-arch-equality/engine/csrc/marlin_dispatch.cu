// Shapes of vLLM's Marlin launchers (csrc/quantization/marlin/marlin.cu,
// csrc/moe/marlin_moe_wna16/ops.cu): checks that hold on one activation
// type's path only. Written here for archscope's tests.
#include <torch/all.h>  // not in the tree: skipped

enum class ActType { kBf16, kFp8 };

__global__ void marlin_gemm(float *out) { out[threadIdx.x] = 1.0f; }

void marlin_mm(float *out, ActType a_type, int major, int minor) {
  TORCH_CHECK(major * 10 + minor >= 75, "marlin needs Turing or newer");
  if (a_type == ActType::kFp8) {
    // Must not flag: FP8 activations on purpose only where FP8 MMA pays
    // off (8.9 and the whole 12.x family); the Hopper path is W4A16.
    TORCH_CHECK(major * 10 + minor == 89 || major == 12, "W4A8-FP8 only on SM89 or SM12x");
  }
  marlin_gemm<<<1, 32>>>(out);
}

void marlin_moe_mm(float *out, ActType a_type, int major, int minor) {
  if (a_type == ActType::kFp8) {
    // The same restriction written as `== 120` also refuses the DGX Spark
    // (12.1), which has the same FP8 MMA: flagged even on this one path.
    TORCH_CHECK(major * 10 + minor == 89 || major * 10 + minor == 120,  // EXPECT: exact-arch-equality
                "W4A8-FP8 only on SM89 or SM120");
  }
  marlin_gemm<<<1, 32>>>(out);
}

// Must not flag: the kernel has no arch guard (it compiles for whatever the
// build targets), so its bodies say nothing about the GPUs the check refuses;
// 10.0 and 10.3 are both admitted.
void sm100_only_launcher(float *out, int major) {
  TORCH_CHECK(major == 10, "this launcher is for SM10x");
  marlin_gemm<<<1, 32>>>(out);
}
