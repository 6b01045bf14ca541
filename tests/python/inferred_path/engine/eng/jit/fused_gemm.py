# A second, unrelated backend enum (SGLang's jit_kernel/fused_a_gemm.py):
# its members are not MoE runners, so its folder is not where MoE runner
# registries are read.
from enum import Enum


class FusedGemmBackend(str, Enum):
    AUTO = "auto"
    JIT = "jit"
    CUTEDSL = "cutedsl"


def fused_gemm(a, b, backend=FusedGemmBackend.AUTO):
    return a @ b
