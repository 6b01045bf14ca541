# The predicate reaches this module through the star re-export and an alias.
from enum import Enum

from eng.utils import is_sm100_supported as sm100


class MoeBackend(Enum):
    GEN = "gen"
    W4A16 = "w4a16"


def dispatch(moe_backend: MoeBackend):
    if moe_backend == MoeBackend.GEN:
        if not sm100():
            raise RuntimeError("gen needs sm_100")
        return "gen"
    return "w4a16"


# EXPECT-CELL: gen sm_100 supported
# EXPECT-CELL: gen sm_103 supported
# EXPECT-CELL: gen sm_120 rejected
# EXPECT-CELL: gen sm_90 rejected
# EXPECT-CELL: w4a16 sm_90 unknown
