# A runner function registered under the backend's name: the runner looks it
# up by that name, so archscope walks it as an entry of flashinfer_trtllm.
import torch

from eng.moe.runners.base import register_fused_func


@register_fused_func("none", "flashinfer_trtllm")
def fused_experts_none_to_flashinfer_trtllm(dispatch_output, quant_info):
    # Both arms fall through: the check below is reached on every path,
    # whatever isinstance() says.
    if isinstance(dispatch_output, tuple):
        hidden = dispatch_output[0]
    else:
        hidden = dispatch_output
    if torch.cuda.get_device_capability()[0] != 10:
        raise RuntimeError("TRT-LLM-gen MoE kernels are SM100-family only")
    return hidden


@register_fused_func("deepep", "flashinfer_trtllm")
def fused_experts_deepep_to_flashinfer_trtllm(dispatch_output, quant_info):
    # Runs only with the DeepEP all-to-all configured, not by default: its
    # raise makes no GPU's cell rejected (must not flag sm_103).
    if torch.cuda.get_device_capability() == (10, 3):
        raise RuntimeError("DeepEP low-latency dispatch has no SM103 kernels")
    return dispatch_output


# EXPECT-CELL: flashinfer_trtllm sm_100 supported
# EXPECT-CELL: flashinfer_trtllm sm_103 supported
# EXPECT-CELL: flashinfer_trtllm sm_120 rejected
# EXPECT-CELL: flashinfer_trtllm sm_90 rejected
