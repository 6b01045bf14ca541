from pathlib import Path

from kern.artifacts import ArtifactPath

CSRC_DIR = Path(__file__).parent.parent / "csrc"


class JitSpec:
    def __init__(self, name, sources, flags):
        self.name, self.sources, self.flags = name, sources, flags

    def build_and_load(self):
        raise NotImplementedError("compiles with nvcc at run time")


def gen_jit_spec(name, sources, extra_cuda_cflags=None):
    return JitSpec(name, sources, extra_cuda_cflags or [])


def gen_trtllm_moe_module():
    # The runner includes the kernel list published beside the cubins.
    include_path = f"{ArtifactPath.TRTLLM_GEN_BMM}/include"
    return gen_jit_spec("trtllm_moe", [CSRC_DIR / "trtllm_moe.cu"], extra_cuda_cflags=["-I" + include_path])


def gen_cutlass_moe_module():
    headers = f"{ArtifactPath.CUTLASS_EXTRA}/include"
    return gen_jit_spec("cutlass_moe", [CSRC_DIR / "cutlass_moe.cu"], extra_cuda_cflags=["-I" + headers])


def gen_gen_moe_module():
    include_path = f"{ArtifactPath.GEN_GEMM}/include"
    return gen_jit_spec("gen_moe", [CSRC_DIR / "gen_moe.cu"], extra_cuda_cflags=["-I" + include_path])
