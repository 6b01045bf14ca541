class Platform:
    def is_device_capability_family(self, capability):
        raise NotImplementedError

    def is_device_capability(self, capability):
        raise NotImplementedError

    def has_device_capability(self, capability):
        raise NotImplementedError


current_platform = Platform()
