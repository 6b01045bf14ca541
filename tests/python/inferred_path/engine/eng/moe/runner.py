# The dispatch: one branch per backend.
from eng.moe.backend import get_moe_runner_backend


def run_moe(x):
    backend = get_moe_runner_backend()
    if backend.is_trtllm():
        return x
    if backend.is_marlin():
        return x
    if backend == backend.CUTLASS:
        return x
