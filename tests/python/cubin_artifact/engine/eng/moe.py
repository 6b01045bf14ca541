from enum import Enum

import torch

import kern.moe


class MoeBackend(Enum):
    TRTLLM = "trtllm"
    CUTLASS = "cutlass"
    GEN = "gen"


def run(moe_backend: MoeBackend, x):
    if torch.cuda.get_device_capability() < (10, 0):
        raise ValueError("needs Blackwell")
    if moe_backend == MoeBackend.TRTLLM:
        return kern.moe.trtllm_moe(x)
    if moe_backend == MoeBackend.CUTLASS:
        return kern.moe.cutlass_moe(x)
    if moe_backend == MoeBackend.GEN:
        return kern.moe.gen_moe(x)


# No profile: TRT-LLM-gen's builder reads ArtifactPath.TRTLLM_GEN_BMM, and
# the installed cubins under that path are named for sm_100a alone (field
# bugs 9 and 11): a B300 and an RTX PRO 6000 find no cubin.
# EXPECT-CELL: trtllm sm_100 supported
# EXPECT-CELL: trtllm sm_103 crash-risk
# EXPECT-CELL: trtllm sm_120 crash-risk
# cutlass's builder names an artifact folder that is not installed: no
# pool, so no verdict comes from cubins.
# EXPECT-CELL: cutlass sm_103 supported
# EXPECT-CELL: cutlass sm_120 supported
# gen's kernels are prebuilt cubins too (its runner compiles none), and no
# tree holds them: which GPUs they load on is unknown, not ok.
# EXPECT-CELL: gen sm_100 unknown
# EXPECT-CELL: gen sm_120 unknown
