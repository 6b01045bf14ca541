#!/usr/bin/env python3
"""Every cell of the real engines' matrices and every lint finding, saved, so
that two archscope binaries can be compared before a change lands.

usage: matrix_snapshot.py save ARCHSCOPE OUTDIR   (needs ARCHSCOPE_CORPUS)
       matrix_snapshot.py diff OUTDIR_A OUTDIR_B
save audits each tree of the corpus (tests/corpus/test_corpus.py names its
folders) with its profile and with --no-profile, and lints some of them, one
JSON file per run; trees the corpus lacks are left out and said so. diff
prints each cell or finding that differs, each run only one side has, and
the count.
"""
import json
import os
import pathlib
import subprocess
import sys

TARGETS = "sm_90,sm_100,sm_103,sm_110,sm_120,sm_121"

# run name -> the engine tree, then what it is audited --with
TREES = {
    "sglang+fi0.6.14": ["sglang", "flashinfer-0.6.14"],
    "sglang": ["sglang"],
    "vllm+fi0.6.11": ["vllm", "flashinfer-0.6.11.post2"],
    "vllm+fi0.6.11+cubin": ["vllm", "flashinfer-0.6.11.post2", "flashinfer-cubin-0.6.11.post2"],
    "vllm": ["vllm"],
    "fi-fb28d72": ["flashinfer-fb28d72"],
    "fi-0.6.14": ["flashinfer-0.6.14"],
    "fi-0.6.11": ["flashinfer-0.6.11.post2"],
    "site-packages": ["site-packages"],
    "site-vllm": ["site-vllm"],
}

# lint run name -> the engine tree, then what it is linted --with
LINTS = {
    "lint-sglang+fi0.6.14": ["sglang", "flashinfer-0.6.14"],
    "lint-vllm": ["vllm"],
    "lint-fi-fb28d72": ["flashinfer-fb28d72"],
    "lint-site-packages": ["site-packages"],
    "lint-site-vllm": ["site-vllm"],
}


def cells(doc):
    return {f"{c['backend']} {c['target']}": f"{c['verdict']} {c.get('picked', '')}".strip()
            for c in doc["cells"]}


def findings(doc, root):
    """Warnings and errors (what lint shows by default), by rule and place."""
    out = {}
    for f in doc["findings"]:
        if f["severity"] in ("warning", "error"):
            # lint names a file relative to the working folder where it can
            path = os.path.relpath(os.path.abspath(f["location"].get("path", "")), root.resolve())
            where = f"{path}:{f['location'].get('line', 0)}"
            out[f"{f['rule']} {where}"] = f"{f['severity']}: {f['message']}"
    return out


def run_to_file(cmd, path, read):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    ok = r.returncode in (0, 1) and r.stdout.startswith("{")
    doc = read(json.loads(r.stdout)) if ok else {"exit": str(r.returncode)}
    path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"{path.stem}: {len(doc)} entries" if ok else f"{path.stem}: exit {r.returncode}")


def save(binary, outdir):
    root = pathlib.Path(os.environ.get("ARCHSCOPE_CORPUS", ""))
    out = pathlib.Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    for name, trees in TREES.items():
        if not all((root / t).is_dir() for t in trees):
            print(f"{name}: left out, the corpus lacks one of {trees}")
            continue
        for extra in ([], ["--no-profile"]):
            cmd = [binary, "audit", str(root / trees[0]), "--targets", TARGETS, "--format", "json", "-q"]
            cmd += extra
            for dep in trees[1:]:
                cmd += ["--with", str(root / dep)]
            run_to_file(cmd, out / f"{name}{'-np' if extra else ''}.json", cells)
    for name, trees in LINTS.items():
        if not all((root / t).is_dir() for t in trees):
            print(f"{name}: left out, the corpus lacks one of {trees}")
            continue
        cmd = [binary, "lint", str(root / trees[0]), "--format", "json", "-q"]
        for dep in trees[1:]:
            cmd += ["--with", str(root / dep)]
        run_to_file(cmd, out / f"{name}.json", lambda doc: findings(doc, root))
    return 0


def diff(a, b):
    a, b = pathlib.Path(a), pathlib.Path(b)
    differing = 0
    for run in sorted({p.name for p in a.glob("*.json")} | {p.name for p in b.glob("*.json")}):
        if not (a / run).exists() or not (b / run).exists():
            print(f"{run}: only in {a if (a / run).exists() else b}")
            differing += 1
            continue
        left, right = json.loads((a / run).read_text()), json.loads((b / run).read_text())
        for key in sorted(left.keys() | right.keys()):
            if left.get(key) != right.get(key):
                print(f"{run}: {key}: {left.get(key, 'no cell')} -> {right.get(key, 'no cell')}")
                differing += 1
    print(f"{differing} cells differ")
    return 1 if differing else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "save":
        sys.exit(save(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 4 and sys.argv[1] == "diff":
        sys.exit(diff(sys.argv[2], sys.argv[3]))
    print(__doc__)
    sys.exit(2)
