# Backend resolution by quantization (SGLang 0.5.23 arg_groups/overrides.py):
# the variable is set from conditional expressions and from defaults chosen
# on branches before the NVFP4 test reads it again.
from eng.utils import is_sm100_supported, is_sm120_supported


def _moe_runner_backend_quant_constraints(view) -> dict:
    moe_runner_backend = view.moe_runner_backend
    if view.quantization == "nvfp4_online":
        use_megamoe = view.moe_a2a_backend == "megamoe"
        if not is_sm100_supported():
            raise ValueError("nvfp4_online is SM100 only")
        if moe_runner_backend == "auto":
            moe_runner_backend = "megamoe" if use_megamoe else "trtllm"
    if view.quantization == "mxfp8":
        if view.moe_a2a_backend == "megamoe":
            mxfp8_default = "megamoe"
        else:
            mxfp8_default = "trtllm"
        if moe_runner_backend == "auto":
            moe_runner_backend = mxfp8_default
    # Must flag: this is what auto picks for NVFP4 on SM120 (and SM121).
    if moe_runner_backend == "auto" and view.quantization == "modelopt_fp4" and is_sm120_supported():
        moe_runner_backend = "cutlass"
    if moe_runner_backend != view.moe_runner_backend:
        return {"moe_runner_backend": moe_runner_backend}
    return {}
