# SGLang 0.5.23's platform facade: attributes looked up in a registry of probes.
_PLATFORM_PROBES = {"is_blackwell": "is_blackwell_supported"}


class PlatformContext:
    def __getattr__(self, name):
        probe = _PLATFORM_PROBES.get(name)
        from eng import common

        return getattr(common, probe)()


_PLATFORM = PlatformContext()


def get_platform():
    return _PLATFORM
