from .jit import CSRC_DIR, gen_jit_spec, is_cuda_version_at_least
from .utils import get_compute_capability

SOURCES = [CSRC_DIR / "moe_binding.cu", CSRC_DIR / "moe_gemm.cu"]


def gen_moe_module(flags, device_arch, module_name=None):
    # Named like FlashInfer's: the name is known only through `or`.
    return gen_jit_spec(module_name or f"moe_{device_arch}", SOURCES, extra_cuda_cflags=flags)


def gen_moe_sm100_module():
    return gen_moe_module(["-DCOMPILE_BLACKWELL_GEMMS", "-DENABLE_FP8", "-DENABLE_FP4"], "100")


def gen_moe_sm90_module():
    flags = ["-DENABLE_FP8", "-DENABLE_FP4" if is_cuda_version_at_least("12.8") else ""]
    return gen_moe_module(flags, "90")


def gen_moe_sm89_module():
    return gen_moe_module(["-DENABLE_FP8"], "89")


def get_moe_module(backend):
    if backend in ("100", "103"):
        module = gen_moe_sm100_module().build_and_load()
    elif backend == "90":
        module = gen_moe_sm90_module().build_and_load()
    elif backend == "89":
        module = gen_moe_sm89_module().build_and_load()
    else:
        raise ValueError(f"Invalid backend: {backend}")
    return module


def fp4_moe(x, w):
    major, minor = get_compute_capability(x.device)
    return get_moe_module(f"{major * 10 + minor}").fp4_moe(x, w)


def fp4_moe_for(x, w, arch):
    return get_moe_module(arch).fp4_moe(x, w)


def get_named_moe_module(backend, name):
    # The caller names the module: both branches build `module`, one entry
    # name for modules of different flags.
    if backend == "89":
        module = gen_moe_module(["-DENABLE_FP8"], "89", name).build_and_load()
    elif backend in ("100", "103"):
        module = gen_moe_module(["-DENABLE_FP8", "-DENABLE_FP4"], "100", name).build_and_load()
    else:
        raise ValueError(f"Invalid backend: {backend}")
    return module


def fp4_moe_named(x, w, name):
    major, minor = get_compute_capability(x.device)
    return get_named_moe_module(f"{major * 10 + minor}", name).fp4_moe(x, w)
