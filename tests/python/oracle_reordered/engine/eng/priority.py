# A candidate list reordered per GPU after it is written (vLLM 0.34's
# prioritize_humming): the order the oracle walks is this function's result.
from enum import Enum

from eng.platforms import current_platform

# Capabilities where the humming kernels go ahead of marlin.
_HUMMING_FIRST_ON = frozenset({90})


def prefers_humming(compute_capability=None):
    if compute_capability is None:
        cc = current_platform.get_device_capability()
        compute_capability = cc.to_int() if cc is not None else None
    return compute_capability in _HUMMING_FIRST_ON


def prioritize_humming(kernels, compute_capability=None):
    if not prefers_humming(compute_capability):
        return kernels
    names = [(k.name if isinstance(k, Enum) else k.__name__).lower() for k in kernels]
    humming = next((i for i, name in enumerate(names) if "humming" in name), None)
    marlin = next((i for i, name in enumerate(names) if "marlin" in name), None)
    if humming is None or marlin is None or humming < marlin:
        return kernels
    kernels = kernels.copy()
    kernels.insert(marlin, kernels.pop(humming))
    return kernels
