# and / or / not, early returns, and an unknown package probe kept as a condition.
import torch


def _major():
    return torch.cuda.get_device_capability()[0]


# EXPECT-PREDICATE: eng.logic.is_sm10x_or_sm12x true_on=sm_100,sm_103,sm_120,sm_121
def is_sm10x_or_sm12x():
    return _major() == 10 or _major() == 12


# EXPECT-PREDICATE: eng.logic.is_not_hopper_arch true_on=sm_75,sm_80,sm_86,sm_87,sm_89,sm_100,sm_103,sm_110,sm_120,sm_121
def is_not_hopper_arch():
    return not _major() == 9


# Early returns: False below sm_80, True on sm_9x, else only sm_120 exactly.
# EXPECT-PREDICATE: eng.logic.supports_sm90_or_sm120 true_on=sm_90,sm_120
def supports_sm90_or_sm120():
    major, minor = torch.cuda.get_device_capability()
    if major < 8:
        return False
    if major == 9:
        return True
    return major == 12 and minor == 0


def version_at_least(version, minimum):
    raise NotImplementedError  # read as the CUDA toolkit comparison it is


# A conditional expression of strings feeds a call: each branch is evaluated.
# EXPECT-PREDICATE: eng.logic.is_sm12x_with_toolkit true_on=sm_120,sm_121
def is_sm12x_with_toolkit():
    major, minor = torch.cuda.get_device_capability()
    if major != 12:
        return False
    min_cuda = "12.9" if minor >= 1 else "12.8"
    return version_at_least(torch.version.cuda, min_cuda)
