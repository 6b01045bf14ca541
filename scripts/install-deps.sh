#!/usr/bin/env bash
# Installs what archscope needs on a fresh Debian 12 machine (as root or via sudo).
set -euo pipefail
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
pkgs=(cmake g++ make pkg-config python3 python3-pip git ripgrep
      clang-22 libclang-22-dev llvm-22-dev
      libtree-sitter-dev libyaml-cpp-dev libcadical-dev libmimalloc-dev libgtest-dev)
# --test: also what only the test suite needs (headless chromium renders the
# HTML page of `archscope docs`).
if [ "${1:-}" = "--test" ]; then pkgs+=(chromium); fi
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "archscope: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# cuobjdump for the binary layer, when the CUDA toolkit here does not have it.
if ! command -v cuobjdump >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/cuobjdump ]; then
  here="$(cd "$(dirname "$0")/.." && pwd)"
  echo "archscope: installing cuobjdump (nvidia-cuda-cuobjdump from the Python package index)" >&2
  $SUDO python3 -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes \
    --target /opt/archscope/pytools -r "$here/cmake/tool-requirements.txt"
  $SUDO ln -sf /opt/archscope/pytools/nvidia/cu13/bin/cuobjdump /usr/local/bin/cuobjdump
fi
