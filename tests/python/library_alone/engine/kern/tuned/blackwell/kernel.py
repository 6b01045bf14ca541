import cutlass.cute as cute
from cutlass.cute.nvgpu import tcgen05


class GroupedGemmKernel:
    def __init__(self, tile):
        self.tile = tile
        self.mma = tcgen05.MmaOp

    def __call__(self, inputs):
        return cute.compile(self, inputs)
