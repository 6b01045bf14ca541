# A mode's own limit (Muse Spark's sequence-parallel prefill has no Marlin
# path): the raise tests configuration only, so it is about that mode, not
# about Marlin on some GPU. Must not flag: marlin stays supported.
from eng.moe.backend import MoeRunnerBackend, get_moe_runner_backend


class SequenceParallelMoE:
    def __init__(self):
        self.moe_runner_backend: MoeRunnerBackend = get_moe_runner_backend()
        self.use_marlin = self.moe_runner_backend.is_marlin()

    def forward_dispatched(self, x):
        if self.use_marlin:
            raise ValueError("sequence-parallel prefill has no Marlin path")
        return x
