import torch


def cutlass_moe(x):
    return x


def triton_moe(x):
    return x


def marlin_moe(x):
    return x


def flashinfer_moe(x):
    return x


MOE_IMPLS = {"cutlass": cutlass_moe, "triton": triton_moe, "marlin": marlin_moe, "flashinfer": flashinfer_moe}
ACTIVATIONS = {"silu": torch.nn.functional.silu, "gelu": torch.nn.functional.gelu}


def run_moe(config, x, activation):
    if config.quantization == "nvfp4" and config.moe_backend == "triton":
        if torch.cuda.get_device_capability()[0] >= 10:
            raise ValueError("the Triton NVFP4 MoE runs on Hopper only")
    x = ACTIVATIONS[activation](x)  # indexed by something else: no rows
    return MOE_IMPLS[config.moe_backend](x)


# EXPECT-CELL: flashinfer sm_100 supported
# EXPECT-CELL: triton sm_90 supported
# EXPECT-CELL: triton sm_100 rejected
# EXPECT-NO-ROW: silu
