# A JIT library keeps the GPUs of its supported major versions and raises when
# none is left (FlashInfer's get_nvcc_flags_list): a clean error, not a crash.
from enum import Enum

from kern.moe import trtllm_moe


class MoeBackend(Enum):
    TRTLLM = "trtllm"


def run(moe_backend: MoeBackend):
    if moe_backend == MoeBackend.TRTLLM:
        return trtllm_moe()


# EXPECT-CELL: trtllm sm_100 supported
# EXPECT-CELL: trtllm sm_121 supported
# EXPECT-CELL: trtllm sm_110 rejected
# EXPECT-CELL: trtllm sm_90 rejected
