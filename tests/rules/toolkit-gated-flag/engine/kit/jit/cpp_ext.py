import torch


def is_cuda_version_at_least(version: str) -> bool:
    return tuple(int(x) for x in torch.version.cuda.split(".")) >= tuple(int(x) for x in version.split("."))


def gen_jit_spec(name, sources, extra_cuda_cflags=None):
    return (name, sources, extra_cuda_cflags)
