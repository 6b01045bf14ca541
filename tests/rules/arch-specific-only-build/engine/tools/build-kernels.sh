#!/usr/bin/env bash
# Every GPU of the families it names has a target: a-variants for each CC,
# f-variants, plain SASS (runs on later minors) or PTX.
set -euo pipefail
if [[ "${CUDA_MAJOR:-13}" -ge 13 ]]; then
  KERNEL_CUDA_ARCH_LIST="7.5 8.0 8.9 9.0a 10.0f 11.0 12.0f"
else
  KERNEL_CUDA_ARCH_LIST="7.5;8.0;8.9;9.0a;10.0a;10.3a;12.0"
fi
export TORCH_CUDA_ARCH_LIST="${KERNEL_CUDA_ARCH_LIST}"
# A default the caller can override: only the RTX PRO 6000's own target, so
# a DGX Spark (CC 12.1) gets nothing.
# EXPECT-NEXT-LINE: arch-specific-only-build
TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-12.0a}"
FALLBACK_CUDA_ARCH_LIST="${FALLBACK_CUDA_ARCH_LIST:-9.0;10.0+PTX}"
