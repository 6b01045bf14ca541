import torch

from eng.moe.utils import MoeRunnerBackend


class FusedMoE:
    def forward(self, moe_runner_backend, quantization, x):
        if quantization == "nvfp4" and torch.cuda.get_device_capability()[0] < 10:
            raise ValueError("NVFP4 MoE needs Blackwell")
        if moe_runner_backend == MoeRunnerBackend.CUTEDSL:
            # The quant method calls cutedsl_moe_masked: not followed from here.
            return self.quant_method.apply_masked(x)
        return self.quant_method.apply(x)
