import enum

import torch


class MoeBackend(enum.Enum):
    FP4 = "fp4"


def run(moe_backend):
    if moe_backend == MoeBackend.FP4 and torch.cuda.get_device_capability()[0] != 10:
        raise RuntimeError("sm_100 only")
