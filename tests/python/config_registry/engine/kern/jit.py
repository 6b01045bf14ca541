from pathlib import Path

CSRC_DIR = Path(__file__).parent.parent / "csrc"


class JitSpec:
    def __init__(self, name, sources, flags):
        self.name, self.sources, self.flags = name, sources, flags

    def build_and_load(self):
        raise NotImplementedError("compiles with nvcc at run time")


def gen_jit_spec(name, sources, extra_cuda_cflags=None):
    return JitSpec(name, sources, extra_cuda_cflags or [])
