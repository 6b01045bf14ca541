# Functions whose body returns a capability comparison.
import torch


def get_device_capability():
    major, minor = torch.cuda.get_device_capability()
    return major, minor


# EXPECT-PREDICATE: eng.platform_utils.is_hopper true_on=sm_90
def is_hopper():
    return torch.cuda.get_device_capability()[0] == 9


# EXPECT-PREDICATE: eng.platform_utils.is_sm100_family true_on=sm_100,sm_103
def is_sm100_family():
    major, minor = get_device_capability()
    return major * 10 + minor in (100, 103)


# EXPECT-PREDICATE: eng.platform_utils.supports_arch_sm12x true_on=sm_120,sm_121
def supports_arch_sm12x():
    sm = get_device_capability()[0] * 10 + get_device_capability()[1]
    return sm // 10 == 12
