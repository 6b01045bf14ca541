# Backends as strings declared three ways, no enum: argparse choices here,
# a Literal annotation in config.py, a dict name -> implementation in moe.py.
import argparse

BASE_BACKENDS = ["cutlass", "triton"]
MOE_BACKENDS = BASE_BACKENDS + ["deep_gemm"]  # a list built by an expression
DTYPES = {"bf16": "bfloat16", "fp16": "float16"}


def make_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--moe-backend", choices=MOE_BACKENDS, default="cutlass")
    # Not a selector: its choices are no rows.
    parser.add_argument("--dtype", choices=list(DTYPES.keys()), default="bf16")
    return parser


# deep_gemm is a choice no dispatch handles (moe.py's table lacks it): unknown, not ok.
# EXPECT-CELL: deep_gemm sm_90 unknown
# EXPECT-NO-ROW: bf16
# EXPECT-NO-ROW: fp16
