# vLLM's platform vocabulary: exact, family and at-least checks.
from eng.platforms import current_platform


# EXPECT-PREDICATE: eng.checks.is_sm100_exact true_on=sm_100
def is_sm100_exact():
    return current_platform.is_device_capability(100)


# EXPECT-PREDICATE: eng.checks.is_sm100_family true_on=sm_100,sm_103
def is_sm100_family():
    return current_platform.is_device_capability_family(100)


# EXPECT-PREDICATE: eng.checks.has_sm89_capability true_on=sm_89,sm_90,sm_100,sm_103,sm_110,sm_120,sm_121
def has_sm89_capability():
    return current_platform.has_device_capability(89)


# The field bug (vllm PR #33417): a selector that checks only family(100).
# EXPECT-PREDICATE: eng.checks.is_fp4_moe_arch_supported true_on=sm_90,sm_100,sm_103,sm_120,sm_121
def is_fp4_moe_arch_supported():
    p = current_platform
    return p.is_device_capability(90) or p.is_device_capability_family(100) or p.is_device_capability_family(120)
