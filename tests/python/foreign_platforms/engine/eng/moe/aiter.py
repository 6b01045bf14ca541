# AMD's runner: the aiter package is imported where it is used, in the
# helpers, not at module level (the module stays importable everywhere).
from eng.moe.base import register_fused_func


def _aiter_activation(config):
    from aiter import ActivationType

    return ActivationType.Silu


@register_fused_func("none", "aiter")
def fused_experts_none_to_aiter(dispatch_output, config):
    return dispatch_output


# EXPECT-CELL: aiter sm_90 rejected
# EXPECT-CELL: aiter sm_100 rejected
# EXPECT-CELL: aiter sm_120 rejected
