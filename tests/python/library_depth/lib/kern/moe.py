# The library's entries: a getter, then a cached builder (flashinfer's
# get_trtllm_moe_sm100_module -> _get_trtllm_moe_sm100_module_impl).
import functools

from kern.jit.gen import gen_moe_module


def get_moe_module():
    return _get_moe_module_impl(False)


@functools.cache
def _get_moe_module_impl(rubin):
    module = gen_moe_module()
    return module


def fp4_moe(x):
    return get_moe_module().run(x)


def fp4_routed_moe(x):
    return get_moe_module().run_routed(x)
