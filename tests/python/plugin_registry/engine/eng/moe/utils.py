from enum import Enum


class MoeRunnerBackend(Enum):
    AUTO = "auto"
    TRITON = "triton"
    HPC_OPS = "hpc_ops"
    DEEP_GEMM = "deep_gemm"

    def is_triton(self):
        return self == MoeRunnerBackend.TRITON

    def is_hpc_ops(self):
        return self == MoeRunnerBackend.HPC_OPS

    def is_deep_gemm(self):
        return self == MoeRunnerBackend.DEEP_GEMM


MOE_RUNNER_BACKEND = None


def get_moe_runner_backend() -> MoeRunnerBackend:
    return MOE_RUNNER_BACKEND
