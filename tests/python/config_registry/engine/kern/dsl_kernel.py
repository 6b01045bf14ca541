import cutlass.cute as cute
from cutlass.cute.nvgpu import tcgen05


class GroupedGemmKernel:
    def __init__(self, config):
        self.mma = tcgen05.MmaOp
        self.config = config

    def __call__(self, inputs):
        return cute.compile(self, inputs)
