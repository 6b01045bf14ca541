# Enum predicate methods that test set membership: is_flashinfer_trtllm() is
# also true for the experimental variant (SGLang's MoeRunnerBackend).
from enum import Enum


class MoeRunnerBackend(Enum):
    AUTO = "auto"
    FLASHINFER_TRTLLM = "flashinfer_trtllm"
    EXPERIMENTAL_SGL_TRTLLM = "experimental_sgl_trtllm"
    MARLIN = "marlin"

    def is_flashinfer_trtllm(self):
        return self in (MoeRunnerBackend.FLASHINFER_TRTLLM, MoeRunnerBackend.EXPERIMENTAL_SGL_TRTLLM)

    def is_marlin(self):
        return self == MoeRunnerBackend.MARLIN
