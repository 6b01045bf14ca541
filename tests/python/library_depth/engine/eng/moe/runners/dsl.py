# A runner whose kernels archscope cannot see (a CuTe DSL kernel compiled at
# run time): it returns on its default path, so the raise on its DeepEP path
# rejects no GPU, though it is on every path that reaches a compiled kernel.
from eng.moe.runners.base import register_fused_func


def _dsl_grouped_gemm(x):
    return x


@register_fused_func("none", "dsl")
def fused_experts_none_to_dsl(x, quant_info):
    return _dsl_grouped_gemm(x)


@register_fused_func("deepep", "dsl")
def fused_experts_deepep_to_dsl(x, quant_info):
    from kern.moe import fp4_moe

    return fp4_moe(x)


# EXPECT-CELL: dsl sm_110 supported
# EXPECT-CELL: dsl sm_100 supported
