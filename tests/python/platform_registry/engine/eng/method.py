from enum import Enum

from eng.runtime_context import get_platform


class MoeBackend(Enum):
    TRTLLM = "trtllm"


class Fp4Method:
    def __init__(self, moe_backend: MoeBackend):
        if moe_backend == MoeBackend.TRTLLM and not get_platform().is_blackwell:
            raise ValueError("Blackwell only")


# EXPECT-CELL: trtllm sm_90 rejected
# EXPECT-CELL: trtllm sm_121 supported
