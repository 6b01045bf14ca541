import torch
from cutlass.cute.nvgpu import cpasync, tcgen05


def grouped_gemm_nt_masked(x):
    major, minor = torch.cuda.get_device_capability()
    if major == 11 and minor == 0:
        raise ValueError("SM110 is not supported for cute-dsl backend.")
    return tcgen05.mma(x)
