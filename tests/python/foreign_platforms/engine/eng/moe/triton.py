# The Triton runner runs on NVIDIA and AMD GPUs alike: it imports aiter for a
# ROCm fast path, once under a branch and once in a helper only ROCm calls.
# Its name names no platform, so neither import makes it AMD's.
import torch

from eng.moe.base import register_fused_func

_use_aiter = torch.version.hip is not None
if _use_aiter:
    from aiter import moe_sum  # noqa: F401


def _rocm_moe_sum(x):
    from aiter import moe_sum

    return moe_sum(x)


@register_fused_func("none", "triton")
def fused_experts_none_to_triton(dispatch_output, config):
    return dispatch_output


# EXPECT-CELL: triton sm_100 supported
# EXPECT-CELL: triton sm_120 supported
