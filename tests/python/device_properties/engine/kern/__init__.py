# A kernel library audited alone that reads the GPU through
# torch.cuda.get_device_properties (FlashInfer's get_compute_capability):
# the capability string it builds picks the JIT module, or raises.
from .moe import fp4_moe, sm12x_moe

# fp4_moe: get_fp4_module has no module for "90" or "80" (a clean ValueError).
# EXPECT-CELL: fp4_moe sm_80 rejected
# EXPECT-CELL: fp4_moe sm_90 rejected
# EXPECT-CELL: fp4_moe sm_100 supported
# EXPECT-CELL: fp4_moe sm_103 supported
# EXPECT-CELL: fp4_moe sm_120 supported
# sm12x_moe refuses every GPU but 12.x. Its other raise is about an argument
# (a try on a dict lookup) in a folder whose name says "blackwell": that
# location is not a hardware test, so sm_120 stays supported, not unknown.
# EXPECT-CELL: sm12x_moe sm_100 rejected
# EXPECT-CELL: sm12x_moe sm_120 supported
# EXPECT-CELL: sm12x_moe sm_121 supported
# profile.yaml's gone_moe row names an entry this tree lacks.
# EXPECT-NO-ROW: gone_moe
