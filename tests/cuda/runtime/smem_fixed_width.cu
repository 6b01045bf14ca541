// FlashInfer's cake_flashkda binding and topk.cuh shape: the byte count of a
// dynamic shared-memory request is a constant of a <cstdint>/<cstddef> type,
// read with no system header present (the CUDA ones are missing too).
#include <cstdint>
#include <cstddef>
#include <cuda_runtime.h>

__global__ void kernel_small(float *out) {}

void launch_fixed(int device_id) {
  constexpr int32_t kSmemBytes = 222 * 1024;
  cudaFuncSetAttribute(kernel_small, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
}

void launch_size_t() {
  constexpr size_t smem_size = sizeof(uint32_t) * 32768;  // topk.cuh
  cudaFuncSetAttribute(kernel_small, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_size);
}
