import torch
import triton

import flashinfer


def run_moe(config, x):
    backend = config.moe_backend
    if backend == "flashinfer_trtllm":
        if torch.cuda.get_device_capability()[0] == 9:
            raise ValueError("TRT-LLM-gen MoE needs Blackwell")
        from flashinfer.fused_moe import trtllm_fp4_block_scale_moe

        return trtllm_fp4_block_scale_moe(x)
    if backend == "flashinfer_cutlass":
        return flashinfer.fused_moe.cutlass_fused_moe(x)
    if backend == "experimental_trtllm":
        # Named after no package, but flashinfer is the library the
        # flashinfer_* rows are named after: its kernels are there too.
        return flashinfer.fused_moe.trtllm_fp4_block_scale_moe(x)
    if backend == "triton":
        return _triton_moe(x)
    if backend == "marlin":
        return _marlin_moe(x)
    raise ValueError(f"unknown MoE backend {backend}")


def _triton_moe(x):
    # triton compiles the trees' own kernels: a call into it is no library's kernel.
    blocks = triton.cdiv(x.shape[0], 64)
    return x * blocks


def _marlin_moe(x):
    return torch.ops.eng_kernels.marlin_moe(x)


# FlashInfer is not given: what runs on the GPU is unknown, with the
# package to give, not "dispatch admits it".
# EXPECT-CELL: flashinfer_trtllm sm_120 unknown
# EXPECT-CELL: flashinfer_trtllm sm_100 unknown
# EXPECT-CELL: flashinfer_cutlass sm_120 unknown
# EXPECT-CELL: experimental_trtllm sm_120 unknown
# A raise before the library call still decides the cell.
# EXPECT-CELL: flashinfer_trtllm sm_90 rejected
# EXPECT-CELL: triton sm_90 supported
# EXPECT-CELL: marlin sm_120 supported
