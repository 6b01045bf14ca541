from ..jit import CSRC_DIR, gen_jit_spec


def _precision(activation):
    aliases = {"fp4": "fp4", "nvfp4": "fp4", "bf16": "bf16"}
    try:
        return aliases[str(activation).lower()]
    except KeyError as exc:
        raise ValueError(f"activation must be fp4 or bf16 (got {activation!r})") from exc


def run_sm12x(x, w, activation):
    mode = _precision(activation)
    return gen_jit_spec("sm12x_moe", [CSRC_DIR / "moe_sm120.cu"]).build_and_load().run(x, w, mode)
