from typing import Dict

import torch

from .api import BoundedFp4Config, DslConfig, Fp4Config, Fp8Config, LibFp4Config, Sm12xFp4Config, W4A16Config
from .runners import DslRunner, Fp4Runner, Fp8Runner, LibRunner, Sm12xRunner, W4A16Runner
from .utils import get_compute_capability

_BACKEND_RUNNERS: Dict[type, type] = {
    Fp4Config: Fp4Runner,
    BoundedFp4Config: Fp4Runner,
    Sm12xFp4Config: Sm12xRunner,
    DslConfig: DslRunner,
    LibFp4Config: LibRunner,
    Fp8Config: Fp8Runner,
    W4A16Config: W4A16Runner,
}


class MoELayer:
    def __init__(self, config, device=None):
        self.device = device or torch.device("cuda", torch.cuda.current_device())
        major, minor = get_compute_capability(self.device)
        arch = major * 10 + minor
        self.runners = []
        for backend_cfg in config.backend:
            if not backend_cfg.supported(arch):
                continue
            runner_cls = _BACKEND_RUNNERS.get(type(backend_cfg))
            if runner_cls is None:
                continue
            runner = runner_cls(config, device=self.device)
            try:
                runner.check_support()
            except NotImplementedError:
                continue
            runner.build()
            self.runners.append(runner)
        if not self.runners:
            raise RuntimeError(f"MoELayer: no configured backend is usable on sm{arch}")

    def __call__(self, inputs):
        return self.runners[0].forward(inputs)
