# Field bug 1 (vLLM PR #33417): after the oracle refactor every NVFP4 MoE
# selector checked only `is_device_capability_family(100)`, so FlashInfer-
# CUTLASS, whose mma-blockscale kernels run on sm_120, was refused on an RTX
# PRO 6000. The fix added `or is_device_capability_family(120)`. Written here
# for archscope's tests.
import torch


def is_device_capability_family(family: int) -> bool:
    major, _ = torch.cuda.get_device_capability()
    return major == family // 10


class CutlassExperts:
    @staticmethod
    def _supports_current_device() -> bool:  # EXPECT: family-predicate-gap
        return is_device_capability_family(100)


# Must not flag: tcgen05 kernels only; sm_110 (also tcgen05) being refused is
# a question of which GPUs the cubins were built for, not a forgotten family.
class TrtLlmExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        return is_device_capability_family(100)


# Must not flag: both families checked (the fix).
class CuteDslExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        return is_device_capability_family(100) or is_device_capability_family(120)


class MarlinExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        return True
