# The NVFP4 MoE method: each backend's branch calls into the library package
# installed beside the engine.
from eng.moe.backend import get_moe_runner_backend
from eng.utils import is_sm100_supported
from kern.moe import cutlass_fused_moe, trtllm_fused_moe


class ModelOptNvFp4FusedMoEMethod:
    def apply(self, layer, x):
        backend = get_moe_runner_backend()
        if backend.is_trtllm():
            if not is_sm100_supported():
                raise ValueError("TRT-LLM NVFP4 MoE kernels are SM100-only")
            return trtllm_fused_moe(x)
        if backend.is_cutlass():
            return cutlass_fused_moe(x)
        if backend.is_marlin():
            return x

# EXPECT-CELL: trtllm sm_100 supported
# EXPECT-CELL: trtllm sm_120 rejected
# EXPECT-CELL: cutlass sm_100 supported
# EXPECT-CELL: cutlass sm_120 supported
# EXPECT-CELL: cutlass sm_121 supported
# EXPECT-CELL: marlin sm_90 supported
# EXPECT-CELL: marlin sm_120 supported
# EXPECT-CELL: auto sm_100 supported picked=trtllm
# EXPECT-CELL: auto sm_120 supported picked=cutlass
# EXPECT-CELL: auto sm_90 supported picked=marlin
