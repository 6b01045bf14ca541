import torch

from .dsl_kernel import Sm100GroupedGemmKernel
from .utils import get_compute_capability, supported_compute_capability


def fp4_grouped_moe(x, w):
    if torch.cuda.get_device_capability() < (10, 0):
        raise RuntimeError("FP4 grouped MoE needs SM100 or newer")
    return x


def fp8_grouped_moe(x, w):
    if torch.cuda.get_device_capability() < (8, 9):
        raise RuntimeError("FP8 needs Ada or newer")
    return x


def gen_moe_module():
    return None


def topk_softmax(logits):
    return logits


class DslMoEWrapper:
    @supported_compute_capability([100, 103])
    def __init__(self, num_experts):
        self.num_experts = num_experts


def dsl_fp4_moe(x, w):
    kernel = Sm100GroupedGemmKernel(128)
    return x
