from collections import namedtuple


class DeviceCapability(namedtuple("DeviceCapability", ["major", "minor"])):
    def to_int(self):
        return self.major * 10 + self.minor


class Platform:
    def get_device_capability(self):
        raise NotImplementedError

    def is_device_capability_family(self, capability):
        raise NotImplementedError

    def has_device_capability(self, capability):
        raise NotImplementedError


current_platform = Platform()
