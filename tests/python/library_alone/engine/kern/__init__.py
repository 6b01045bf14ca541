# A kernel library audited on its own: its public MoE entry points are the rows.
from .moe import DslMoEWrapper, dsl_fp4_moe, fp4_grouped_moe, fp8_grouped_moe, gen_moe_module, topk_softmax

# EXPECT-CELL: fp4_grouped_moe sm_90 rejected
# EXPECT-CELL: fp4_grouped_moe sm_100 supported
# EXPECT-CELL: fp4_grouped_moe sm_120 supported
# DslMoEWrapper declares [100, 103] and never checks it.
# EXPECT-CELL: DslMoEWrapper sm_100 supported
# EXPECT-CELL: DslMoEWrapper sm_120 crash-risk
# dsl_fp4_moe builds a CuTe DSL kernel that imports tcgen05: read off the
# file its walk entered, sm_120 lacks that ISA.
# EXPECT-CELL: dsl_fp4_moe sm_100 supported
# EXPECT-CELL: dsl_fp4_moe sm_120 crash-risk
# Not rows: another format's entry, a module builder, a non-MoE op.
# EXPECT-NO-ROW: fp8_grouped_moe
# EXPECT-NO-ROW: gen_moe_module
# EXPECT-NO-ROW: topk_softmax
