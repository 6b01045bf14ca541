#!/usr/bin/env bash
# Re-checks the field bugs of ../shared/reference/field-bugs.md whose buggy
# revision is in the engines' public history: each tree at the parent of its
# fix (with the FlashInfer release it pins), linted with and without its
# profile, and whether the finding that names the bug is there; then the
# fix itself, linted with its profile: whether that finding is gone there.
#
# usage: field_bugs.sh DEST ARCHSCOPE
# needs bare git repositories of local-inference-lab/vllm and
# flashinfer-ai/flashinfer (a `git clone --bare`, or the snapshots the
# project's fetch tool brings) in VLLM_GIT and FLASHINFER_GIT.
# None of this is committed: DEST is outside the project tree.
set -euo pipefail
dest=${1:?usage: field_bugs.sh DEST ARCHSCOPE}
archscope=$(realpath "${2:?usage: field_bugs.sh DEST ARCHSCOPE}")
here="$(cd "$(dirname "$0")" && pwd)"
: "${VLLM_GIT:?a bare git repository of local-inference-lab/vllm}"
: "${FLASHINFER_GIT:?a bare git repository of flashinfer-ai/flashinfer}"
mkdir -p "$dest"
cd "$dest"

# BUG ENGINE FIX RULE FILE: the fix commit (the tree is its parent), the rule
# that must fire, and the file (a regular expression) its finding must name.
BUGS=(
  "1  vllm       079781177 family-predicate-gap    fused_moe/flashinfer_cutlass_moe\.py"
  "2  vllm       65b980896 -                       -"
  "4  vllm       06d020bb6 exact-arch-equality     csrc/cutlass_extensions/common\.hpp"
  "6  vllm       6c9837a76 cmake-arch-drop         CMakeLists\.txt"
  "13 flashinfer ad893cfab exact-arch-equality     trtllm_fused_moe_kernel_launcher\.cu"
  "14 flashinfer 7adc546db open-ended-arch-guard   fused_moe/api\.py"
  "20 flashinfer 9ac29d20a toolkit-gated-flag      flashinfer/jit/"
)

# shellcheck source=scripts/engine_trees.sh
. "$here/engine_trees.sh"

found=0 found_np=0 total=0
printf '%-4s %-11s %-10s %-22s %-8s %-12s %s\n' bug engine buggy-rev rule profile --no-profile at-the-fix
for row in "${BUGS[@]}"; do
  read -r bug engine fix rule file <<<"$row"
  git=$VLLM_GIT
  [ "$engine" = flashinfer ] && git=$FLASHINFER_GIT
  verdicts=()
  for rev in "$fix^" "$fix"; do
    tree="$engine-bug$bug-$fix" # named by the commit: a changed row is never read from an old tree
    [ "$rev" = "$fix" ] && tree="$engine-fix$bug-$fix"
    export_tree "$git" "$rev" "$tree"
    with=()
    if [ "$engine" = vllm ] && v=$(pin_in "$tree") && [ -n "$v" ]; then
      export_tree "$FLASHINFER_GIT" "v$v" "flashinfer-$v"
      with=(--with "flashinfer-$v")
    fi
    for mode in "" --no-profile; do
      if [ "$rule" = - ]; then
        verdicts+=("no-rule")
        continue
      fi
      # lint exits 1 when it finds something: keep its output, not its status
      findings=$("$archscope" lint "$tree" "${with[@]}" $mode -q --min-severity note 2>/dev/null || true)
      # Found: a warning or an error, what lint shows by default; a note is not.
      if grep -E "$file.*: (warning|error): .*\[$rule\]" <<<"$findings" >/dev/null; then
        verdicts+=("found")
      else
        verdicts+=("missed")
      fi
    done
  done
  # At the fix, in the mode that found the bug (the profile's first).
  at_fix=-
  for i in 0 1; do
    [ "$at_fix" = - ] && [ "${verdicts[$i]}" = found ] || continue
    at_fix=${verdicts[$((i + 2))]/found/still-there}
    at_fix=${at_fix/missed/gone}
    [ "$i" = 1 ] && at_fix="$at_fix (--no-profile)"
  done
  [ "$rule" = - ] && at_fix=no-rule
  total=$((total + 1))
  [ "${verdicts[0]}" = found ] && found=$((found + 1))
  [ "${verdicts[1]}" = found ] && found_np=$((found_np + 1))
  printf '%-4s %-11s %-10s %-22s %-8s %-12s %s\n' "$bug" "$engine" "$fix^" "$rule" "${verdicts[0]}" "${verdicts[1]}" \
    "$at_fix"
done
echo "found: $found of $total with the profile, $found_np of $total with --no-profile"
