#!/usr/bin/env bash
# Builds the trees docs/profiles.md measures profile agreement on: SGLang at
# the end of each month of 2026 and vLLM at the end of January..April, each
# with the FlashInfer release it pins (read off the tree) and that release's
# TRT-LLM-gen cubin wheel, and FlashInfer audited alone at several tags.
# Then runs scripts/profile_agreement.py over them.
#
# usage: history_corpus.sh DEST ARCHSCOPE
# needs bare git repositories of the three engines (a `git clone --bare`, or
# the snapshots the project's fetch tool brings) in SGLANG_GIT, VLLM_GIT and
# FLASHINFER_GIT; the cubin wheels come from the Python package index.
# None of this is committed: DEST is outside the project tree.
set -euo pipefail
dest=${1:?usage: history_corpus.sh DEST ARCHSCOPE}
archscope=$(realpath "${2:?usage: history_corpus.sh DEST ARCHSCOPE}")
here="$(cd "$(dirname "$0")" && pwd)"
: "${SGLANG_GIT:?a bare git repository of modal-projects/sglang}"
: "${VLLM_GIT:?a bare git repository of local-inference-lab/vllm}"
: "${FLASHINFER_GIT:?a bare git repository of flashinfer-ai/flashinfer}"
SGLANG_MONTHS=(6aaea09b3 8240a8730 d047d41ba cf346bb15 373cadc92 53c61bd5e)
VLLM_MONTHS=(6bf3b46 e3eb146 fafca38 e68fa1b)
# FlashInfer alone: tags (those marked + with their cubin wheel) and master.
FLASHINFER_TAGS=(0.6.2+ 0.6.6+ 0.6.8.post1+ 0.6.11.post2+ 0.6.14 0.6.17 fb28d7242)
mkdir -p "$dest"
cd "$dest"

# shellcheck source=scripts/engine_trees.sh
. "$here/engine_trees.sh"

# The TRT-LLM-gen part of flashinfer-cubin==V: its package files and the
# batched-GEMM cubins (the MoE kernels), not the whole 350 MB wheel.
cubin_wheel() { # VERSION
  local dir="flashinfer-cubin-$1"
  [ -d "$dir" ] && return
  python3 -m pip download --quiet --no-deps --disable-pip-version-check "flashinfer-cubin==$1" -d wheels >&2
  mkdir -p "$dir.part"
  unzip -q -o "wheels/flashinfer_cubin-$1-"*.whl 'flashinfer_cubin/*.py' 'flashinfer_cubin/cubins/*/batched_gemm-*' \
    -d "$dir.part"
  mv "$dir.part" "$dir"
  rm -f "wheels/flashinfer_cubin-$1-"*.whl
}

pin_of() { # TREE: the flashinfer-python version it pins
  local v
  v=$(pin_in "$1")
  [ -n "$v" ] || { echo "history_corpus.sh: no flashinfer-python pin found in $1" >&2; exit 1; }
  echo "$v"
}

with=() sources=()
engine_months() { # NAME GIT COMMIT...: each commit with its pin, from sources and with the cubin wheel
  local name=$1 git=$2 c v
  shift 2
  for c in "$@"; do
    export_tree "$git" "$c" "$name-$c"
    v=$(pin_of "$name-$c")
    export_tree "$FLASHINFER_GIT" "v$v" "flashinfer-$v"
    cubin_wheel "$v"
    with+=("$name-$c:flashinfer-$v:flashinfer-cubin-$v")
    sources+=("$name-$c:flashinfer-$v")
  done
}
engine_months sglang "$SGLANG_GIT" "${SGLANG_MONTHS[@]}"
engine_months vllm "$VLLM_GIT" "${VLLM_MONTHS[@]}"
rows="flashinfer_trtllm=trtllm_fp4_block_scale_moe,flashinfer_cutlass=cutlass_fused_moe"
rows+=",flashinfer_cutedsl=CuteDslMoEWrapper,flashinfer_b12x=B12xMoEWrapper"
alone=()
for t in "${FLASHINFER_TAGS[@]}"; do
  v=${t%+}
  if [[ $v == 0.* ]]; then export_tree "$FLASHINFER_GIT" "v$v" "flashinfer-$v"; else export_tree "$FLASHINFER_GIT" "$v" "flashinfer-$v"; fi
  if [[ $t == *+ ]]; then cubin_wheel "$v"; alone+=("flashinfer-$v:flashinfer-cubin-$v@$rows"); else alone+=("flashinfer-$v@$rows"); fi
done
# The released flashinfer-python wheels, unpacked: what an installed FlashInfer is.
for v in 0.7.0 0.7.1 0.7.2.post1 0.7.4; do
  dir="flashinfer-python-$v"
  if [ ! -d "$dir" ]; then
    python3 -m pip download --quiet --no-deps --disable-pip-version-check "flashinfer-python==$v" -d wheels >&2
    unzip -q -o "wheels/flashinfer_python-$v-"*.whl 'flashinfer/*' -d "$dir.part"
    mv "$dir.part" "$dir"
    rm -f "wheels/flashinfer_python-$v-"*.whl
  fi
  alone+=("$dir@$rows")
done
echo "== engines with their pinned FlashInfer and its cubin wheel"
python3 "$here/profile_agreement.py" "$archscope" "${with[@]}"
echo "== the same engines from sources alone"
python3 "$here/profile_agreement.py" "$archscope" "${sources[@]}"
echo "== FlashInfer alone"
python3 "$here/profile_agreement.py" "$archscope" "${alone[@]}"
