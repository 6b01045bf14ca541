from enum import Enum

import torch

import kern.ops


class MoeBackend(Enum):
    CUTLASS_FP4 = "cutlass_fp4"


def run(moe_backend: MoeBackend, x):
    if torch.cuda.get_device_capability()[0] not in (10, 12):
        raise ValueError("FP4 MoE needs SM10x or SM12x")
    if moe_backend == MoeBackend.CUTLASS_FP4:
        return kern.ops.fp4_moe(x)


# lib/CMakeLists.txt defines ENABLE_FP4_SM120 with CUDA 13.0 (the default
# assumed) and ENABLE_FP4_SM100 only from CUDA 14: built as that build does,
# the kernel has a body on 12.x and none on 10.x.
# EXPECT-CELL: cutlass_fp4 sm_120 supported
# EXPECT-CELL: cutlass_fp4 sm_121 supported
# EXPECT-CELL: cutlass_fp4 sm_100 crash-risk
