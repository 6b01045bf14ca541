from .blackwell.kernel import GroupedGemmKernel


def grouped_gemm_nvfp4(inputs):
    return GroupedGemmKernel(128)(inputs)
