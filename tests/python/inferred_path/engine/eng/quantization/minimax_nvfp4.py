# A model's own NVFP4 MoE method (SGLang 0.5.23's MiniMax M3): its file quotes
# "nvfp4" as the format of an index cache, not as the quantization method, so
# its class is not the format's MoE method and its raise rejects nothing.
from eng.moe.backend import get_moe_runner_backend


class MiniMaxNvfp4Config:
    def __init__(self, index_k_quant_type: str = "nvfp4"):
        if index_k_quant_type.lower() != "nvfp4":
            raise ValueError("MiniMax NVFP4 needs index_k_quant_type='nvfp4'")


class MiniMaxNvfp4MoE:
    def apply(self, layer, x):
        backend = get_moe_runner_backend()
        if backend.is_marlin():
            return x
        if backend.is_trtllm():
            return x
        raise RuntimeError("MiniMax NVFP4 experts must run through the MegaMoE path")
