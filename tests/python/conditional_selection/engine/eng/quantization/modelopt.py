# The NVFP4 MoE method: its own fallback for auto, reached only when the
# override above left auto unresolved.
import torch

from eng.moe.backend import MoeRunnerBackend, get_moe_runner_backend
from eng.utils import is_sm100_supported


class ModelOptNvFp4FusedMoEMethod:
    def create_moe_runner(self, layer):
        moe_runner_backend = get_moe_runner_backend()
        if moe_runner_backend.is_auto():
            if (8, 0) <= torch.cuda.get_device_capability() < (10, 0):
                moe_runner_backend = MoeRunnerBackend.MARLIN
            else:
                moe_runner_backend = MoeRunnerBackend.TRTLLM
        self.backend = moe_runner_backend

    def apply(self, layer, x):
        backend = get_moe_runner_backend()
        if backend.is_trtllm():
            if not is_sm100_supported():
                raise ValueError("TRT-LLM NVFP4 MoE kernels are SM100-only")
            return x
        if backend.is_cutlass():
            return x
        if backend.is_marlin():
            return x

# EXPECT-CELL: auto sm_120 supported picked=cutlass
# EXPECT-CELL: auto sm_121 supported picked=cutlass
# EXPECT-CELL: auto sm_100 supported picked=trtllm
# EXPECT-CELL: auto sm_90 supported picked=marlin
# EXPECT-CELL: trtllm sm_120 rejected
# EXPECT-CELL: cutlass sm_120 supported
