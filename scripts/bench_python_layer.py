#!/usr/bin/env python3
"""Speed of archscope's full audit against ast-grep and ripgrep, in one run.

    ARCHSCOPE_CORPUS=/path/to/checkouts scripts/bench_python_layer.py [--runs 5]

On the SGLang tree (audited with its pinned FlashInfer as --with), times:
  archscope  the full audit (every predicate, backend, guard; the matrix), cold
             (--no-cache: everything parsed) and warm (facts from the
             content-hash cache, the tree unchanged)
  ast-grep   one pattern: ast-grep run -p 'is_sm120_supported()' -l python
  ripgrep    the same literal: rg 'is_sm120_supported\\(\\)' -t py
and prints the median wall time of each and archscope's ratio to each peer;
also the cold audit with --no-profile (the NVFP4 path inferred from the code).
Goals: archscope <= 0.2 x ast-grep (issue 2); --no-profile cold <= 0.4 x
ast-grep (issue 21). Installs ast-grep-cli with pip when it is missing.
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def median_time(cmd, runs, cwd=None):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--binary", default=str(ROOT / "build/tool/archscope"))
    args = ap.parse_args()
    corpus = os.environ.get("ARCHSCOPE_CORPUS")
    if not corpus:
        sys.exit("set ARCHSCOPE_CORPUS to the folder holding sglang/ and flashinfer-0.6.14/ (tests/corpus/test_corpus.py)")
    sglang, flashinfer = pathlib.Path(corpus) / "sglang", pathlib.Path(corpus) / "flashinfer-0.6.14"
    if not shutil.which("ast-grep"):
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "ast-grep-cli"], check=True)
    if not shutil.which("rg"):
        sys.exit("ripgrep (rg) is missing: apt-get install ripgrep")
    audit = [args.binary, "audit", str(sglang), "--with", str(flashinfer), "-q"]
    rows = [
        ("archscope audit, cold", audit + ["--no-cache"], None),
        ("archscope audit, warm", audit, None),
        ("archscope --no-profile, cold", audit + ["--no-cache", "--no-profile"], None),
        ("ast-grep, one pattern", ["ast-grep", "run", "-p", "is_sm120_supported()", "-l", "python", "."], sglang),
        ("ripgrep, one literal", ["rg", "-c", r"is_sm120_supported\(\)", "-t", "py", "."], sglang),
    ]
    os.environ["ARCHSCOPE_CACHE_DIR"] = tempfile.mkdtemp(prefix="archscope-bench-")
    for _, cmd, cwd in rows:  # warm the page cache (and archscope's facts cache) for everyone
        subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times = {name: median_time(cmd, args.runs, cwd) for name, cmd, cwd in rows}
    cold, warm = times["archscope audit, cold"], times["archscope audit, warm"]
    print(f"SGLang @ {sglang} (+ FlashInfer 0.6.14), {os.cpu_count()} cores, median of {args.runs} runs")
    print(f"{'tool':<26}{'seconds':>9}{'cold / tool':>13}{'warm / tool':>13}")
    for name, t in times.items():
        print(f"{name:<26}{t:>9.3f}{cold / t:>13.2f}{warm / t:>13.2f}")
    goal = 0.2 * times["ast-grep, one pattern"]
    for label, t in (("cold (no cache)", cold), ("warm (tree unchanged)", warm)):
        print(f"goal archscope <= 0.2 x ast-grep = {goal:.3f} s, {label}: {'met' if t <= goal else 'NOT met'}")
    inferred, goal = times["archscope --no-profile, cold"], 0.4 * times["ast-grep, one pattern"]
    print(f"goal --no-profile cold <= 0.4 x ast-grep = {goal:.3f} s: {inferred:.3f} s, {'met' if inferred <= goal else 'NOT met'}")


if __name__ == "__main__":
    main()
