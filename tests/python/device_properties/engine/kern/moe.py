from .blackwell_sm12x.dispatch import run_sm12x
from .jit import CSRC_DIR, gen_jit_spec
from .utils import get_compute_capability


def get_fp4_module(backend):
    if backend in ("120", "121"):
        module = gen_jit_spec("fp4_moe_120", [CSRC_DIR / "moe_sm120.cu"]).build_and_load()
    elif backend in ("100", "103"):
        module = gen_jit_spec("fp4_moe_100", [CSRC_DIR / "moe_sm100.cu"]).build_and_load()
    else:
        raise ValueError(f"Invalid backend: {backend}")
    return module


def fp4_moe(x, w):
    major, minor = get_compute_capability(x.device)
    device_arch = f"{major * 10 + minor}"
    return get_fp4_module(device_arch).fp4_moe(x, w)


def sm12x_moe(x, w, activation="nvfp4"):
    major, _ = get_compute_capability(x.device)
    if major != 12:
        raise RuntimeError("sm12x_moe needs an SM12x GPU")
    return run_sm12x(x, w, activation)
