# The NVFP4 MoE method passes the format's keys to the oracle.
from eng.oracle import select_nvfp4_moe_backend
from eng.quant_keys import kNvfp4Dynamic, kNvfp4Static


class ModelOptNvFp4FusedMoE:
    def __init__(self, moe_config):
        self.backend, self.experts_cls = select_nvfp4_moe_backend(
            config=moe_config,
            weight_key=kNvfp4Static,
            activation_key=kNvfp4Dynamic,
        )
