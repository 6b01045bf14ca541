import torch

from kern.utils import supported_compute_capability


@supported_compute_capability([100, 103])  # EXPECT: allowlist-not-enforced
def gen_moe():
    return "cubins for sm_100a and sm_103a"


# Must not flag: the same list, checked before the kernel runs.
@supported_compute_capability([100, 103])
def checked_moe():
    major, minor = torch.cuda.get_device_capability()
    if major * 10 + minor not in (100, 103):
        raise RuntimeError("checked_moe: sm_100/sm_103 only")
    return "ok"
