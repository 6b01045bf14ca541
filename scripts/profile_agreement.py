#!/usr/bin/env python3
"""How much of the matrix the code alone gives: each tree audited with its
profile and with --no-profile, cells compared (verdict and, for auto, the
backend picked). The profile's run is the reference; a cell missing from the
--no-profile run counts as differing.

usage: profile_agreement.py ARCHSCOPE ENGINE[:DEP...][@ROW=NAME,...] ...
A kernel library audited alone names its rows after its entry points without
a profile and after the profile's backends with one: ROW=NAME pairs say which
row is which (flashinfer_cutlass=cutlass_fused_moe).
prints one line per differing cell, then per tree: same / all, and the total.
"""
import json
import subprocess
import sys

TARGETS = "sm_90,sm_100,sm_103,sm_110,sm_120,sm_121"


def audit(binary, trees, extra):
    engine, deps = trees[0], trees[1:]
    cmd = [binary, "audit", engine, "--targets", TARGETS, "--format", "json", "-q"] + extra
    for d in deps:
        cmd += ["--with", d]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
    doc = json.loads(r.stdout)
    return {(c["backend"], c["target"]): (c["verdict"], c.get("picked", "")) for c in doc["cells"]}, ""


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    binary = sys.argv[1]
    total_same = total = 0
    for spec in sys.argv[2:]:
        spec, _, aliases = spec.partition("@")
        alias = dict(pair.split("=", 1) for pair in aliases.split(",") if pair)
        trees = spec.split(":")
        ref, err = audit(binary, trees, [])
        if ref is None:
            print(f"{trees[0]}: the profile run failed: {err}")
            return 1
        inferred, err = audit(binary, trees, ["--no-profile"])
        inferred = inferred or {}
        same = 0
        for key, want in sorted(ref.items()):
            got = inferred.get((alias.get(key[0], key[0]), key[1]))
            if got == want:
                same += 1
            else:
                print(f"  differs {trees[0]} {key[0]} {key[1]}: profile {' '.join(want).strip()}, "
                      f"--no-profile {' '.join(got).strip() if got else 'no cell' + (' (' + err + ')' if err else '')}")
        print(f"{trees[0]}: {same} of {len(ref)} cells the same ({100.0 * same / max(1, len(ref)):.1f}%)")
        total_same += same
        total += len(ref)
    print(f"total: {total_same} of {total} cells the same ({100.0 * total_same / max(1, total):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
