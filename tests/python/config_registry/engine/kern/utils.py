import functools

import torch


@functools.cache
def get_device_properties(device):
    return torch.cuda.get_device_properties(device)


def get_compute_capability(device):
    if device.type != "cuda":
        raise ValueError("device must be a cuda device")
    properties = get_device_properties(device)
    return properties.major, properties.minor
