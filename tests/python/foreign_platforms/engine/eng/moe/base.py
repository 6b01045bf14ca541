_FUSED = {}


def register_fused_func(a2a_backend, runner_backend):
    def wrap(fn):
        _FUSED[(a2a_backend, runner_backend)] = fn
        return fn

    return wrap
