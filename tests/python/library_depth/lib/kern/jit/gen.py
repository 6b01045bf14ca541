# A JIT module spec built for majors 10 and 12 only.
from kern.compilation_context import current_context


def gen_moe_module():
    flags = current_context.get_nvcc_flags_list(supported_major_versions=[10, 12])
    return flags
