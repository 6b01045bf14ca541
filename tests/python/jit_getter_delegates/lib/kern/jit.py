from pathlib import Path

CSRC_DIR = Path(__file__).parent.parent / "csrc"


class JitSpec:
    def __init__(self, name, sources, flags):
        self.name, self.sources, self.flags = name, sources, flags

    def build_and_load(self):
        raise NotImplementedError("compiles with nvcc at run time")


def gen_jit_spec(name, sources, extra_cuda_cflags=None):
    return JitSpec(name, sources, extra_cuda_cflags or [])


def gen_trtllm_moe_module(enable_rubin=False):
    module_name = "trtllm_moe_sm107" if enable_rubin else "trtllm_moe_sm100"
    return gen_jit_spec(module_name, [CSRC_DIR / "trtllm_moe.cu", CSRC_DIR / "batched_gemm_runner.cu"])


def trtllm_moe_build_inputs(module_name, nvcc_flags=None):
    # FlashInfer 0.7.4's shape: one helper returns the sources, the flags and
    # the include paths that two modules share.
    if nvcc_flags is None:
        nvcc_flags = ["-gencode=arch=compute_100a,code=sm_100a"]
    sources = [CSRC_DIR / "trtllm_moe.cu", CSRC_DIR / "batched_gemm_runner.cu"]
    return sources, ["-DENABLE_FP4", *nvcc_flags], [CSRC_DIR]


def gen_trtllm_moe_v2_module(enable_rubin=False):
    module_name = "trtllm_moe_v2_sm107" if enable_rubin else "trtllm_moe_v2_sm100"
    sources, cflags, include_paths = trtllm_moe_build_inputs(module_name)
    return gen_jit_spec(module_name, sources, extra_cuda_cflags=cflags)
