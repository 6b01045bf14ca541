import torch


def fp4_moe(x):
    return torch.ops.kern.fp4_moe(x)
