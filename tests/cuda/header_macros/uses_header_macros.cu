#include "arch_config.h"
#include "arch_config.h"

#if defined(DEMO_ARCH_TCGEN05_ENABLED)
DEMO_KERNEL void tcgen05_path() { int x = 1; (void)x; }
#endif
#if DEMO_ARCH_AT_LEAST(1000)
int at_least_sm100;
#endif
#ifdef DEMO_ARCH_SM120
int sm120_only;
#endif
