# The backend choice these capability predicates serve: a tree with predicates
# and no backend row is no engine (audit exits 3), so the case names one.
from enum import Enum


class MoeRunnerBackend(Enum):
    TRITON = "triton"
