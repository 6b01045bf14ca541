import functools

import torch


def get_compute_capability():
    major, minor = torch.cuda.get_device_capability()
    return major * 10 + minor


def supported_compute_capability(ccs):
    def wrap(fn):
        return fn

    return wrap
