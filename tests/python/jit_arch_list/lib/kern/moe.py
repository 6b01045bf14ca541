import functools

from kern.context import current_compilation_context


def _load_checksums(path):
    for line in open(path):  # a search loop: falling out of it is an error path
        if line.startswith("meta"):
            return line
    raise ValueError("no metadata")


@functools.cache
def gen_trtllm_module():
    assert _load_checksums("checksums.txt"), "download failed"
    flags = current_compilation_context.get_nvcc_flags_list(supported_major_versions=[10, 12])
    return flags


def trtllm_moe():
    return gen_trtllm_module()
