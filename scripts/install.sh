#!/usr/bin/env bash
# README command 1: install dependencies, build, and audit the bundled example engine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
exec build/tool/archscope audit "$@"
