from enum import Enum

import torch

from kern.moe import trtllm_moe


class MoeBackend(Enum):
    TRTLLM = "trtllm"


def run(moe_backend: MoeBackend, x):
    if moe_backend == MoeBackend.TRTLLM:
        if torch.cuda.get_device_capability()[0] != 10:
            raise ValueError("TRT-LLM-gen MoE needs SM10x")
        return trtllm_moe(x)


# The pool (lib/cubins/*/batched_gemm-*) holds sm_100a cubins only: they
# load on 10.0 alone.
# EXPECT-CELL: trtllm sm_100 supported
# EXPECT-CELL: trtllm sm_103 crash-risk
# EXPECT-CELL: trtllm sm_120 rejected
