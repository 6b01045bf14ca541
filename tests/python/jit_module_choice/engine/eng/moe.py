# The engine runs the library's MoE after a row of configuration checks that
# each return early: the kernel call is reached under a long condition, and
# the library then picks one JIT module per GPU (FlashInfer's
# get_cutlass_fused_moe_module). Each module's call is its own fact, though
# their conditions differ only at their end (the 600-character text of such
# a condition once made them one, and sm_100 lost its module).
from enum import Enum

from kern.moe import fused_moe


class MoeBackend(Enum):
    JIT_MOE = "jit_moe"


def run(moe_backend: MoeBackend, config, x):
    if moe_backend == MoeBackend.JIT_MOE:
        return _jit_moe(config, x)
    return x


def _jit_moe(config, x):
    if config.use_the_reference_implementation_for_debugging_numerics_only:
        return x
    if config.skip_the_expert_computation_entirely_for_profiling_runs:
        return x
    if config.route_every_token_to_the_shared_expert_for_ablation_studies:
        return x
    if config.replay_a_recorded_expert_assignment_from_a_previous_trace:
        return x
    if config.offload_all_expert_weights_to_host_memory_between_layers:
        return x
    if config.run_the_dense_fallback_when_the_batch_has_a_single_token:
        return x
    if config.emulate_the_quantized_experts_with_dequantized_bf16_weights:
        return x
    if config.use_the_legacy_token_permutation_from_the_first_release:
        return x
    if config.compute_the_router_logits_in_double_precision_for_checks:
        return x
    if config.skip_experts_whose_tokens_were_all_dropped_by_capacity_limit:
        return x
    if config.return_the_unpermuted_hidden_states_for_gradient_checking:
        return x
    if config.force_the_python_reference_when_any_expert_is_on_the_host:
        return x
    return fused_moe(x, config.device_arch)


# EXPECT-CELL: jit_moe sm_100 supported
# EXPECT-CELL: jit_moe sm_103 supported
# EXPECT-CELL: jit_moe sm_120 supported
# EXPECT-CELL: jit_moe sm_121 supported
