from enum import Enum


class MoeRunnerBackend(Enum):
    CUTEDSL = "cutedsl"
    TRITON = "triton"
