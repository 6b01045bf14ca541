# One JIT module per GPU family, chosen by a capability string its caller
# passes (a value the walk does not know): each module may be the one built.
from kern.jit import CSRC_DIR, gen_jit_spec


def get_moe_module(arch: str):
    if arch in ("120", "121"):
        module = gen_jit_spec("moe_sm120", [CSRC_DIR / "moe_sm120.cu"]).build_and_load()
    elif arch in ("100", "103"):
        module = gen_jit_spec("moe_sm100", [CSRC_DIR / "moe_sm100.cu"]).build_and_load()
    else:
        raise ValueError(f"no MoE module for sm_{arch}")
    return module


def fused_moe(x, arch):
    return get_moe_module(arch).run(x)
