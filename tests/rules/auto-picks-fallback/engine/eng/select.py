# Field bug 3 (vllm #31085): the automatic NVFP4 choice checks the SM100
# family only, so an RTX PRO 6000 (sm_120) silently runs the Marlin W4A16
# fallback although FlashInfer's CUTLASS MoE, admitted there too, has a
# native SM120 kernel. Written here for archscope's tests.
from enum import Enum

import torch


class Fp4Backend(Enum):
    AUTO = "auto"
    FLASHINFER_CUTLASS = "flashinfer_cutlass"
    MARLIN = "marlin"


def family(major):
    return torch.cuda.get_device_capability()[0] == major


def select_backend(moe_backend: Fp4Backend):
    if moe_backend == Fp4Backend.AUTO:
        if family(10):
            # Must not flag: the native kernels on SM10x.
            moe_backend = Fp4Backend.FLASHINFER_CUTLASS
        else:
            # Flagged on sm_120/121 only: on Hopper and Ampere nothing native runs.
            moe_backend = Fp4Backend.MARLIN  # EXPECT: auto-picks-fallback
    if moe_backend == Fp4Backend.FLASHINFER_CUTLASS and not (family(10) or family(12)):
        raise ValueError("FlashInfer CUTLASS MoE needs SM100 or SM120")
    if moe_backend == Fp4Backend.MARLIN and torch.cuda.get_device_capability() < (8, 0):
        raise ValueError("Marlin needs sm_80")
    return moe_backend
