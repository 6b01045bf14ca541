from dataclasses import dataclass
from typing import Literal, Optional

MoeBackendName = Literal["cutlass", "triton", "marlin", "aiter"]


@dataclass
class MoeConfig:
    moe_backend: MoeBackendName = "cutlass"
    quantization: Optional[str] = None
    kv_layout: Literal["nhd", "hnd"] = "nhd"


# EXPECT-CELL: marlin sm_120 supported
# aiter is named here alone (a ROCm backend no NVFP4 dispatch handles): a row, unknown.
# EXPECT-CELL: aiter sm_90 unknown
# EXPECT-NO-ROW: nhd
