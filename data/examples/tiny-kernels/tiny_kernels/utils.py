"""FlashInfer-style helpers: a declared allow-list decorator and capability reads."""
import torch


def supported_compute_capability(supported_ccs):
    """Records the allow-list on the function; checks nothing by itself."""

    def decorator(func):
        func._supported_ccs = set(supported_ccs)
        return func

    return decorator


def get_compute_capability(device):
    return torch.cuda.get_device_capability(device)
