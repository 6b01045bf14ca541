import torch


# EXPECT-PREDICATE: eng.utils.is_sm120_supported true_on=sm_120,sm_121
def is_sm120_supported():
    major, _ = torch.cuda.get_device_capability()
    return major == 12
