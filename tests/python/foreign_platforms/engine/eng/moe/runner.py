# SGLang's MoeRunner shape: AMD's and Huawei's runners sit beside the NVIDIA
# ones in one enum, and no branch refuses them on an NVIDIA GPU.
import torch

from eng.moe.utils import get_moe_runner_backend


class MoeRunner:
    def __init__(self, runner_backend, config):
        if runner_backend.is_triton():
            self.core = torch.ops.triton_moe
        elif runner_backend.is_aiter():
            self.core = None  # fused path only (eng/moe/aiter.py)
        elif runner_backend.is_ascend():
            self.core = None  # fused path only (eng/moe/ascend.py)
        else:
            raise NotImplementedError(runner_backend)


class Method:
    def create_runner(self, config):
        self.runner = MoeRunner(get_moe_runner_backend(), config)
