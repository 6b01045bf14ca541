import functools
from types import SimpleNamespace

from kern.jit import gen_cutlass_moe_module, gen_gen_moe_module, gen_trtllm_moe_module


@functools.cache
def get_trtllm_moe_module():
    # Built, then wrapped: the getter's value is not the module itself.
    module = gen_trtllm_moe_module()
    op = module.build_and_load()
    return SimpleNamespace(trtllm_moe=op.trtllm_moe)


@functools.cache
def get_cutlass_moe_module():
    return gen_cutlass_moe_module().build_and_load()


def trtllm_moe(x):
    return get_trtllm_moe_module().trtllm_moe(x)


def cutlass_moe(x):
    return get_cutlass_moe_module().cutlass_moe(x)


@functools.cache
def get_gen_moe_module():
    module = gen_gen_moe_module()
    op = module.build_and_load()
    return SimpleNamespace(gen_moe=op.gen_moe)


def gen_moe(x):
    return get_gen_moe_module().gen_moe(x)
