# Field bug 19 (sgl-project/sglang #32933): PD-multiplexing sizes its green
# contexts from a table of per-GPU constants that stops at Hopper, so an RTX
# PRO 6000 (12.0) gets "Unsupported compute capability: 12.0". Written here for
# archscope's tests, in the shape of sglang/srt/multiplex/pdmux_context.py.


def get_arch_constraints(compute_capability):
    major, minor = compute_capability
    if major == 7:
        return 2, 2  # min_per_part, multiple
    elif major == 8:
        return 4, 2
    elif major == 9 and minor >= 0:
        return 8, 8
    else:
        raise ValueError(f"Unsupported compute capability: {major}.{minor}")  # EXPECT: closed-arch-table


def split_tile(sm_version):
    # The same table written as 10 * major + minor: sm_86, sm_89 and every
    # Blackwell part fall through.
    if sm_version == 80:
        tile = 128
    elif sm_version in (90, 100):
        tile = 256
    else:
        raise NotImplementedError(f"no tile size for sm_{sm_version}")  # EXPECT: closed-arch-table
    return tile


# Must not flag: the last row holds for every newer GPU.
def get_arch_constraints_open(compute_capability):
    major, _ = compute_capability
    if major == 8:
        return 4, 2
    elif major >= 9:
        return 8, 8
    else:
        raise ValueError("Unsupported compute capability")


# Must not flag: the table names every GPU from Ampere to Blackwell.
def smem_budget(major):
    if major == 8:
        return 164
    elif major in (9, 10, 11):
        return 227
    elif major == 12:
        return 99
    else:
        raise ValueError(f"unknown major {major}")


# Must not flag: dispatch to per-GPU kernels; raising where no kernel exists is right.
def run_gemm(cc, a, b):
    if cc == (9, 0):
        return wgmma_gemm(a, b)
    elif cc == (10, 0):
        return tcgen05_gemm(a, b)
    else:
        raise RuntimeError("no GEMM kernel for this GPU")


# Must not flag: one GPU only, a kernel's own restriction.
def hopper_only_config(major):
    if major == 9:
        return 132
    else:
        raise RuntimeError("this config is Hopper-only")


# Must not flag: a table of something other than the GPU.
def pack_factor(num_bits):
    if num_bits == 4:
        return 8
    elif num_bits == 8:
        return 4
    else:
        raise ValueError(f"unsupported bits {num_bits}")


def wgmma_gemm(a, b):
    return a


def tcgen05_gemm(a, b):
    return a


# Must not flag: picking the build target of an arch-specific kernel (the
# shape of FlashInfer 0.7's CakeWarpDecodeRunner._build); sm100a code runs
# nowhere else, so the raise is the honest answer.
def build_target(device_arch):
    if device_arch == 100:
        target = "sm100a"
    elif device_arch == 103:
        target = "sm103a"
    else:
        raise RuntimeError(f"requires exact SM100 or SM103, got SM{device_arch}")
    return target
