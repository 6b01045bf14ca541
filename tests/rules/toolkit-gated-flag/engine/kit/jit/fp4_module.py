# Field bug 20 (flashinfer-ai/flashinfer #3951): the FP4 quantization module's
# flags carry -DENABLE_FP4 only on CUDA >= 12.8, so on 12.6 it builds without
# FP4 and the call fails later naming a dtype, not the toolkit. Written here
# for archscope's tests, in the shape of flashinfer/jit/fp4_quantization.py.
import torch

from .cpp_ext import gen_jit_spec, is_cuda_version_at_least


def gen_fp4_quantization_module(use_fast_build: bool = False):
    return gen_jit_spec(
        "fp4_quantization",
        ["fp4_quantization.cu"],
        extra_cuda_cflags=[
            "-DENABLE_BF16",
            "-DENABLE_FP4" if is_cuda_version_at_least("12.8") else "",  # EXPECT: toolkit-gated-flag
            "-DENABLE_FP8_BLOCK_SCALE" if torch.version.cuda >= "12.8" else "",  # EXPECT: toolkit-gated-flag
            # Must not flag: a flag gated on something other than the toolkit.
            "-DFAST_BUILD" if use_fast_build else "",
            # Must not flag: an architecture flag, not a feature of the code.
            "-gencode=arch=compute_100a,code=sm_100a" if is_cuda_version_at_least("12.8") else "",
        ],
    )


# Must not flag: the builder refuses an old toolkit out loud before the flags.
def gen_fp4_gemm_module():
    if not is_cuda_version_at_least("12.8"):
        raise RuntimeError("FP4 GEMM needs CUDA 12.8 or newer")
    return gen_jit_spec(
        "fp4_gemm",
        ["fp4_gemm.cu"],
        extra_cuda_cflags=["-DENABLE_FP4" if is_cuda_version_at_least("12.8") else ""],
    )
