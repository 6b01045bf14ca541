// Field bug 12 (TensorRT-LLM #11368, NVIDIA/cutlass #3144): an NVFP4 GEMM
// tile sized for SM100's 227 KiB of shared memory, also built for the 12.x
// family, whose GPUs allow 99 KiB per block: the launch fails there. Written
// here for archscope's tests.
#include <cuda_runtime.h>

constexpr int kStages = 4;
constexpr int kStageBytes = 48 * 1024;
constexpr int kLargeTileSmem = kStages * kStageBytes;  // 196,608 bytes
constexpr int kSmallTileSmem = 2 * 40 * 1024;          // 81,920 bytes

__global__ void nvfp4_gemm(float *out) {
#if __CUDA_ARCH__ >= 1000
  extern __shared__ char smem[];
  out[threadIdx.x] = smem[threadIdx.x];
#endif
}

void launch_large_tile(float *out) {
  cudaFuncSetAttribute(nvfp4_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kLargeTileSmem);  // EXPECT: smem-over-device-limit
  nvfp4_gemm<<<1, 128, kLargeTileSmem>>>(out);
}

// Must not flag: fits the 12.x limit.
void launch_small_tile(float *out) {
  cudaFuncSetAttribute(nvfp4_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmallTileSmem);
  nvfp4_gemm<<<1, 128, kSmallTileSmem>>>(out);
}

// Must not flag: the tactic is filtered against the device's opt-in limit
// first (TensorRT-LLM PR #12704).
bool launch_filtered(float *out) {
  int optin = 0;
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  if (optin < kLargeTileSmem) return false;
  cudaFuncSetAttribute(nvfp4_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kLargeTileSmem);
  nvfp4_gemm<<<1, 128, kLargeTileSmem>>>(out);
  return true;
}
