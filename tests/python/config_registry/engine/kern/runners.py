class Fp4Runner:
    def __init__(self, config, device):
        from .core import get_moe_sm100_module

        self.config = config
        # Kept whole; the kernel is called later, through state set lazily.
        self._module = get_moe_sm100_module()
        self._inner = None

    def prepare(self, hidden_size):
        if self._inner is None:
            self._inner = self._module.Runner(hidden_size)

    def forward(self, inputs):
        return self._inner.forward(inputs)


class _RunnerBase:
    # The layer readies a runner in steps; each checks what the last one set.
    def check_support(self):
        self._check_support()
        self._support_checked = True

    def _check_support(self):
        pass

    def build(self):
        if not getattr(self, "_support_checked", False):
            raise RuntimeError("check_support() must succeed before build()")
        self._build()

    def _build(self):
        pass


class Sm12xRunner(_RunnerBase):
    def __init__(self, config, device):
        self.config = config
        self._module = None

    def _build(self):
        from .core import get_moe_sm120_module

        self._module = get_moe_sm120_module()

    def forward(self, inputs):
        return self._module.fp4_moe(inputs)


class DslRunner:
    def __init__(self, config, device):
        from .dsl_kernel import GroupedGemmKernel

        self._kernel = GroupedGemmKernel(config)

    def forward(self, inputs):
        return self._kernel(inputs)


class LibRunner:
    def __init__(self, config, device):
        from .grouped_gemm import check_lib

        check_lib()

    def forward(self, inputs):
        return inputs


class Fp8Runner(Fp4Runner):
    pass


class W4A16Runner(Sm12xRunner):
    pass
