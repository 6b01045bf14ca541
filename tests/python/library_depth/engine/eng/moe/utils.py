# The backend enum: its package is the engine; kern/ is the kernel library.
from enum import Enum


class MoeRunnerBackend(Enum):
    AUTO = "auto"
    TRTLLM = "trtllm"
    MARLIN = "marlin"
    DSL = "dsl"


def get_moe_runner_backend():
    return MoeRunnerBackend.AUTO
