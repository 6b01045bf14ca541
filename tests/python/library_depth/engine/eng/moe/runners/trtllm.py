# A registered runner that reaches the kernel library through a helper of
# its own (SGLang's fused_experts_none_to_flashinfer_trtllm -> _fp4 ->
# flashinfer's trtllm_fp4_block_scale_moe): the library's chain to its JIT
# build (getter, cached builder, spec, compilation context) is as deep as a
# profile's entry there would see, so its raise on GPUs the build has no
# architecture for is found.
from eng.moe.runners.base import register_fused_func


def _fp4(x, routed=False):
    from kern.moe import fp4_moe, fp4_routed_moe

    if routed:
        return fp4_routed_moe(x)
    return fp4_moe(x)


@register_fused_func("none", "trtllm")
def fused_experts_none_to_trtllm(x, quant_info):
    return _fp4(x)


# EXPECT-CELL: trtllm sm_100 supported
# EXPECT-CELL: trtllm sm_110 rejected
# EXPECT-CELL: trtllm sm_120 supported
# EXPECT-CELL: trtllm sm_90 rejected
