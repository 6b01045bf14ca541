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
