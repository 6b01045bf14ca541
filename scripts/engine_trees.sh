# Sourced by history_corpus.sh and field_bugs.sh: engine trees exported from
# bare git repositories, and the FlashInfer release each pins.

# A commit's tree; blobs a partial snapshot lacks are under docs/ only.
export_tree() { # GIT COMMIT DIR
  [ -d "$3" ] && return
  mkdir -p "$3.part"
  git --git-dir="$1" archive "$2" -- . ':!docs' | tar -x -C "$3.part"
  mv "$3.part" "$3"
}

# The flashinfer-python version TREE pins (SGLang: python/pyproject.toml,
# vLLM: requirements/), empty when it pins none.
pin_in() { # TREE
  { grep -rhoE 'flashinfer[-_]python(\[[a-z0-9,]*\])?==[0-9][0-9a-z.]*' "$1/python/pyproject.toml" \
    "$1/requirements" "$1/pyproject.toml" 2>/dev/null || true; } | head -1 | sed 's/.*==//'
}
