# Field bug 16 (sgl-project/mini-sglang PR #146): `is_sm100_supported` was
# written `cc >= (10, 0)`, so an RTX 5090 (sm_120) took the SM100-only trtllm
# attention path. Written here for archscope's tests.
import functools

import torch


@functools.lru_cache(maxsize=1)
def is_sm100_supported() -> bool:  # EXPECT: predicate-name-mismatch
    return torch.cuda.get_device_capability() >= (10, 0)


# Must not flag: the body keeps to the family its name promises.
def is_sm120_supported() -> bool:
    major, _ = torch.cuda.get_device_capability()
    return major == 12


def is_sm90_supported() -> bool:
    return torch.cuda.get_device_capability() == (9, 0)


def is_sm10x() -> bool:
    return torch.cuda.get_device_capability()[0] == 10


# Must not flag: the name itself promises an open range.
def is_sm90_or_newer() -> bool:
    return torch.cuda.get_device_capability() >= (9, 0)
