def supported_compute_capability(supported_ccs):
    def decorator(func):
        func._supported_ccs = set(supported_ccs)
        return func

    return decorator
