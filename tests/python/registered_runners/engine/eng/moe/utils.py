from enum import Enum

import torch


class MoeRunnerBackend(Enum):
    AUTO = "auto"
    FLASHINFER_TRTLLM = "flashinfer_trtllm"
    MARLIN = "marlin"
    TRITON = "triton"
    CUTLASS = "cutlass"

    def is_flashinfer_trtllm(self):
        return self == MoeRunnerBackend.FLASHINFER_TRTLLM

    def is_marlin(self):
        return self == MoeRunnerBackend.MARLIN


MOE_RUNNER_BACKEND = None


def get_moe_runner_backend() -> MoeRunnerBackend:
    return MOE_RUNNER_BACKEND
