// Exact-equality branches that add to or refuse one GPU (the shapes of
// FlashInfer 0.7.x's kernels). Written here for archscope's tests.
// Must not flag: a branch that compiles nothing where it is taken leaves its
// siblings nothing to lose. An `#error` refusing one GPU, and an exact guard
// whose only content is a nested guard false wherever it holds (both shapes
// of FlashInfer 0.7.4's generated attention kernels).
__global__ void reduce_load(float *out) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 1000)
#error "this load needs tcgen05.ld.red (sm_103), not sm_100"
#endif
#if __CUDA_ARCH__ == 1030
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 1000)
#error "this load needs tcgen05.ld.red (sm_103), not sm_100"
#endif
#else
#endif
  out[threadIdx.x] = 0.0f;
}

// A fence added for one GPU inside a kernel its siblings still build (the
// shape of FlashInfer's xqa/mha.cu on GB10): a note, not a warning.
__global__ void consume(unsigned *flags, float *out, const float *in) {
  float acc = 0.0f;
  for (int i = 0; i < 32; ++i) acc += in[threadIdx.x * 32 + i];
  out[threadIdx.x] = acc;
// EXPECT-NEXT-LINE: exact-arch-equality
#if __CUDA_ARCH__ == 1210
  __threadfence_block();
#endif
  atomicAdd(flags, 1u);
}

// The whole body in an exact branch: built for 12.1 the kernel is empty, a
// warning, though no #else says so.
__global__ void whole_body(float *out) {
// EXPECT-NEXT-LINE: exact-arch-equality
#if __CUDA_ARCH__ == 1200
  out[threadIdx.x] = 2.0f;
#endif
}

// A wrapper that nothing names (left behind when its users moved to the
// family guard: vLLM's enable_sm120_only after the fix): no build compiles
// it, so a note, not a warning.
template <typename Kernel>
struct enable_sm100_only : Kernel {
  __device__ void operator()() {
// EXPECT-NEXT-LINE: exact-arch-equality
#if __CUDA_ARCH__ == 1000
    Kernel::operator()();
#else
    asm("trap;");
#endif
  }
};

void launch_all(unsigned *flags, float *out, const float *in) {
  reduce_load<<<1, 32>>>(out);
  consume<<<1, 32>>>(flags, out, in);
  whole_body<<<1, 32>>>(out);
}

// Pipeline depths one GPU gets at file scope (FlashInfer 0.7.4's generated
// cake kernels), tested by no directive: built for sm_100 a use of one fails
// to compile, nothing else runs. A note.
// EXPECT-NEXT-LINE: exact-arch-equality
#if __CUDA_ARCH__ == 1030
#define NUM_Q_PIPE_STAGES 2
#define NUM_WORK_PIPE_STAGES 2
#endif

// The same #define, but a directive sm_100 reads tests it: built there the
// kernel silently takes the other path. A warning.
// EXPECT-NEXT-LINE: exact-arch-equality
#if __CUDA_ARCH__ == 1030
#define USE_WIDE_REDUCE 1
#endif

__global__ void reduce_pipelined(float *out) {
#if defined(USE_WIDE_REDUCE)
  out[threadIdx.x * 2] = 1.0f;
#endif
  out[threadIdx.x] = 0.0f;
}

void launch_pipelined(float *out) { reduce_pipelined<<<1, 32>>>(out); }
