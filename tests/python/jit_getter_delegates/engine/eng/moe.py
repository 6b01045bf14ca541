from enum import Enum

import kern.moe


class MoeBackend(Enum):
    TRTLLM = "trtllm"


def run(moe_backend: MoeBackend, x):
    if moe_backend == MoeBackend.TRTLLM:
        return kern.moe.trtllm_moe(x)


# No profile, no cubins installed: the family is read off the sources of the
# module the getter's delegate builds (FlashInfer 0.6.17's shape), whose name
# is chosen by a flag. The runner picks cubins by CudaArch::Sm100a: tcgen05.
# EXPECT-CELL: trtllm sm_100 supported
# EXPECT-CELL: trtllm sm_103 supported
# EXPECT-CELL: trtllm sm_120 crash-risk
# EXPECT-CELL: trtllm sm_90 crash-risk
