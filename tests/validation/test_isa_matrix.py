#!/usr/bin/env python3
"""The ISA verdict matrix matches the hardware facts (reference/hardware.md).

Runs `archscope validate --isa-only --format json` (nvcc/ptxas, no GPU) and
checks, for every target of the arch table: mma-blockscale assembles only on
sm_120a/121a (and their f targets), tcgen05 only on sm_100a/103a/110a (and
their f targets), w4a16 and reference on every target from sm_80; and that
ptxas names the missing instruction where it refuses. Exit 77 (SKIP) without
a CUDA toolkit.
"""
import json
import shutil
import subprocess
import sys

EXPECTED_OK = {
    "mma-blockscale": {"sm_120a", "sm_120f", "sm_121a", "sm_121f"},
    "tcgen05": {"sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_110a", "sm_110f"},
}
NAMED = {("tcgen05", "sm_120a"): "tcgen05.alloc", ("mma-blockscale", "sm_100a"): "mma with block scale",
         ("w4a16", "sm_75"): ""}


def main():
    if not (shutil.which("nvcc") or shutil.os.path.exists("/usr/local/cuda/bin/nvcc")):
        print("SKIP: no CUDA toolkit: the ISA matrix needs nvcc and ptxas")
        return 77
    run = subprocess.run([sys.argv[1], "validate", "--isa-only", "--format", "json", "-q"], capture_output=True,
                         text=True)
    if run.returncode != 0:
        print(f"FAIL: archscope exited {run.returncode}: {run.stderr}")
        return 1
    verdicts = {(v["family"], v["target"]): v for v in json.loads(run.stdout)["isa"]}
    targets = sorted({t for _, t in verdicts})
    bad = []
    for (family, target), v in sorted(verdicts.items()):
        sm = int("".join(c for c in target[3:] if c.isdigit()))
        if family in EXPECTED_OK:
            want = target in EXPECTED_OK[family]
        else:  # reference, w4a16: every target from sm_80 (reference also sm_75)
            want = sm >= 80 or family == "reference"
        got = v["verdict"] == "isa-ok"
        if got != want or v["verdict"] == "isa-error":
            bad.append(f"{family} on {target}: {v['verdict']} ({v['detail']}), expected {'ok' if want else 'missing'}")
    for (family, target), instr in NAMED.items():
        v = verdicts.get((family, target))
        if not v or v["verdict"] != "isa-missing" or instr not in v["detail"]:
            bad.append(f"{family} on {target}: ptxas should name {instr or 'the instruction'}: {v}")
    print(f"{len(verdicts)} verdicts over {len(targets)} targets: {', '.join(targets)}")
    for b in bad:
        print("FAIL " + b)
    print("PASS" if not bad else f"FAIL: {len(bad)} verdicts differ from the hardware facts")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
