# Kernel classes with device checks (vLLM's fused_moe/experts/*).
from eng.platforms import current_platform


class TrtLlmExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        return current_platform.is_device_capability_family(100)


class CutlassExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        p = current_platform
        return p.is_device_capability_family(100) or p.is_device_capability_family(120)


class MarlinExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        return current_platform.has_device_capability((7, 5))


class HummingExperts:
    @staticmethod
    def _supports_current_device() -> bool:
        return current_platform.has_device_capability((7, 5))
