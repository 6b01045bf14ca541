from dataclasses import dataclass


@dataclass(frozen=True)
class ArtifactPath:
    """Where each kernel's prebuilt cubins are published, relative paths."""

    TRTLLM_GEN_BMM: str = (
        "0a1b2c/batched_gemm-1234/"
    )
    CUTLASS_EXTRA: str = "ffee99/cutlass-extra/"
    GEN_GEMM: str = "77aa55/gemm-5678/"
