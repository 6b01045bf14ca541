from types import SimpleNamespace

from .jit import CSRC_DIR, gen_jit_spec


def gen_moe_sm100_module():
    return gen_jit_spec("moe_sm100", [CSRC_DIR / "moe_launcher.cu"], extra_cuda_cflags=["-DENABLE_FP4"])


def gen_moe_sm120_module():
    return gen_jit_spec("moe_sm120", [CSRC_DIR / "moe_sm120.cu"], extra_cuda_cflags=["-DENABLE_FP4"])


def get_moe_sm120_module():
    module = gen_moe_sm120_module()
    op = module.build_and_load()
    return SimpleNamespace(fp4_moe=op.fp4_moe)


def get_moe_sm100_module():
    module = gen_moe_sm100_module()
    op = module.build_and_load()

    class Runner:
        def __init__(self, hidden_size):
            self.hidden_size = hidden_size

        def forward(self, inputs):
            return op.fp4_moe(inputs)

    return SimpleNamespace(fp4_moe=op.fp4_moe, Runner=Runner)
