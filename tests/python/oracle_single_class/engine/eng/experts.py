# Kernel classes with device checks (vLLM's fused_moe/experts/*).
import importlib.util

from eng.platforms import current_platform


def has_b12x():
    return importlib.util.find_spec("b12x") is not None


class Experts:
    @staticmethod
    def _supports_current_device() -> bool:
        raise NotImplementedError


class B12xExperts(Experts):
    @staticmethod
    def _supports_current_device() -> bool:
        return current_platform.is_device_capability_family(120) and has_b12x()


class TrtLlmExperts(Experts):
    @staticmethod
    def _supports_current_device() -> bool:
        return current_platform.is_device_capability_family(100)


class CutlassExperts(Experts):
    @staticmethod
    def _supports_current_device() -> bool:
        p = current_platform
        return p.is_device_capability(90) or p.is_device_capability_family(100) or p.is_device_capability_family(120)


class MarlinExperts(Experts):
    @staticmethod
    def _supports_current_device() -> bool:
        return True
