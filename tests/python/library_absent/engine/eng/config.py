# An engine audited without the kernel library its backends call (SGLang
# without --with FlashInfer). Written here for archscope's tests.
from dataclasses import dataclass
from typing import Literal, Optional

MoeBackendName = Literal["flashinfer_trtllm", "flashinfer_cutlass", "experimental_trtllm", "triton", "marlin"]


@dataclass
class MoeConfig:
    moe_backend: MoeBackendName = "marlin"
    quantization: Optional[str] = None
