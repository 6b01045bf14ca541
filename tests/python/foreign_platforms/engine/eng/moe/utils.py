from enum import Enum


class MoeRunnerBackend(Enum):
    AUTO = "auto"
    TRITON = "triton"
    AITER = "aiter"
    ASCEND = "ascend"

    def is_triton(self):
        return self == MoeRunnerBackend.TRITON

    def is_aiter(self):
        return self == MoeRunnerBackend.AITER

    def is_ascend(self):
        return self == MoeRunnerBackend.ASCEND


MOE_RUNNER_BACKEND = None


def get_moe_runner_backend() -> MoeRunnerBackend:
    return MOE_RUNNER_BACKEND
