from enum import Enum

import kern.moe


class MoeBackend(Enum):
    TRTLLM = "trtllm"
    TRTLLM_V2 = "trtllm_v2"


def run(moe_backend: MoeBackend, x):
    if moe_backend == MoeBackend.TRTLLM:
        return kern.moe.trtllm_moe(x)
    if moe_backend == MoeBackend.TRTLLM_V2:
        return kern.moe.trtllm_moe_v2(x)


# No profile, no cubins installed: the family is read off the sources of the
# module the getter's delegate builds (FlashInfer 0.6.17's shape), whose name
# is chosen by a flag. The runner picks cubins by CudaArch::Sm100a: tcgen05.
# EXPECT-CELL: trtllm sm_100 supported
# EXPECT-CELL: trtllm sm_103 supported
# EXPECT-CELL: trtllm sm_120 crash-risk
# EXPECT-CELL: trtllm sm_90 crash-risk
# FlashInfer 0.7.4's shape: the delegate passes the spec it builds to a
# wrapper (`return _build_namespace(gen_X(...))`), and the builder takes its
# sources from a helper's tuple. The same sources, so the same family.
# EXPECT-CELL: trtllm_v2 sm_100 supported
# EXPECT-CELL: trtllm_v2 sm_103 supported
# EXPECT-CELL: trtllm_v2 sm_120 crash-risk
# EXPECT-CELL: trtllm_v2 sm_90 crash-risk
