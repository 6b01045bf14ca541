// Field bug 4 (eugr/spark-vllm-docker #143): `enable_sm120_only` guards the
// kernel with __CUDA_ARCH__ == 1200, so a build for 12.1 traps on GB10.
#include <cutlass/cutlass.h>  // not present: skipped, the pass goes on

template <typename Kernel>
struct enable_sm120_only : Kernel {
  __device__ void operator()() {
#if defined __CUDA_ARCH__ && __CUDA_ARCH__ == 1200
    Kernel::operator()();
#else
    asm("trap;");
#endif
  }
};

// The fix: the whole 12.x family.
#if __CUDA_ARCH__ >= 1200 && __CUDA_ARCH__ < 1300
__global__ void family_kernel() {}
#endif

// tcgen05 needs the arch- or family-specific SM100 target, not __CUDA_ARCH__ >= 1000.
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000)
__global__ void tcgen05_kernel() {}
#elif __CUDA_ARCH__ >= 1000
__global__ void open_ended_kernel() {}  // sm_120 lands here, not in the tcgen05 kernel
#endif

#ifdef __CUDA_ARCH_SPECIFIC__
int arch_specific_build = __CUDA_ARCH_SPECIFIC__;
#endif

// Kernel bodies per target: code, empty, a trap, or not compiled at all.
__global__ void moe_sm120_kernel(float *out) {
#if __CUDA_ARCH__ == 1200
  out[0] = 1.0f;
#endif
}

__global__ void moe_trap_kernel(float *out) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  out[0] = 2.0f;
#else
  asm("trap;");
#endif
}
