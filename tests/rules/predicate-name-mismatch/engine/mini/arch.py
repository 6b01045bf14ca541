# The same bug as written in mini-sglang's python/minisgl/utils/arch.py: the
# named predicates call one helper with the generation as an argument, and the
# helper compares the cached capability with `>=`.
import functools

import torch


@functools.cache
def _device_capability():
    if not torch.cuda.is_available():
        return None
    return torch.cuda.get_device_capability()


def is_arch_supported(major: int, minor: int = 0) -> bool:
    arch = _device_capability()
    if arch is None:
        return False
    return arch >= (major, minor)


def is_sm90_supported() -> bool:  # EXPECT: predicate-name-mismatch
    return is_arch_supported(9, 0)


def is_sm100_supported() -> bool:  # EXPECT: predicate-name-mismatch
    return is_arch_supported(10, 0)


# Must not flag: the helper's answer held to the family the name promises.
def is_sm120_supported() -> bool:
    return is_arch_supported(12, 0) and not is_arch_supported(13, 0)
