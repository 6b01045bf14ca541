"""Automatic backend choice and the NVFP4 checks (SGLang's server-args stage)."""
from tiny_engine.moe.backend import MoeBackend
from tiny_engine.utils import get_device_capability, is_blackwell_supported, is_hopper

# A module-level cached boolean.
_is_blackwell = is_blackwell_supported()


def resolve_moe_backend(moe_backend: MoeBackend, quantization: str):
    if quantization != "nvfp4":
        return moe_backend
    if moe_backend.is_auto():
        if get_device_capability() >= (10, 0):
            # Open-ended: also true on sm_110 and sm_12x.
            moe_backend = MoeBackend.GEN_CUBINS
        elif (8, 0) <= get_device_capability() < (10, 0):
            moe_backend = MoeBackend.W4A16
    if not _is_blackwell and not moe_backend.is_w4a16():
        raise ValueError("NVFP4 MoE needs a Blackwell GPU, or --moe-backend w4a16 on sm_80+")
    if is_hopper() and moe_backend.is_dsl_grouped():
        raise ValueError("dsl_grouped has no Hopper kernels")
    return moe_backend
