import torch


def _get_device_sm_via_nvml():
    import pynvml  # not followed: the name says what it returns

    return pynvml.nvmlDeviceGetCudaComputeCapability(0)


def get_device_sm():
    if not torch.cuda.is_initialized():
        sm = _get_device_sm_via_nvml()
        if sm is not None:
            return sm
    major, minor = torch.cuda.get_device_capability()
    return major * 10 + minor


# EXPECT-PREDICATE: eng.common.is_blackwell_supported true_on=sm_100,sm_103,sm_110,sm_120,sm_121
def is_blackwell_supported():
    return get_device_sm() // 10 in [10, 11, 12]
