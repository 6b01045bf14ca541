# A module-level cached boolean, read later in a dispatch branch.
from enum import Enum

from eng.utils import is_sm120_supported

# EXPECT-PREDICATE: eng.layer._is_sm120 true_on=sm_120,sm_121
_is_sm120 = is_sm120_supported()


class MoeBackend(Enum):
    CUTLASS = "cutlass"


def build(moe_backend: MoeBackend):
    if moe_backend == MoeBackend.CUTLASS and not _is_sm120:
        raise ValueError("this cutlass path is sm_12x only")


# EXPECT-CELL: cutlass sm_121 supported
# EXPECT-CELL: cutlass sm_100 rejected
