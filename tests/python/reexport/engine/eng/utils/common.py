import torch


# EXPECT-PREDICATE: eng.utils.common.is_sm100_supported true_on=sm_100,sm_103
def is_sm100_supported():
    return torch.cuda.get_device_capability()[0] == 10
