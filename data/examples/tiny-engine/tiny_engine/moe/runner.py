"""The dispatch: one branch per backend, calling into tiny-kernels."""
from tiny_engine.moe.backend import MoeBackend
from tiny_kernels.cutlass_grouped import cutlass_grouped_moe
from tiny_kernels.dsl_grouped import dsl_grouped_moe
from tiny_kernels.gen.launch import gen_moe
from tiny_kernels.w4a16 import w4a16_moe


def run_moe(moe_backend: MoeBackend, x, weights):
    if moe_backend.is_gen_cubins():
        return gen_moe(x, weights)
    elif moe_backend.is_cutlass_grouped():
        return cutlass_grouped_moe(x, weights)
    elif moe_backend.is_dsl_grouped():
        return dsl_grouped_moe(x, weights)
    elif moe_backend.is_w4a16():
        return w4a16_moe(x, weights)
    raise NotImplementedError(f"unknown MoE backend {moe_backend}")
