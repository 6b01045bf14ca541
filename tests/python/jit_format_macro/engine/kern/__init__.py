# A kernel library audited alone that builds one JIT module per GPU from the
# same sources, each with its own -D flags (FlashInfer's fused-MoE modules):
# the sm_89 module leaves out ENABLE_FP4, under which the sources compile the
# NVFP4 runner, so the NVFP4 path has no code on sm_89.
from .moe import fp4_moe, fp4_moe_for, fp4_moe_named

# EXPECT-CELL: fp4_moe sm_89 crash-risk
# The sm_90 module defines ENABLE_FP4 only on a new enough toolkit, which is
# not known here: it may define it, so sm_90 is not flagged.
# Not flagged: the sm_90 module leaves out COMPILE_BLACKWELL_GEMMS, which the
# sources test and the sm_100 module defines, but whose name says nothing of
# NVFP4; every module leaves out FP4_E2M1_CONVERSIONS, which no module defines.
# EXPECT-CELL: fp4_moe sm_90 supported
# EXPECT-CELL: fp4_moe sm_100 supported
# EXPECT-CELL: fp4_moe sm_80 rejected
# fp4_moe_for takes the module's arch from its caller: the sm_89 module may
# be built on any GPU, which decides no cell.
# EXPECT-CELL: fp4_moe_for sm_89 supported
# EXPECT-CELL: fp4_moe_for sm_100 supported
# EXPECT-CELL: fp4_moe_for sm_120 supported
# fp4_moe_named's modules share one entry name (the caller names them): the
# flags of one are not taken for the other's, so sm_100 is not flagged, and
# neither is sm_89, which would need knowing which module the name is.
# EXPECT-CELL: fp4_moe_named sm_100 supported
# EXPECT-CELL: fp4_moe_named sm_89 supported
