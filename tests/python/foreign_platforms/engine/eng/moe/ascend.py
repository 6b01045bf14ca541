"""Huawei's runner: its ops come from the engine's own NPU folder."""
from eng.hardware_backend.npu.ops import npu_swiglu
from eng.moe.base import register_fused_func


@register_fused_func("none", "ascend")
def fused_experts_none_to_ascend(dispatch_output, config):
    return npu_swiglu(dispatch_output)


# EXPECT-CELL: ascend sm_100 rejected
# EXPECT-CELL: ascend sm_121 rejected
