from enum import Enum

import torch

import kern.ops


class MoeBackend(Enum):
    GROUPED = "grouped"


def run(moe_backend: MoeBackend, x):
    if torch.cuda.get_device_capability() < (9, 0):
        raise ValueError("needs Hopper or newer")
    if moe_backend == MoeBackend.GROUPED:
        return kern.ops.grouped_gemm(x)


# run_grouped_gemm launches grouped_gemm_kernel, which has a body on SM10x
# only; the file's other kernel (pack_weights_kernel, another op's) has a
# body everywhere and must not make sm_120 look built.
# EXPECT-CELL: grouped sm_100 supported
# EXPECT-CELL: grouped sm_120 crash-risk
# EXPECT-CELL: grouped sm_90 crash-risk
