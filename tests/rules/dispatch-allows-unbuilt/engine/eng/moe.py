# The sm_120 crash class (field bugs 8, 9, 15): the dispatch admits every GPU
# from Hopper on, but the kernel behind one backend only has a body for the
# SM100 family. Written here for archscope's tests.
from enum import Enum

import torch

ops = torch.ops.fixture_kernels


def get_jit_moe_module():
    import tvm_ffi

    return tvm_ffi.load_module("jit_moe.so")  # built from csrc/jit_moe_launcher.cu at first use


def load_prebuilt_cubins(name):
    return lambda x: x  # fetched and loaded at run time, in the real engines


class MoeBackend(Enum):
    GEN = "gen"
    CHECKED = "checked"
    GROUPED = "grouped"
    CUBIN_GEN = "cubin_gen"
    JIT = "jit"
    MARLIN = "marlin"


def run(moe_backend: MoeBackend, x):
    if torch.cuda.get_device_capability() < (9, 0):
        raise RuntimeError("needs Hopper or newer")
    if moe_backend == MoeBackend.GEN:
        return torch.ops.fixture_kernels.gen_fp4_moe.default(x)  # EXPECT: dispatch-allows-unbuilt
    # The build layer: CMake compiles this kernel for the 10.x and 12.x
    # families only (CMakeLists.txt), so Hopper and Thor get nothing.
    if moe_backend == MoeBackend.GROUPED:
        return torch.ops.fixture_kernels.grouped_fp4_moe(x)  # EXPECT: dispatch-allows-unbuilt
    # A JIT module's export (tvm-ffi): its launcher's kernel is SM100-only.
    if moe_backend == MoeBackend.JIT:
        return get_jit_moe_module().jit_fp4_moe(x)  # EXPECT: dispatch-allows-unbuilt
    # The isa layer: prebuilt tcgen05 cubins loaded at run time (no compiled
    # entry to follow); Hopper and the 12.x GPUs have no tcgen05.
    if moe_backend == MoeBackend.CUBIN_GEN:  # EXPECT: dispatch-allows-unbuilt
        return load_prebuilt_cubins("gen_moe_sm100a.cubin")(x)
    # Must not flag: the C++ entry refuses the GPUs its kernel lacks with a
    # TORCH_CHECK, a clean error rather than a crash.
    if moe_backend == MoeBackend.CHECKED:
        return torch.ops.fixture_kernels.checked_fp4_moe(x)
    # Must not flag: this kernel has a body on every target from sm_80.
    if moe_backend == MoeBackend.MARLIN:
        return ops.marlin_moe(x)
