from kern.blockscaled_gemm import grouped_gemm_nt_masked


def cutedsl_moe_masked(x):
    return grouped_gemm_nt_masked(x)


def _pad(x):  # private: not an entry
    return x


def cutedsl_moe_fp8(x):  # named for another format: not an NVFP4 entry
    raise ValueError("FP8 CuTe DSL MoE is not implemented")


# No registry, no profile: this module is named for cutedsl, so its public
# functions are cutedsl's entries (SGLang's flashinfer_cutedsl_moe.py of
# early 2026). They reach a CuTe DSL tcgen05 kernel that raises on SM110.
# EXPECT-CELL: cutedsl sm_100 supported
# EXPECT-CELL: cutedsl sm_110 rejected
# EXPECT-CELL: cutedsl sm_120 crash-risk
