# The server-argument stage (SGLang's _handle_moe_kernel_config): found
# without a profile, as a MoE function that compares the quant flag with the
# format's value and reads the selected backend.
from eng.utils import is_sm100_supported, is_sm120_supported


class ServerArgs:
    def _handle_moe_kernel_config(self):
        if self.quantization == "modelopt_fp4" and self.moe_runner_backend == "auto":
            if is_sm100_supported():
                self.moe_runner_backend = "trtllm"
            elif is_sm120_supported():
                self.moe_runner_backend = "cutlass"
            else:
                self.moe_runner_backend = "marlin"
