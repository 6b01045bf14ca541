# `x is None` and `x is not None` are one run-time fact, not two: exactly one
# of the two arms runs, so the check is reached on every path.
import torch

from eng.moe.runners.base import register_fused_func


def _needs_sm80():
    if torch.cuda.get_device_capability() < (8, 0):
        raise RuntimeError("Triton NVFP4 MoE needs sm_80 or newer")


@register_fused_func("none", "triton")
def fused_experts_none_to_triton(dispatch_output, quant_info):
    if quant_info.input_scale is None:
        _needs_sm80()
    if quant_info.input_scale is not None:
        _needs_sm80()
    return dispatch_output


# EXPECT-CELL: triton sm_75 rejected
