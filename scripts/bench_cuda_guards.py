#!/usr/bin/env python3
"""Speed of archscope's CUDA guard passes against clang's own preprocessing.

    ARCHSCOPE_CORPUS=/path/to/checkouts scripts/bench_cuda_guards.py [--tree flashinfer-0.6.14/csrc]

On one CUDA source folder (default: FlashInfer's csrc) and the 8 default targets,
times in one run:
  baseline   the same clang preprocessor passes with missing-header tolerance and
             extraction switched off (`archscope guards --preprocess-only`): plain
             `clang -E` stops at the first missing header, so it is no baseline
  cold       `archscope guards --no-cache` (every directive and kernel recorded)
  warm       `archscope guards` again (unchanged files come from the cache)
and prints each time and its ratio to the baseline. Goals (issue 3): cold within
2x of the baseline, warm under a tenth of it.
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def timed(cmd, env):
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", default="flashinfer-0.6.14/csrc")
    ap.add_argument("--binary", default=str(ROOT / "build/tool/archscope"))
    args = ap.parse_args()
    corpus = os.environ.get("ARCHSCOPE_CORPUS")
    if not corpus:
        sys.exit("set ARCHSCOPE_CORPUS to the folder holding the checkouts (tests/corpus/test_corpus.py)")
    tree = str(pathlib.Path(corpus) / args.tree)
    env = dict(os.environ, ARCHSCOPE_CACHE_DIR=tempfile.mkdtemp(prefix="archscope-bench-"))
    guards = [args.binary, "guards", tree, "--format", "json"]
    subprocess.run(guards + ["--preprocess-only"], env=env, stdout=subprocess.DEVNULL)  # page cache
    baseline = timed(guards + ["--preprocess-only"], env)
    cold = timed(guards + ["--no-cache"], env)
    timed(guards, env)  # fills the cache
    warm = timed(guards, env)
    print(f"{tree}, {os.cpu_count()} cores, 8 targets")
    print(f"{'run':<44}{'seconds':>9}{'/ baseline':>12}")
    for name, t in (("baseline: clang passes, extraction off", baseline), ("archscope guards, cold", cold),
                    ("archscope guards, warm (cache)", warm)):
        print(f"{name:<44}{t:>9.2f}{t / baseline:>12.3f}")
    print(f"goal cold <= 2x baseline: {'met' if cold <= 2 * baseline else 'NOT met'}; "
          f"goal warm < 0.1x baseline: {'met' if warm < 0.1 * baseline else 'NOT met'}")


if __name__ == "__main__":
    main()
