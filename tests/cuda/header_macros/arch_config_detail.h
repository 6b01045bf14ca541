#pragma once
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 1200
#define DEMO_ARCH_SM120 1
#endif
