# Per-model overrides (SGLang's arg_groups/overrides.py of late 2026): each
# runs only for the model architectures it is registered for, so what it
# selects is not what auto picks by default. Must not flag: auto on sm_100
# and sm_90 still picks trtllm and marlin (quantization/modelopt.py), not
# this override's cutlass.
_MODEL_OVERRIDE_FNS = {}


def register_model_override(*architectures):
    def decorator(fn):
        for architecture in architectures:
            _MODEL_OVERRIDE_FNS.setdefault(architecture, []).append(fn)
        return fn

    return decorator


@register_model_override("NemotronHForCausalLM", "NemotronHPuzzleForCausalLM")
def _nemotron_h_overrides(server_args):
    # This model's MoE layers run on cutlass on every GPU.
    if server_args.quantization == "modelopt_fp4" and server_args.moe_runner_backend == "auto":
        server_args.moe_runner_backend = "cutlass"


def apply_model_overrides(server_args, architecture):
    for fn in _MODEL_OVERRIDE_FNS.get(architecture, ()):
        fn(server_args)
