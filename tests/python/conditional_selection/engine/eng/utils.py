import torch


def is_sm100_supported():
    return torch.cuda.get_device_capability()[0] == 10


def is_sm120_supported():
    return torch.cuda.get_device_capability()[0] == 12

# EXPECT-PREDICATE: eng.utils.is_sm100_supported true_on=sm_100,sm_103
# EXPECT-PREDICATE: eng.utils.is_sm120_supported true_on=sm_120,sm_121
