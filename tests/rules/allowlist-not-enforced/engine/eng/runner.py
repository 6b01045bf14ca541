# The engine calls library kernels after its own Blackwell check. One kernel
# declares its GPUs with a decorator nobody checks (FlashInfer's
# @supported_compute_capability before PR #3670; field bugs 15 and 18).
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
