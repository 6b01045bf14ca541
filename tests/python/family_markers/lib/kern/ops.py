import torch


def native_moe(x):
    return torch.ops.kern.native_moe(x)


def dequant_moe(x):
    return torch.ops.kern.dequant_moe(x)
