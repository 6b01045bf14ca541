# A CuTe DSL kernel: the import says which tensor-core ISA it uses.
from cutlass.cute.nvgpu import tcgen05


class Sm100GroupedGemmKernel:
    def __init__(self, tile):
        self.tile = tile
