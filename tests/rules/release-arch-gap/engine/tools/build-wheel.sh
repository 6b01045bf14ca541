#!/usr/bin/env bash
# Must not flag: the CUDA version this list builds with is not said here.
set -euo pipefail
export TORCH_CUDA_ARCH_LIST="8.0 9.0 10.0 12.0"
pip wheel --no-build-isolation .
