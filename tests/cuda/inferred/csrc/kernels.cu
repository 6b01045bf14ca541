// No compile database: -I for the include/ folders of the ancestors.
#include "eng/arch.h"

#ifdef ENG_HAS_SM100_KERNELS
__global__ void sm100_kernel() {}
#endif
