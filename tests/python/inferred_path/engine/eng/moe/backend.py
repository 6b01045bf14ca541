from enum import Enum


class MoeRunnerBackend(Enum):
    AUTO = "auto"
    TRTLLM = "trtllm"
    CUTLASS = "cutlass"
    MARLIN = "marlin"

    def is_auto(self):
        return self == MoeRunnerBackend.AUTO

    def is_trtllm(self):
        return self == MoeRunnerBackend.TRTLLM

    def is_marlin(self):
        return self == MoeRunnerBackend.MARLIN

    def is_cutlass(self):
        return self == MoeRunnerBackend.CUTLASS


_MOE_RUNNER_BACKEND = MoeRunnerBackend.AUTO


def get_moe_runner_backend():
    return _MOE_RUNNER_BACKEND

# A row no revision of this enum has (stale-profile.yaml names it).
# EXPECT-NO-ROW: trtllm_routed
