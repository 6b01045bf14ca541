# The engine calls a library function whose allow-list is declared by a
# decorator but never enforced (FlashInfer's @supported_compute_capability).
from enum import Enum

import torch
from kern.moe import checked_moe, gen_moe


class MoeBackend(Enum):
    GEN = "gen"
    CHECKED = "checked"


def run(moe_backend: MoeBackend):
    if torch.cuda.get_device_capability() < (10, 0):
        raise RuntimeError("Blackwell only")
    if moe_backend == MoeBackend.GEN:
        return gen_moe()
    if moe_backend == MoeBackend.CHECKED:
        return checked_moe()


# EXPECT-CELL: gen sm_100 supported
# EXPECT-CELL: gen sm_103 supported
# EXPECT-CELL: gen sm_110 crash-risk
# EXPECT-CELL: gen sm_120 crash-risk
# EXPECT-CELL: gen sm_90 rejected
# EXPECT-CELL: checked sm_120 rejected
# EXPECT-CELL: checked sm_100 supported
