# Backends as strings: comparisons, membership, and auto selection writes.
import torch


class ServerArgs:
    def __init__(self):
        self.moe_runner_backend = "auto"
        self.quantization = None

    def resolve(self):
        cap = torch.cuda.get_device_capability()
        if self.moe_runner_backend == "auto" and self.quantization == "modelopt_fp4":
            if cap >= (10, 0) and cap < (11, 0):
                self.moe_runner_backend = "flashinfer_trtllm"
            elif cap[0] == 12:
                self.moe_runner_backend = "flashinfer_cutlass"
            else:
                self.moe_runner_backend = "marlin"
        if self.moe_runner_backend in ["flashinfer_trtllm", "flashinfer_cutedsl"] and cap[0] != 10:
            raise ValueError("SM100-family only")
        if self.moe_runner_backend == "flashinfer_cutlass":
            assert cap >= (9, 0), "flashinfer_cutlass needs sm_90+"


class MoeBackend:  # the rows: string choices named by an enum-like class
    pass


# EXPECT-CELL: auto sm_90 supported picked=marlin
# EXPECT-CELL: auto sm_103 supported picked=flashinfer_trtllm
# EXPECT-CELL: auto sm_121 supported picked=flashinfer_cutlass
# EXPECT-CELL: auto sm_110 supported picked=marlin
# EXPECT-CELL: flashinfer_cutlass sm_89 rejected
# EXPECT-CELL: flashinfer_cutedsl sm_120 rejected
