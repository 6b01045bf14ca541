# A registered runner that reaches the kernel library through a helper of
# its own (SGLang's fused_experts_none_to_flashinfer_trtllm -> _fp4 ->
# flashinfer's trtllm_fp4_block_scale_moe): the library's chain to its JIT
# build (getter, cached builder, spec, compilation context) is as deep as a
# profile's entry there would see, so its raise on GPUs the build has no
# architecture for is found.
from eng.moe.runners.base import register_fused_func


class StandardTopK:
    pass


class BypassedTopK:
    pass


def _fp4(x, quant_info, topk):
    from kern.moe import fp4_moe, fp4_routed_moe

    # SGLang's FP4 runner: a materialized TopK goes the routed way; deferred
    # finalize refuses a TopK it cannot take, before any kernel. The build's
    # raise is then on every path that reaches a kernel but not on every
    # path, and the GPU is still rejected.
    hidden_pad = 0
    if quant_info.padded_hidden_size is not None:
        hidden_pad = quant_info.padded_hidden_size - x.shape[-1]
    use_routed = False
    if not use_routed and isinstance(topk, StandardTopK):
        use_routed = True
    defer = quant_info.deferred_finalize and hidden_pad == 0
    if defer:
        valid = (use_routed and isinstance(topk, StandardTopK)) or (not use_routed and isinstance(topk, BypassedTopK))
        if not valid:
            raise RuntimeError("deferred finalize needs a materialized or bypassed TopK")
    if use_routed:
        out = fp4_routed_moe(x)
    else:
        assert isinstance(topk, BypassedTopK)
        out = fp4_moe(x)
    return out


@register_fused_func("none", "trtllm")
def fused_experts_none_to_trtllm(x, quant_info):
    return _fp4(x, quant_info, quant_info.topk)


# EXPECT-CELL: trtllm sm_100 supported
# EXPECT-CELL: trtllm sm_110 rejected
# EXPECT-CELL: trtllm sm_120 supported
# EXPECT-CELL: trtllm sm_90 rejected
