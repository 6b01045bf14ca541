import torch


def triton_kernel_moe(x):
    if torch.cuda.get_device_capability()[0] == 10:
        raise ValueError("never walked: a walk would make triton rejected on SM10x")
    return x


# triton_kernels is not "triton" + "_moe": this module is no entry of triton.
# EXPECT-CELL: triton sm_100 unknown
