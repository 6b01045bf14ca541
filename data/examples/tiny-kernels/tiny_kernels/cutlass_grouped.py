"""CUTLASS grouped GEMM MoE: one JIT module per architecture string."""
import torch


def _module_for(device_arch):
    if device_arch in ("120", "121"):
        return "cutlass_moe_sm120"
    elif device_arch in ("100", "103", "110"):
        return "cutlass_moe_sm100"
    raise ValueError(f"no CUTLASS MoE module for sm_{device_arch}")


def cutlass_grouped_moe(x, weights):
    major, minor = torch.cuda.get_device_capability()
    device_arch = f"{major * 10 + minor}"
    _module_for(device_arch)
    out = torch.empty_like(x)
    # The compiled extension (csrc/, built by CMakeLists.txt).
    torch.ops.tiny_kernels.cutlass_grouped_moe(out, x, weights)
    return out
