# SGLang's MoeRunner shape: a registry only plugins fill is asked before the
# backend branches, and a configuration check raises before the GPU check.
import torch

from eng.moe.utils import get_moe_runner_backend

# Filled only by register_custom(), which nothing here calls: a lookup finds
# nothing unless a plugin registers the name (the cells say so with `*`).
_CUSTOM_FACTORIES = {}


def register_custom(name, factory):
    if name in _CUSTOM_FACTORIES:
        raise ValueError(f"{name} is already registered")
    _CUSTOM_FACTORIES[name] = factory


# Filled here, by a call in this tree: its lookups stay undecided.
_BUILTIN_FACTORIES = {}


def add_builtin(name, factory):
    _BUILTIN_FACTORIES[name] = factory


add_builtin("deep_gemm", lambda config: torch.ops.deep_gemm_moe)


class MoeRunner:
    def __init__(self, runner_backend, config):
        # Raises first where it holds; where it does not, hpc_ops goes on to
        # the GPU check: on sm_100 one of the two raises whatever keep_fp32 is.
        if config.keep_fp32 and not runner_backend.is_deep_gemm():
            raise ValueError("keep_fp32 needs deep_gemm")
        if custom := _CUSTOM_FACTORIES.get(runner_backend.value):
            self.core = custom(config)
        elif runner_backend.is_triton():
            self.core = torch.ops.triton_moe
        elif runner_backend.is_hpc_ops():
            major, minor = torch.cuda.get_device_capability()
            if major != 9:
                raise ValueError("hpc_ops needs SM90")
            self.core = None
        elif builtin := _BUILTIN_FACTORIES.get(runner_backend.value):
            self.core = builtin(config)
        else:
            raise NotImplementedError(runner_backend)


class Method:
    def create_runner(self, config):
        self.runner = MoeRunner(get_moe_runner_backend(), config)


# EXPECT-CELL: hpc_ops sm_90 supported
# EXPECT-CELL: hpc_ops sm_100 rejected
# EXPECT-CELL: hpc_ops sm_120 rejected
# EXPECT-CELL: triton sm_120 supported
# EXPECT-CELL: deep_gemm sm_100 unknown
