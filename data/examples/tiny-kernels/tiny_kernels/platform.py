"""A vLLM-style platform object; its capability methods are read as builtins."""


class _Platform:
    def is_device_capability_family(self, capability):
        raise NotImplementedError

    def has_device_capability(self, capability):
        raise NotImplementedError


current_platform = _Platform()
