# Kernel classes (vLLM's fused_moe/experts/*): a kernel is chosen only where
# both its device check and its quantization-scheme check pass.
from eng.platforms import current_platform
from eng.quant_keys import kFp8StaticTensorSym, kMxfp4Static, kMxfp8Dynamic, kNvfp4Dynamic, kNvfp4Static


class Experts:
    @classmethod
    def is_supported_config(cls, config, weight_key, activation_key):
        if not cls._supports_current_device():
            return False, "device"
        elif not cls._supports_quant_scheme(weight_key, activation_key):
            return False, "quantization scheme"
        return True, None

    @staticmethod
    def _supports_current_device() -> bool:
        raise NotImplementedError

    @staticmethod
    def _supports_quant_scheme(weight_key, activation_key) -> bool:
        raise NotImplementedError


class TrtLlmExperts(Experts):
    @staticmethod
    def _supports_current_device() -> bool:
        return current_platform.is_device_capability_family(100)

    @staticmethod
    def _supports_quant_scheme(weight_key, activation_key) -> bool:
        return (weight_key, activation_key) == (kNvfp4Static, kNvfp4Dynamic)


class FlashInferCutlassExperts(Experts):
    # Hopper for FP8 and MXFP4, NVFP4 from Blackwell on: the device check
    # alone admits sm_90. Must flag: NVFP4 on sm_90 is refused.
    @staticmethod
    def _supports_current_device() -> bool:
        p = current_platform
        return p.is_device_capability(90) or p.is_device_capability_family(100) or p.is_device_capability_family(120)

    @staticmethod
    def _supports_quant_scheme(weight_key, activation_key) -> bool:
        p = current_platform
        scheme = (weight_key, activation_key)
        return (
            (scheme in [(None, None), (kFp8StaticTensorSym, kFp8StaticTensorSym)] and p.has_device_capability(90))
            or (scheme in [(kMxfp4Static, None)] and p.is_device_capability(90))
            or (scheme in [(kMxfp4Static, kMxfp8Dynamic), (kNvfp4Static, kNvfp4Dynamic)] and p.has_device_capability(100))
        )


class MarlinExperts(Experts):
    @staticmethod
    def _supports_current_device() -> bool:
        return current_platform.has_device_capability(80)

    @staticmethod
    def _supports_quant_scheme(weight_key, activation_key) -> bool:
        # Weight-only: any activation. Must not flag: NVFP4 weights are taken.
        return weight_key in (kNvfp4Static, kMxfp4Static)
