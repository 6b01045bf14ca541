# Quantization keys (vLLM's quantization/utils/quant_utils.py): objects, told
# apart by the names they are bound to.
class QuantKey:
    def __init__(self, dtype, group, static=True):
        self.dtype = dtype
        self.group = group
        self.static = static


kFp8StaticTensorSym = QuantKey("fp8", 0)
kMxfp4Static = QuantKey("fp4", 32)
kMxfp8Dynamic = QuantKey("fp8", 32, static=False)
kNvfp4Static = QuantKey("fp4", 16)
kNvfp4Dynamic = QuantKey("fp4", 16, static=False)
