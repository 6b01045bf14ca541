# Predicates built with functools.partial around one checker (SGLang utils/common.py).
from functools import lru_cache, partial

import torch


def _check_cuda_device_version(device_capability_majors, cuda_version):
    return (
        torch.cuda.get_device_capability()[0] in device_capability_majors
        and tuple(map(int, torch.version.cuda.split(".")[:2])) >= cuda_version
    )


# EXPECT-PREDICATE: eng.utils.is_sm120_supported true_on=sm_120,sm_121
is_sm120_supported = lru_cache(maxsize=1)(
    partial(_check_cuda_device_version, device_capability_majors=[12], cuda_version=(12, 8))
)
# EXPECT-PREDICATE: eng.utils.is_sm90_supported true_on=sm_90
is_sm90_supported = lru_cache(maxsize=1)(
    partial(_check_cuda_device_version, device_capability_majors=[9], cuda_version=(12, 3))
)
# The toolkit gate: CUDA 13.0 is assumed, so a 13.1 requirement is false everywhere.
# EXPECT-PREDICATE: eng.utils.is_sm100_with_cuda_13_1 true_on=none
is_sm100_with_cuda_13_1 = partial(_check_cuda_device_version, device_capability_majors=[10], cuda_version=(13, 1))
