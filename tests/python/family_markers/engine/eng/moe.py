from enum import Enum

import torch

import kern.ops


class MoeBackend(Enum):
    NATIVE = "native"
    DEQUANT = "dequant"


def run(moe_backend: MoeBackend, x):
    if torch.cuda.get_device_capability() < (9, 0):
        raise ValueError("needs Hopper or newer")
    if moe_backend == MoeBackend.NATIVE:
        return kern.ops.native_moe(x)
    if moe_backend == MoeBackend.DEQUANT:
        return kern.ops.dequant_moe(x)


# No profile: the kernel families are read off the linked sources.
# native_moe's kernel has a body on every target, but its inline PTX is
# tcgen05.mma: sm_120 has a kernel of an ISA it lacks.
# EXPECT-CELL: native sm_100 supported
# EXPECT-CELL: native sm_103 supported
# EXPECT-CELL: native sm_120 crash-risk
# EXPECT-CELL: native sm_90 crash-risk
# dequant_moe is bf16 mma.sync: every GPU from sm_80 has it.
# EXPECT-CELL: dequant sm_120 supported
# EXPECT-CELL: dequant sm_90 supported
