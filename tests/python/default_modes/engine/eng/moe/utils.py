from enum import Enum


class MoeRunnerBackend(Enum):
    AUTO = "auto"
    TRITON = "triton"
    MARLIN = "marlin"
    CUTLASS = "cutlass"
    FLASHINFER_CUTLASS = "flashinfer_cutlass"
    LORA_MARLIN = "lora_marlin"

    def is_auto(self):
        return self == MoeRunnerBackend.AUTO

    def is_triton(self):
        return self == MoeRunnerBackend.TRITON

    def is_marlin(self):
        return self == MoeRunnerBackend.MARLIN

    def is_cutlass(self):
        return self == MoeRunnerBackend.CUTLASS

    def is_flashinfer_cutlass(self):
        return self == MoeRunnerBackend.FLASHINFER_CUTLASS

    def is_lora_marlin(self):
        return self == MoeRunnerBackend.LORA_MARLIN


class MoeA2ABackend(Enum):
    NONE = "none"
    DEEPEP = "deepep"
    FLASHINFER_MEGAMOE = "flashinfer_megamoe"

    def is_none(self):
        return self == MoeA2ABackend.NONE

    def is_megamoe(self):
        return self == MoeA2ABackend.FLASHINFER_MEGAMOE


MOE_RUNNER_BACKEND = None


class MoeFlags:
    """Set from the server arguments at startup."""

    a2a_backend = None


_FLAGS = MoeFlags()


def get_moe_runner_backend() -> MoeRunnerBackend:
    return MOE_RUNNER_BACKEND


def get_moe_a2a_backend() -> MoeA2ABackend:
    if _FLAGS.a2a_backend is None:
        _FLAGS.a2a_backend = MoeA2ABackend.NONE
    return _FLAGS.a2a_backend
