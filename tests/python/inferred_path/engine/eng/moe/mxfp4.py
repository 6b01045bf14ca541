# A MoE module named for another format: what it raises under a marlin
# branch is MXFP4's, not NVFP4's.
from eng.moe.backend import get_moe_runner_backend
from eng.utils import is_sm90_supported, is_sm120_supported


def mxfp4_marlin_moe(x):
    if get_moe_runner_backend().is_marlin():
        if not is_sm90_supported() and not is_sm120_supported():
            raise RuntimeError("MXFP4 Marlin requires SM90 or SM120")
    return x
