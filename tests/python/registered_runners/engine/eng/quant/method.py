# The NVFP4 MoE method: __init__ sets instance attributes the forward reads,
# a property reads the backend, getattr() offers a default, and the forward
# refuses every runner it has no NVFP4 path for. cutlass is rejected only if
# all three are read: any one left opaque would leave its raise undecided.
import torch

from eng.moe.utils import MoeRunnerBackend, get_moe_runner_backend


class Fp4Method:
    def __init__(self, config):
        from eng.moe.utils import get_moe_runner_backend as runner

        self.config = config
        self.enable_trtllm = runner().is_flashinfer_trtllm()
        self._weights_ready = None

    @property
    def enable_marlin(self):
        return get_moe_runner_backend().is_marlin()

    def mark_ready(self):
        # Set later: reading _weights_ready as None would be a guess.
        self._weights_ready = True

    def apply(self, layer, dispatch_output):
        backend = getattr(self, "_moe_runner_backend", get_moe_runner_backend())
        if self.enable_marlin:
            if self._weights_ready is None:
                raise RuntimeError("weights are not processed yet")
            if torch.cuda.get_device_capability() < (8, 0):
                raise ValueError("Marlin needs sm_80 or newer")
            return layer
        if self.enable_trtllm:
            return layer
        if backend == MoeRunnerBackend.TRITON:
            return layer
        raise NotImplementedError(f"Unsupported moe_runner_backend for NVFP4 MoE: {backend}")


# EXPECT-CELL: cutlass sm_90 rejected
# EXPECT-CELL: cutlass sm_100 rejected
# EXPECT-CELL: cutlass sm_120 rejected
# EXPECT-CELL: triton sm_90 supported
# EXPECT-CELL: triton sm_120 supported
# EXPECT-CELL: marlin sm_90 supported
# EXPECT-CELL: marlin sm_120 supported
# EXPECT-CELL: marlin sm_75 rejected
