"""CuTe-DSL grouped MoE: an enforced family check (vLLM's is_device_capability_family)."""
from tiny_kernels.platform import current_platform


def dsl_grouped_moe(x, weights):
    if not current_platform.is_device_capability_family(100):
        raise RuntimeError("dsl_grouped MoE runs only on the sm_100 family")
    return x
