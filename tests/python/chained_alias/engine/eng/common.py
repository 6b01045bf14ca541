# Chained aliases bind every name on the chain to the same predicate.
from functools import lru_cache, partial

import torch


def _majors(majors):
    return torch.cuda.get_device_capability()[0] in majors


# EXPECT-PREDICATE: eng.common.is_blackwell_supported true_on=sm_100,sm_103,sm_110,sm_120,sm_121
# EXPECT-PREDICATE: eng.common.is_blackwell true_on=sm_100,sm_103,sm_110,sm_120,sm_121
is_blackwell_supported = is_blackwell = lru_cache(maxsize=1)(partial(_majors, majors=[10, 11, 12]))
