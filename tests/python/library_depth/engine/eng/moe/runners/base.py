# The runner registry: functions keyed by (all-to-all backend, runner backend).
_FUSED = {}


def register_fused_func(a2a, runner):
    def wrap(fn):
        _FUSED[(a2a, runner)] = fn
        return fn

    return wrap
