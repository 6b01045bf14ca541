# SGLang 0.5.23's NVFP4 MoE method. Two shapes that read "supported" when
# the code is read world by world:
# - create_moe_runner returns early under the MegaMoE all-to-all backend, an
#   option off by default, before it refuses cutlass;
# - apply asserts the activation is one it serves, then serves four runners
#   and refuses the rest: whatever the activation, one of the two raises for
#   triton. Not for lora_marlin, which create_moe_runner names: the LoRA
#   layer replaces the forward that calls apply.
import torch

from eng.moe.utils import get_moe_a2a_backend, get_moe_runner_backend

_SUPPORTED_ACTIVATIONS = ("silu", "gelu")


class ModelOptNvFp4FusedMoEMethod:
    def __init__(self, quant_config):
        self.quant_config = quant_config

    def create_moe_runner(self, layer, moe_runner_config):
        backend = get_moe_runner_backend()
        if get_moe_a2a_backend().is_megamoe():
            # The MoE forward is never reached under MegaMoE.
            self.runner = None
            return
        if backend.is_lora_marlin():
            self.runner = None  # the LoRA layer runs the experts itself
            return
        if backend.is_cutlass():
            raise NotImplementedError("cutlass is not supported for NVFP4 MoE")
        self.runner = moe_runner_config

    def apply(self, layer, dispatch_output):
        backend = get_moe_runner_backend()
        activation = self.runner.activation
        assert activation in _SUPPORTED_ACTIVATIONS or (
            activation == "situ" and backend.is_flashinfer_cutlass()
        )
        if backend.is_marlin():
            return torch.ops.marlin_moe(dispatch_output)
        if backend.is_flashinfer_cutlass():
            return torch.ops.cutlass_fused_moe(dispatch_output)
        if backend.is_cutlass():
            return torch.ops.cutlass_moe_fp4(dispatch_output)
        if backend.is_auto():
            return dispatch_output
        raise NotImplementedError(f"Unsupported moe_runner_backend for NVFP4 MoE: {backend}")


# EXPECT-CELL: cutlass sm_100 rejected
# EXPECT-CELL: cutlass sm_120 rejected
# EXPECT-CELL: triton sm_90 rejected
# EXPECT-CELL: triton sm_120 rejected
# EXPECT-CELL: flashinfer_cutlass sm_120 supported
# EXPECT-CELL: marlin sm_90 supported
# EXPECT-CELL: lora_marlin sm_120 supported
