# The engine admits each backend on every GPU from sm_90 on; what exists
# below is the JIT library's business.
from enum import Enum

import torch

from kern.gemm import grouped_gemm, fused_act


class MoeBackend(Enum):
    JIT_GEMM = "jit_gemm"
    JIT_ACT = "jit_act"


def run(moe_backend: MoeBackend, x):
    if torch.cuda.get_device_capability() < (9, 0):
        raise ValueError("needs Hopper or newer")
    if moe_backend == MoeBackend.JIT_GEMM:
        return grouped_gemm(x)
    if moe_backend == MoeBackend.JIT_ACT:
        return fused_act(x)


# The gemm module's kernel has a body only with ENABLE_SM100_GEMM (the
# builder's flag) on SM10x: built elsewhere it is empty. Its export name
# `run` is shared with another module, so only the builder's source list
# says which files it compiles.
# EXPECT-CELL: jit_gemm sm_100 supported
# EXPECT-CELL: jit_gemm sm_103 supported
# EXPECT-CELL: jit_gemm sm_120 crash-risk
# EXPECT-CELL: jit_gemm sm_90 crash-risk
# The activation kernel needs the per-target macro (KERN_CUDA_ARCH >= 900).
# EXPECT-CELL: jit_act sm_90 supported
# EXPECT-CELL: jit_act sm_121 supported
