# A kernel library audited on its own: its public MoE entry points are the rows.
from .moe import DslMoEWrapper, dsl_fp4_moe, fp4_grouped_moe, fp8_grouped_moe, gen_moe_module, topk_softmax
from .plain.wrapper import PlainMoEWrapper
from .tuned.wrapper import TunedMoEWrapper

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
# TunedMoEWrapper launches its kernel through state the walk does not keep;
# its module imports, in its own folder, a kernel that imports tcgen05.
# EXPECT-CELL: TunedMoEWrapper sm_100 supported
# EXPECT-CELL: TunedMoEWrapper sm_120 crash-risk
# PlainMoEWrapper's module imports that kernel from another folder: no family.
# EXPECT-CELL: PlainMoEWrapper sm_120 supported
# Not rows: another format's entry, a module builder, a non-MoE op.
# EXPECT-NO-ROW: fp8_grouped_moe
# EXPECT-NO-ROW: gen_moe_module
# EXPECT-NO-ROW: topk_softmax
