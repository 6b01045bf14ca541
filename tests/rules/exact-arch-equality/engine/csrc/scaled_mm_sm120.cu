// Field bug 4 (eugr/spark-vllm-docker #143): `enable_sm120_only` compiles the
// kernel body only when __CUDA_ARCH__ is exactly 1200; built for 12.1 every
// FP8 GEMM traps ("This kernel only supports sm120"). Written here for
// archscope's tests.
#include <cstdio>

template <typename Kernel>
struct enable_sm120_only : Kernel {
  template <typename... Args>
  __device__ void operator()(Args &&...args) {
// EXPECT-NEXT-LINE: exact-arch-equality
#if defined __CUDA_ARCH__ && __CUDA_ARCH__ == 1200
    Kernel::operator()(args...);
#else
    printf("This kernel only supports sm120\n");
    asm("trap;");
#endif
  }
};

// The fix: the whole 12.x family. Must not flag.
template <typename Kernel>
struct enable_sm120_family : Kernel {
  template <typename... Args>
  __device__ void operator()(Args &&...args) {
#if defined __CUDA_ARCH__ && __CUDA_ARCH__ >= 1200 && __CUDA_ARCH__ < 1300
    Kernel::operator()(args...);
#endif
  }
};

// Must not flag: an exact Hopper guard has no sibling GPU.
__global__ void hopper_only(float *out) {
#if __CUDA_ARCH__ == 900
  out[threadIdx.x] = 1.0f;
#endif
}

// A faster path for one GPU and another implementation for its siblings (the
// shape of FlashInfer's generated kernels): reported as a note, below lint's
// default threshold, not as a warning.
__global__ void shared_address(unsigned *out, unsigned base) {
// EXPECT-NEXT-LINE: exact-arch-equality
#if __CUDA_ARCH__ == 1200
  out[threadIdx.x] = base + 1u; // the sm_120 path
#else
  out[threadIdx.x] = base + threadIdx.x % 32u;
#endif
}

// The build's users: the wrapper and the kernels above are named where a GEMM
// is instantiated or launched, so a build compiles them.
struct Fp8Gemm {
  __device__ void operator()() {}
};
using Sm120Fp8Gemm = enable_sm120_only<Fp8Gemm>;
void launch_all(float *out, unsigned *addr) {
  hopper_only<<<1, 32>>>(out);
  shared_address<<<1, 32>>>(addr, 0u);
}
