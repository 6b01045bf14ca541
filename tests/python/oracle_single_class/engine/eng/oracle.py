# An oracle whose kernel map returns one class per backend, not a list
# (vLLM before #33417, field bug 1): the same matrix as a list gives.
from enum import Enum

from eng.experts import B12xExperts, CutlassExperts, MarlinExperts, TrtLlmExperts


class Fp4Backend(Enum):
    B12X = "B12X"
    TRTLLM = "TRTLLM"
    CUTLASS = "CUTLASS"
    MARLIN = "MARLIN"


def backend_to_kernel_cls(backend):
    if backend == Fp4Backend.B12X:
        return B12xExperts
    elif backend == Fp4Backend.TRTLLM:
        return TrtLlmExperts
    elif backend == Fp4Backend.CUTLASS:
        return CutlassExperts
    return MarlinExperts


def select_backend(config):
    AVAILABLE_BACKENDS = [Fp4Backend.B12X, Fp4Backend.TRTLLM, Fp4Backend.CUTLASS, Fp4Backend.MARLIN]
    for backend in AVAILABLE_BACKENDS:
        k_cls = backend_to_kernel_cls(backend)  # one class, not a list (vLLM before #33417)
        if k_cls._supports_current_device():
            return backend, k_cls
    raise NotImplementedError("no backend")


# EXPECT-CELL: auto sm_120 supported picked=b12x
# EXPECT-CELL: auto sm_100 supported picked=trtllm
# EXPECT-CELL: auto sm_90 supported picked=cutlass
# EXPECT-CELL: auto sm_110 supported picked=marlin
# EXPECT-CELL: trtllm sm_120 rejected
# EXPECT-CELL: cutlass sm_110 rejected
# EXPECT-CELL: b12x sm_121 supported
# EXPECT-CELL: b12x sm_100 rejected
