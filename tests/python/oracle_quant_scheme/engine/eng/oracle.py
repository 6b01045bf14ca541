# The NVFP4 oracle (vLLM's fused_moe/oracle/nvfp4.py): candidates in order,
# each checked by `is_supported_config` with the format's quantization keys.
from enum import Enum

from eng.experts import FlashInferCutlassExperts, MarlinExperts, TrtLlmExperts


class NvFp4MoeBackend(Enum):
    FLASHINFER_TRTLLM = "FLASHINFER_TRTLLM"
    FLASHINFER_CUTLASS = "FLASHINFER_CUTLASS"
    MARLIN = "MARLIN"


def backend_to_kernel_cls(backend):
    if backend == NvFp4MoeBackend.FLASHINFER_TRTLLM:
        return [TrtLlmExperts]
    elif backend == NvFp4MoeBackend.FLASHINFER_CUTLASS:
        return [FlashInferCutlassExperts]
    return [MarlinExperts]


def select_nvfp4_moe_backend(config, weight_key, activation_key):
    AVAILABLE_BACKENDS = [
        NvFp4MoeBackend.FLASHINFER_TRTLLM,
        NvFp4MoeBackend.FLASHINFER_CUTLASS,
        NvFp4MoeBackend.MARLIN,
    ]
    for backend in AVAILABLE_BACKENDS:
        for k_cls in backend_to_kernel_cls(backend):
            supported, reason = k_cls.is_supported_config(k_cls, config, weight_key, activation_key)
            if supported:
                return backend, k_cls
    raise NotImplementedError("no NVFP4 MoE backend supports this configuration")


# EXPECT-CELL: auto sm_90 supported picked=marlin
# EXPECT-CELL: auto sm_100 supported picked=flashinfer_trtllm
# EXPECT-CELL: auto sm_120 supported picked=flashinfer_cutlass
# EXPECT-CELL: flashinfer_cutlass sm_90 rejected
# EXPECT-CELL: flashinfer_cutlass sm_100 supported
# EXPECT-CELL: flashinfer_trtllm sm_120 rejected
# EXPECT-CELL: marlin sm_90 supported
