# A wrapper whose module imports a tcgen05 kernel from outside its own folder
# (a shared helper package): not taken for the code it runs.
from ..tuned.blackwell.kernel import GroupedGemmKernel


class PlainMoEWrapper:
    def __init__(self, num_experts):
        self.num_experts = num_experts
