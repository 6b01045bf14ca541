# Field bug 14 (flashinfer PR #3670): TrtllmFp4Config.supported() said
# `arch >= 100`, but TRT-LLM-gen cubins need tcgen05, which sm_120 lacks; the
# fix was `100 <= arch < 120`. Written here for archscope's tests.
import torch


def _arch() -> int:
    major, minor = torch.cuda.get_device_capability()
    return major * 10 + minor


# One finding for one cause: the guard's shape (no upper bound) is reported
# here, not again as the dispatch reaching sm_12x, where tcgen05 is absent.
class TrtLlmExperts:
    @staticmethod
    def _supports_current_device() -> bool:  # EXPECT: open-ended-arch-guard
        return _arch() >= 100


# Must not flag: bounded to the GPUs with tcgen05 (the fix).
class CuteDslExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        return 100 <= _arch() < 120


# Must not flag: open-ended, but every GPU it admits has one of its families.
class CutlassExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        return _arch() >= 100


class MarlinExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        return _arch() >= 80
