import functools

from kern.jit import CSRC_DIR, gen_jit_spec


@functools.cache
def get_gemm_module():
    flags = ["-DENABLE_SM100_GEMM"]
    flags += ["-O3"]
    return gen_jit_spec("grouped_gemm", [CSRC_DIR / "gemm/grouped_gemm.cu"], extra_cuda_cflags=flags).build_and_load()


@functools.cache
def get_act_module():
    return gen_jit_spec("fused_act", [CSRC_DIR / "act/fused_act.cu"]).build_and_load()


def grouped_gemm(x):
    return get_gemm_module().run(x)


def fused_act(x):
    module = get_act_module()
    return module.run(x)
