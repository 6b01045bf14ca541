"""Capability predicates, in the shapes SGLang's utils/common.py uses."""
from functools import lru_cache, partial

import torch


def is_cuda():
    return torch.version.cuda is not None


def _check_cuda_device_version(device_capability_majors, cuda_version):
    if not is_cuda():
        return False
    return (
        torch.cuda.get_device_capability()[0] in device_capability_majors
        and tuple(map(int, torch.version.cuda.split(".")[:2])) >= cuda_version
    )


is_sm100_supported = lru_cache(maxsize=1)(
    partial(_check_cuda_device_version, device_capability_majors=[10], cuda_version=(12, 8))
)
is_sm120_supported = lru_cache(maxsize=1)(
    partial(_check_cuda_device_version, device_capability_majors=[12], cuda_version=(12, 8))
)
# A chained alias: both names are the same predicate.
is_blackwell_supported = is_blackwell = lru_cache(maxsize=1)(
    partial(_check_cuda_device_version, device_capability_majors=[10, 11, 12], cuda_version=(12, 8))
)


def get_device_capability():
    major, minor = torch.cuda.get_device_capability()
    return major, minor


def is_hopper():
    return torch.cuda.get_device_capability()[0] == 9


def get_sm_version():
    major, minor = get_device_capability()
    return major * 10 + minor


def is_sm10x():
    # Set membership over the integer SM version.
    return get_sm_version() in (100, 103)
