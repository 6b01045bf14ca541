# Tuple comparisons: open-ended, chained, and exact.
import torch


def get_device_capability():
    return torch.cuda.get_device_capability()


# EXPECT-PREDICATE: eng.caps.is_blackwell_or_newer true_on=sm_100,sm_103,sm_110,sm_120,sm_121
def is_blackwell_or_newer():
    return get_device_capability() >= (10, 0)


# EXPECT-PREDICATE: eng.caps.use_ampere_hopper_arch true_on=sm_80,sm_86,sm_87,sm_89,sm_90
def use_ampere_hopper_arch():
    cap = get_device_capability()
    return (8, 0) <= cap < (10, 0)


# EXPECT-PREDICATE: eng.caps.is_sm103_exact true_on=sm_103
def is_sm103_exact():
    return get_device_capability() == (10, 3)
