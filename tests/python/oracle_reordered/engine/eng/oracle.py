# An oracle whose candidate list is rewritten before it is walked (a filter
# that keeps the order, then a per-GPU reorder) and whose walk asks a helper
# object, not the kernel map, for each candidate's kernel classes.
from enum import Enum

from eng.experts import CutlassExperts, HummingExperts, MarlinExperts, TrtLlmExperts
from eng.priority import prioritize_humming


class Fp4Backend(Enum):
    TRTLLM = "TRTLLM"
    CUTLASS = "CUTLASS"
    MARLIN = "MARLIN"
    HUMMING = "HUMMING"


WITH_CLAMP = {Fp4Backend.TRTLLM, Fp4Backend.CUTLASS, Fp4Backend.MARLIN, Fp4Backend.HUMMING}


def backend_to_kernel_cls(backend):
    if backend == Fp4Backend.TRTLLM:
        return [TrtLlmExperts]
    elif backend == Fp4Backend.CUTLASS:
        return [CutlassExperts]
    elif backend == Fp4Backend.HUMMING:
        return [HummingExperts]
    return [MarlinExperts]


class KernelOracle:
    """Asks each candidate's kernel classes (vLLM 0.34's NvFp4MoEKernelOracle)."""

    def try_backend(self, backend):
        for k_cls in backend_to_kernel_cls(backend):
            if k_cls._supports_current_device():
                return k_cls, None
        return None, "not supported on this device"


def select_backend(config):
    AVAILABLE_BACKENDS = [Fp4Backend.TRTLLM, Fp4Backend.CUTLASS, Fp4Backend.MARLIN, Fp4Backend.HUMMING]
    AVAILABLE_BACKENDS = prioritize_humming(AVAILABLE_BACKENDS)
    if config.swiglu_limit is not None:
        AVAILABLE_BACKENDS = [b for b in AVAILABLE_BACKENDS if b in WITH_CLAMP]
    oracle = KernelOracle()
    for backend in AVAILABLE_BACKENDS:
        kernel_cls, _ = oracle.try_backend(backend)
        if kernel_cls is not None:
            return backend, kernel_cls
    raise NotImplementedError("no backend")


# Hopper walks humming before marlin; every other GPU keeps the written order.
# EXPECT-CELL: auto sm_90 supported picked=humming
# EXPECT-CELL: auto sm_89 supported picked=marlin
# EXPECT-CELL: auto sm_110 supported picked=marlin
# EXPECT-CELL: auto sm_100 supported picked=trtllm
# EXPECT-CELL: auto sm_120 supported picked=cutlass
# EXPECT-CELL: humming sm_90 supported
# EXPECT-CELL: trtllm sm_120 rejected
