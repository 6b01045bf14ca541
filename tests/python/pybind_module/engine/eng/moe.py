from enum import Enum

import torch

import fp4_ext


class MoeBackend(Enum):
    EXT = "ext"


def run(moe_backend: MoeBackend, x):
    if torch.cuda.get_device_capability() < (9, 0):
        raise ValueError("needs Hopper or newer")
    if moe_backend == MoeBackend.EXT:
        return fp4_ext.grouped_gemm(x)


# fp4_ext.grouped_gemm is csrc/ext.cc's m.def("grouped_gemm", ...): its
# kernel has a body on SM10x only.
# EXPECT-CELL: ext sm_100 supported
# EXPECT-CELL: ext sm_103 supported
# EXPECT-CELL: ext sm_120 crash-risk
