# Another registry keyed by a name that is also a MoE runner's ("triton"):
# it lies outside the folder of the MoE backend enum, so it is not an entry
# of the MoE triton backend (if it were, triton would be rejected on sm_90:
# see eng/quant/method.py).
import torch

ATTENTION_BACKENDS = {}


def register_attention_backend(name):
    def wrap(fn):
        ATTENTION_BACKENDS[name] = fn
        return fn

    return wrap


@register_attention_backend("triton")
def create_triton_attention_backend(runner):
    if torch.cuda.get_device_capability() < (10, 0):
        raise ValueError("this attention backend needs Blackwell")
    return runner
