# The kernel library, installed in the same folder as the engine (a
# site-packages tree). Its functions are reached through the engine's calls.
import torch

from kern.utils import supported_compute_capability


@supported_compute_capability([100, 103, 110, 120, 121])
def cutlass_fused_moe(x):
    return x


@supported_compute_capability([100, 103])
def trtllm_fused_moe(x):
    return x


# A kernel no backend of the engine calls: its allow-list says nothing of
# the engine's backends. Must not flag: cutlass and marlin are not crash-risk
# on sm_100 for it.
@supported_compute_capability([120, 121])
def b12x_fused_moe(x):
    return x


# The library's own option check, about a backend of its own ("nccl_ep" is
# none of the engine's) and a version read at run time (FlashInfer's
# moe_ep validation). Must not flag: no cell is undecided for it, and it is
# no row of the matrix.
# EXPECT-NO-ROW: nccl_ep
def validate_arch_for_backend(backend: str):
    cc = _device_capability()
    if cc < (9, 0):
        raise ValueError(f"{backend} requires sm_90+")
    if backend == "nccl_ep" and cc >= (10, 0):
        nccl_ver = _installed_nccl_version()
        if nccl_ver is not None and nccl_ver < (2, 30, 7):
            raise ValueError("nccl_ep on Blackwell requires NCCL >= 2.30.7")


def _device_capability():
    return torch.cuda.get_device_capability(torch.cuda.current_device())


def _installed_nccl_version():
    return torch.cuda.nccl.version()
