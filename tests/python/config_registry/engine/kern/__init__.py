# A kernel library audited alone whose unified MoE layer picks its backend
# from configs (FlashInfer's MoELayer): a registry maps each config class to
# the runner it builds, and the layer keeps the configs whose `supported(arch)`
# holds, arch being major * 10 + minor. Each config of the format is a row.
from .layer import MoELayer

# Fp4Config says `arch >= 100`, but its runner keeps a JIT module whose
# kernels are tcgen05 only (field bug 14): sm_120 is admitted with no kernel.
# EXPECT-CELL: Fp4Config sm_100 supported
# EXPECT-CELL: Fp4Config sm_103 supported
# EXPECT-CELL: Fp4Config sm_120 crash-risk
# EXPECT-CELL: Fp4Config sm_90 rejected
# The fixed shape, `100 <= arch < 120`: a clean "no usable backend" on sm_120.
# EXPECT-CELL: BoundedFp4Config sm_100 supported
# EXPECT-CELL: BoundedFp4Config sm_120 rejected
# Sm12xFp4Config's runner is readied as the layer readies it: check_support(),
# then build(), which raises unless check_support() ran first (state the walk
# does not keep: not a raise on every GPU), and keeps an sm_120 module.
# EXPECT-CELL: Sm12xFp4Config sm_120 supported
# EXPECT-CELL: Sm12xFp4Config sm_121 supported
# EXPECT-CELL: Sm12xFp4Config sm_100 rejected
# A CuTe DSL config: its kernel's tcgen05 import, and a bounded check.
# EXPECT-CELL: DslConfig sm_100 supported
# EXPECT-CELL: DslConfig sm_120 rejected
# LibFp4Config's runner raises unless an optional package imported; the flag
# is set False before the try and True in it: installed or not, not False.
# EXPECT-CELL: LibFp4Config sm_100 supported
# Configs and runners of other formats are other formats' rows.
# EXPECT-NO-ROW: Fp8Config
# EXPECT-NO-ROW: W4A16Config
