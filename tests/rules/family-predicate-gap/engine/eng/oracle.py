from enum import Enum

from eng.experts import CuteDslExperts, CutlassExperts, MarlinExperts, TrtLlmExperts


class Fp4Backend(Enum):
    TRTLLM = "trtllm"
    CUTEDSL = "cutedsl"
    CUTLASS = "cutlass"
    MARLIN = "marlin"


def backend_to_kernel_cls(backend):
    if backend == Fp4Backend.TRTLLM:
        return [TrtLlmExperts]
    if backend == Fp4Backend.CUTEDSL:
        return [CuteDslExperts]
    if backend == Fp4Backend.CUTLASS:
        return [CutlassExperts]
    return [MarlinExperts]


def select_backend(config):
    AVAILABLE_BACKENDS = [Fp4Backend.TRTLLM, Fp4Backend.CUTEDSL, Fp4Backend.CUTLASS, Fp4Backend.MARLIN]
    for backend in AVAILABLE_BACKENDS:
        for k_cls in backend_to_kernel_cls(backend):
            if k_cls._supports_current_device():
                return backend, k_cls
    raise NotImplementedError("no backend")
