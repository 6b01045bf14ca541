"""The MoE backends, as an enum with predicate methods (SGLang's MoeRunnerBackend)."""
from enum import Enum


class MoeBackend(Enum):
    AUTO = "auto"
    GEN_CUBINS = "gen_cubins"
    EXPERIMENTAL_GEN_CUBINS = "experimental_gen_cubins"
    CUTLASS_GROUPED = "cutlass_grouped"
    DSL_GROUPED = "dsl_grouped"
    W4A16 = "w4a16"

    def is_auto(self):
        return self == MoeBackend.AUTO

    def is_gen_cubins(self):
        # The experimental variant shares the cubins, so it answers true too.
        return self in (MoeBackend.GEN_CUBINS, MoeBackend.EXPERIMENTAL_GEN_CUBINS)

    def is_cutlass_grouped(self):
        return self == MoeBackend.CUTLASS_GROUPED

    def is_dsl_grouped(self):
        return self == MoeBackend.DSL_GROUPED

    def is_w4a16(self):
        return self == MoeBackend.W4A16
