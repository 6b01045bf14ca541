import torch

from eng.backend import MoeRunnerBackend


def get_moe_runner_backend() -> MoeRunnerBackend:
    raise NotImplementedError


class Fp4MoEMethod:
    def __init__(self):
        runner_backend = get_moe_runner_backend()
        if runner_backend.is_flashinfer_trtllm() and torch.cuda.get_device_capability()[0] != 10:
            raise ValueError("TRT-LLM MoE kernels are SM100-only")
        if runner_backend.is_marlin() and torch.cuda.get_device_capability() < (8, 0):
            raise ValueError("marlin needs sm_80")


# EXPECT-CELL: flashinfer_trtllm sm_100 supported
# EXPECT-CELL: flashinfer_trtllm sm_120 rejected
# EXPECT-CELL: experimental_sgl_trtllm sm_120 rejected
# EXPECT-CELL: experimental_sgl_trtllm sm_103 supported
# EXPECT-CELL: marlin sm_75 rejected
# EXPECT-CELL: marlin sm_120 supported
