# The NVFP4 MoE method: found without a profile by its name.
from eng.moe.backend import get_moe_runner_backend
from eng.utils import is_sm100_supported, is_sm120_supported


class ModelOptFp4Config:
    # The quantization method's name: this file's MoE method is the format's.
    @classmethod
    def get_name(cls):
        return "modelopt_fp4"


class TrtllmFp4QuantInfo:
    pass


class TrtllmFp8QuantInfo:
    pass


def _marlin_workspaces(layer):
    # Filled in a loop: how many it holds is not known, so the raise below
    # is "may raise", not taken for certain (marlin is not rejected).
    found = []
    for workspace in layer.workspaces:
        if workspace.ready:
            found.append(workspace)
    return found


def _cutlass_tile_shapes():
    # Appended to under branches: the list is exact on each side of the join,
    # so the raise below is certain where neither branch appends (sm_90, sm_110).
    shapes = []
    if is_sm100_supported():
        shapes.append((128, 128))
    if is_sm120_supported():
        shapes.append((128, 64))
    return shapes


class ModelOptNvFp4FusedMoEMethod:
    def apply(self, layer, x, quant_info):
        backend = get_moe_runner_backend()
        # Checks of the quant info's type are decided by the class's name:
        # FP4 data is this path's, FP8 data another format's.
        if isinstance(quant_info, TrtllmFp4QuantInfo) and backend.is_trtllm() and not is_sm100_supported():
            raise ValueError("TRT-LLM NVFP4 MoE kernels are SM100-only")
        if isinstance(quant_info, TrtllmFp8QuantInfo) and backend.is_marlin():
            raise TypeError("FP8 quant info on the Marlin NVFP4 path")
        if backend.is_marlin() and not _marlin_workspaces(layer):
            raise RuntimeError("Marlin needs its workspaces allocated first")
        if backend.is_cutlass() and not _cutlass_tile_shapes():
            raise RuntimeError("no CUTLASS NVFP4 tile shape for this GPU")
        return x

# EXPECT-CELL: trtllm sm_100 supported
# EXPECT-CELL: trtllm sm_120 rejected
# EXPECT-CELL: cutlass sm_120 supported
# EXPECT-CELL: cutlass sm_100 supported
# EXPECT-CELL: cutlass sm_90 rejected
# EXPECT-CELL: cutlass sm_110 rejected
# EXPECT-CELL: marlin sm_90 supported
# EXPECT-CELL: marlin sm_100 supported
# EXPECT-CELL: auto sm_100 supported picked=trtllm
# EXPECT-CELL: auto sm_121 supported picked=cutlass
# EXPECT-CELL: auto sm_90 supported picked=marlin
