import functools
from types import SimpleNamespace

import torch

from kern.jit import gen_trtllm_moe_module, gen_trtllm_moe_v2_module


def get_trtllm_moe_module():
    # Delegates: the getter itself builds nothing.
    enable_rubin = torch.cuda.get_device_capability() == (10, 7)
    return _get_trtllm_moe_module_impl(enable_rubin)


@functools.cache
def _get_trtllm_moe_module_impl(enable_rubin):
    module = gen_trtllm_moe_module(enable_rubin=enable_rubin)
    op = module.build_and_load()
    return SimpleNamespace(trtllm_moe=op.trtllm_moe)


def trtllm_moe(x):
    return get_trtllm_moe_module().trtllm_moe(x)


def get_trtllm_moe_v2_module():
    enable_rubin = torch.cuda.get_device_capability() == (10, 7)
    return _get_trtllm_moe_v2_module_impl(enable_rubin)


@functools.cache
def _get_trtllm_moe_v2_module_impl(enable_rubin):
    # The spec is built here and handed to a wrapper that loads it.
    return _build_namespace(gen_trtllm_moe_v2_module(enable_rubin=enable_rubin))


def _build_namespace(module):
    op = module.build_and_load()
    return SimpleNamespace(trtllm_moe=op.trtllm_moe)


def trtllm_moe_v2(x):
    return get_trtllm_moe_v2_module().trtllm_moe(x)
